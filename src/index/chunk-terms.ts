import { COLUMN_COUNT } from './postings-codec.ts';
import type { ChunkTerms } from './postings-store.ts';
import type { Fts5Tokenizer } from './fts5-tokens.ts';

/**
 * The {@link ChunkTerms} of a chunk from the text of its searched columns, in the order of the
 * BM25 weights (title, heading, the headings between, body, identifier expansions), tokenized
 * as FTS5 would: what the postings store indexes for it.
 *
 * @example
 * chunkTerms(['Retries', 'Backoff', '', 'Retries back off.', ''], tokenizer).terms; // 'retri backoff back off'
 */
export function chunkTerms(columns: readonly string[], tokenizer: Fts5Tokenizer): ChunkTerms {
  const slots = new Map<string, number>();
  const terms: string[] = [];
  let counts = new Uint32Array(64 * COLUMN_COUNT);
  let length = 0;
  for (let column = 0; column < COLUMN_COUNT; column += 1) {
    const text = columns[column] ?? '';
    if (text === '') continue;
    tokenizer.forEachToken(text, (token) => {
      length += 1;
      let slot = slots.get(token);
      if (slot === undefined) {
        slot = terms.length;
        slots.set(token, slot);
        terms.push(token);
        if ((slot + 1) * COLUMN_COUNT > counts.length) {
          const grown = new Uint32Array(counts.length * 2);
          grown.set(counts);
          counts = grown;
        }
      }
      const at = slot * COLUMN_COUNT + column;
      counts[at] = counts[at]! + 1;
    });
  }
  return { terms: terms.join(' '), counts: counts.slice(0, terms.length * COLUMN_COUNT), length };
}
