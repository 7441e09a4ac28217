import { STOPWORDS, searchTerms, type TokenizerOptions } from './tokenize.ts';

/** At most this many terms go into one FTS5 query; the rest of a very long query is ignored. */
export const MAX_QUERY_TERMS = 64;

/**
 * The terms of a user query: its words and identifier expansions, lower-cased, stopwords
 * dropped (unless every term is a stopword), each once, in order, at most {@link MAX_QUERY_TERMS}.
 *
 * @example
 * queryTerms('What is max_payload_kb?', DEFAULT_TOKENIZER) // ['max', 'payload', 'kb', 'maxpayloadkb']
 */
export function queryTerms(query: string, tokenizer: TokenizerOptions): string[] {
  const all = [...new Set(searchTerms(query, tokenizer).map((positioned) => positioned.term))];
  const content = all.filter((term) => !STOPWORDS.has(term));
  return (content.length > 0 ? content : all).slice(0, MAX_QUERY_TERMS);
}

/**
 * An FTS5 MATCH expression for a user query, or `undefined` when the query has no searchable
 * term (only punctuation or emoji). User text never reaches FTS5 syntax: each term is a quoted
 * string, joined with OR, so `NOT`, `NEAR`, `*`, `:`, `^` and parentheses are just words or gone.
 *
 * @example
 * buildMatchExpression('ORB-1202 "quoted"', DEFAULT_TOKENIZER) // '"orb" OR "1202" OR "orb1202" OR "quoted"'
 */
export function buildMatchExpression(query: string, tokenizer: TokenizerOptions): string | undefined {
  const terms = queryTerms(query, tokenizer);
  if (terms.length === 0) return undefined;
  return terms.map(quoteTerm).join(' OR ');
}

/** Quotes one term as an FTS5 string (inner double quotes doubled). */
export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
