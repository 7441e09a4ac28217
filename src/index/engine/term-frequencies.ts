import type { Fts5Tokenizer } from '../analysis/fts5-tokens.ts';
import type { PostingsReader } from './postings-store.ts';

/** How many chunks hold each word asked about, and how many chunks the index has. */
export interface DocumentFrequencies {
  chunks: number;
  /** Parallel to the words asked about: chunks holding the word (0 for a word the index lacks). */
  frequencies: number[];
}

/**
 * The document frequency of each of `words` in the postings store, each word tokenized as the
 * index tokenizes text (FTS5 unicode61, Porter when on): the chunks holding its token, the
 * rarest of its tokens when it has several (`max_payload_kb` is three), 0 for a word of no token
 * or one the index lacks. One read of the terms table for all the words.
 *
 * @example
 * documentFrequencies(reader, tokens, ['lease', 'leases', 'kubernetes']); // { chunks: 359, frequencies: [41, 41, 3] }
 */
export function documentFrequencies(reader: PostingsReader, tokens: Fts5Tokenizer, words: readonly string[]): DocumentFrequencies {
  const tokenized = words.map((word) => tokens.tokens(word));
  const stored = reader.terms([...new Set(tokenized.flat())]);
  const frequencies = tokenized.map((list) => (list.length === 0 ? 0 : Math.min(...list.map((token) => stored.get(token)?.df ?? 0))));
  return { chunks: reader.totals().chunks, frequencies };
}
