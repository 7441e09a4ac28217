import type { Chunk } from '../../corpus/types.ts';
import { definitionKeysText, definitionsOf, type Definitions } from '../analysis/definitions.ts';
import { innerHeadingsText } from '../heading-path.ts';
import { identifierExpansions } from '../analysis/identifier-expansions.ts';
import { words, type TokenizerOptions } from '../analysis/tokenize.ts';

/**
 * What the PostgreSQL index stores for one chunk besides its fields: each searched column as
 * words (split and folded here, as the SQLite tokenizer does, so both backends search the same
 * terms; PostgreSQL only stems them), the token count of BM25's length normalisation, and what
 * the chunk defines.
 */
export interface ChunkSearchText {
  title: string;
  heading: string;
  /** The headings between title and own heading (heading-path.ts). */
  innerHeadings: string;
  body: string;
  /** Identifier expansions of heading and text (tokenize.ts). */
  idents: string;
  /** Tokens of all five columns, as FTS5 counts a row's length. */
  tokenCount: number;
  /** JSON of its Definitions, or '' when it defines nothing. */
  definitionsJson: string;
  /** The keys of what it defines. */
  definitionKeys: string[];
}

/**
 * Caches one ingest keeps: expansions of each identifier-like run, and what each heading
 * defines (reset per document, as the SQLite ingest does).
 */
export interface SearchTextCaches {
  expansions: Map<string, string[]>;
  headings: Map<string, string[]>;
}

/**
 * Lower-cased words with diacritics removed (`Ẑébrâ` -> `zebra`), joined by spaces: what the
 * index's text search configuration receives, from documents and queries alike.
 *
 * @example
 * foldedWords('Use max_payload_kb, café!'); // ['use', 'max', 'payload', 'kb', 'cafe']
 */
export function foldedWords(text: string): string[] {
  return words(text.normalize('NFD').replace(/\p{M}+/gu, ''));
}

/**
 * The {@link ChunkSearchText} of each chunk of one document, in order.
 *
 * @example
 * chunkSearchTexts(doc.chunks, DEFAULT_TOKENIZER, { expansions: new Map(), headings: new Map() })[0].idents;
 */
export function chunkSearchTexts(chunks: readonly Chunk[], tokenizer: TokenizerOptions, caches: SearchTextCaches): ChunkSearchText[] {
  caches.headings = new Map();
  return chunks.map((chunk) => {
    const definitions: Definitions = tokenizer.identifiers ? definitionsOf(chunk, caches.headings) : { headings: [], lines: [] };
    const keys = definitionKeysText(definitions);
    const columns = [
      foldedWords(chunk.title),
      foldedWords(chunk.heading),
      foldedWords(innerHeadingsText(chunk)),
      foldedWords(chunk.text),
      tokenizer.identifiers ? foldedWords(identifierExpansions(`${chunk.heading}\n${chunk.text}`, caches.expansions).join(' ')) : [],
    ];
    const [title, heading, innerHeadings, body, idents] = columns.map((column) => column.join(' ')) as [string, string, string, string, string];
    return {
      title,
      heading,
      innerHeadings,
      body,
      idents,
      tokenCount: columns.reduce((sum, column) => sum + column.length, 0),
      definitionsJson: keys === '' ? '' : JSON.stringify(definitions),
      definitionKeys: keys === '' ? [] : keys.split(' '),
    };
  });
}
