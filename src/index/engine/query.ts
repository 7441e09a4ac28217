import { queryIdentifiers, type QueryIdentifier } from '../analysis/identifiers.ts';
import { STOPWORDS, searchTerms, type TokenizerOptions } from '../analysis/tokenize.ts';
import { fold, functionWordsOf } from '../../text/function-words.ts';

/** At most this many terms go into one FTS5 query; the rest of a very long query is ignored. */
export const MAX_QUERY_TERMS = 64;
/** At most this many identifier keys are looked up among definitions. */
export const MAX_IDENTIFIER_KEYS = 16;

/**
 * The terms of a user query: its words and identifier expansions, lower-cased, stopwords
 * dropped (English's, and those of the language the query is written in: text/function-words.ts;
 * unless every term is a stopword), each once, in order, at most {@link MAX_QUERY_TERMS}.
 *
 * @example
 * queryTerms('What is max_payload_kb?', DEFAULT_TOKENIZER) // ['max', 'payload', 'kb', 'maxpayloadkb']
 */
export function queryTerms(query: string, tokenizer: TokenizerOptions): string[] {
  const all = [...new Set(searchTerms(query, tokenizer).map((positioned) => positioned.term))];
  // A query in another language written with spaces loses its function words too ("le", "de", "ist").
  const other = functionWordsOf(query);
  const content = all.filter((term) => !STOPWORDS.has(term) && !other.has(fold(term)));
  return (content.length > 0 ? content : all).slice(0, MAX_QUERY_TERMS);
}

/** What one user query becomes in FTS5 (see {@link buildSearchQuery}). */
export interface SearchQuery {
  /** The terms, for snippets. */
  terms: string[];
  /** The MATCH expression that selects and scores the chunks. */
  match: string;
  /** The identifiers the query names (none with `identifiers` off), at most {@link MAX_IDENTIFIER_KEYS} keys in all. */
  identifiers: QueryIdentifier[];
  /** MATCH expression, over the definitions table, of the keys of those identifiers; unset without identifiers. */
  definitions?: string;
}

/**
 * The FTS5 form of a user query, or `undefined` when it has no searchable term (only
 * punctuation or emoji). User text never reaches FTS5 syntax: each term is a quoted string,
 * joined with OR, so `NOT`, `NEAR`, `*`, `:`, `^` and parentheses are just words or gone. With
 * `identifiers` on, `definitions` looks the keys of the identifiers the query names up in the
 * definitions table (see schema.ts).
 *
 * @example
 * buildSearchQuery('ORB-1202 fails', DEFAULT_TOKENIZER)
 * // { terms: ['orb', '1202', 'orb1202', 'fails'],
 * //   match: '"orb" OR "1202" OR "orb1202" OR "fails"',
 * //   identifiers: [{ name: 'ORB-1202', spellings: ['orb-1202'], keys: ['orb1202'] }],
 * //   definitions: '"orb1202"' }
 */
export function buildSearchQuery(query: string, tokenizer: TokenizerOptions): SearchQuery | undefined {
  const terms = queryTerms(query, tokenizer);
  if (terms.length === 0) return undefined;
  const text = terms.map(quoteTerm).join(' OR ');
  const identifiers = tokenizer.identifiers ? capKeys(queryIdentifiers(query)) : [];
  if (identifiers.length === 0) return { terms, match: text, identifiers };
  const keys = [...new Set(identifiers.flatMap((identifier) => identifier.keys))];
  return { terms, match: text, identifiers, definitions: keys.map(quoteTerm).join(' OR ') };
}

/** The first identifiers whose keys add up to at most {@link MAX_IDENTIFIER_KEYS}. */
function capKeys(identifiers: QueryIdentifier[]): QueryIdentifier[] {
  const kept: QueryIdentifier[] = [];
  let count = 0;
  for (const identifier of identifiers) {
    count += identifier.keys.length;
    if (count > MAX_IDENTIFIER_KEYS) break;
    kept.push(identifier);
  }
  return kept;
}

/** Quotes one term as an FTS5 string (inner double quotes doubled). */
export function quoteTerm(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}
