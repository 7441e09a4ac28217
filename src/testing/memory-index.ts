import { createHash } from 'node:crypto';
import type { Chunk, Doc } from '../corpus/types.ts';
import { AtlasError } from '../errors.ts';
import { definitionKeysText, definitionsOf, type Definitions } from '../index/analysis/definitions.ts';
import { DEFINER_WINDOW, putDefinitionsFirst, WIDE_DEFINER_WINDOW } from '../index/analysis/definitions-first.ts';
import { computeIndexVersion } from '../index/index-version.ts';
import { queryIdentifiers } from '../index/analysis/identifiers.ts';
import { queryTerms } from '../index/engine/query.ts';
import { ACL_LABEL, ALL_VALUE, assertAclLabels, passesLabels } from '../index/filter.ts';
import { withLazySnippet } from '../index/snippet.ts';
import { identifierExpansions } from '../index/analysis/identifier-expansions.ts';
import { DEFAULT_TOKENIZER } from '../index/analysis/tokenize.ts';
import type { Hit, IndexBackend, IngestReport, SearchFilter, SearchOptions } from '../index/types.ts';
import { assertUniqueDocIds } from '../index/unique-docs.ts';
import { runWords, splitSpaceless } from '../text/scripts.ts';

/** One chunk and what search needs of it, computed once at ingest. */
interface Entry {
  chunk: Chunk;
  /** Term counts of the heading (twice), the headings between title and heading, the text, and identifier expansions. */
  counts: Map<string, number>;
  definitions: Definitions;
  /** The keys of everything the chunk defines, to find it as the index's definitions table does. */
  definitionKeys: Set<string>;
}

/**
 * A tiny in-memory {@link IndexBackend} for tests of the agent layer: term-overlap scoring (a
 * heading word counts twice), identifier expansions, definitions first for queries naming an
 * identifier, snippets, and the same filter (labels with "all", access groups) and ingest semantics as the real backends; no
 * persistence. It passes the shared backend suite (src/index/contract/backend-suite.ts).
 *
 * @example
 * const index = createMemoryIndex([makeDoc('flows', 'all', [['Results', 'A step result ...']])]);
 */
export function createMemoryIndex(docs: Doc[] = []): IndexBackend {
  let entries = new Map<string, Entry>();
  let hashes = new Map<string, string>();
  const load = (all: Doc[]) => {
    const next = new Map<string, Entry>();
    for (const doc of all) {
      const headingCache = new Map<string, string[]>();
      for (const chunk of doc.chunks) {
        if (next.has(chunk.chunkId)) {
          throw new AtlasError('invalid-corpus', `Atlas: the chunk id "${chunk.chunkId}" is used twice (${doc.sourcePath}); nothing was written to the index.`);
        }
        const definitions = definitionsOf(chunk, headingCache);
        const definitionKeys = new Set(definitionKeysText(definitions).split(' ').filter((key) => key !== ''));
        next.set(chunk.chunkId, { chunk, counts: termCounts(chunk), definitions, definitionKeys });
      }
    }
    entries = next;
    hashes = new Map(all.map((doc) => [doc.docId, doc.contentHash]));
  };
  assertUniqueDocIds(docs);
  assertAclLabels(docs);
  load(docs);
  const visible = (chunkId: string | undefined, filter?: SearchFilter) => {
    const chunk = chunkId === undefined ? undefined : entries.get(chunkId)?.chunk;
    return chunk !== undefined && passesFilter(chunk, filter) ? chunk : undefined;
  };

  return {
    async search(query: string, options: SearchOptions): Promise<Hit[]> {
      const terms = [...new Set([...tokens(query), ...identifierExpansions(query)])];
      const scored: Array<Entry & { id: string; score: number }> = [];
      for (const entry of entries.values()) {
        if (!passesFilter(entry.chunk, options.filter)) continue;
        const score = terms.reduce((sum, term) => sum + (entry.counts.get(term) ?? 0), 0);
        if (score > 0) scored.push({ ...entry, id: entry.chunk.chunkId, score });
      }
      scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
      const identifiers = queryIdentifiers(query);
      const keys = identifiers.flatMap((identifier) => identifier.keys);
      const defines = (entry: Entry) => keys.some((key) => entry.definitionKeys.has(key));
      const near = scored.slice(0, DEFINER_WINDOW).filter(defines);
      const definers = near.length > 0 ? near : scored.slice(0, WIDE_DEFINER_WINDOW).filter(defines);
      const ranked = putDefinitionsFirst(scored.slice(0, options.k), definers, identifiers, options.k);
      const snippetTerms = queryTerms(query, DEFAULT_TOKENIZER);
      return ranked.map(({ chunk, score }) => withLazySnippet({ ...chunk, score }, snippetTerms, DEFAULT_TOKENIZER));
    },
    async getChunk(chunkId, filter) {
      return visible(chunkId, filter);
    },
    async neighbors(chunkId, filter) {
      const chunk = visible(chunkId, filter);
      if (!chunk) return [];
      return [chunk.prevChunkId, chunk.nextChunkId]
        .map((id) => visible(id, filter))
        .filter((neighbor): neighbor is Chunk => neighbor !== undefined);
    },
    async ingest(next: Doc[]): Promise<IngestReport> {
      assertUniqueDocIds(next);
      assertAclLabels(next);
      const before = new Map(hashes);
      load(next);
      const ids = next.map((doc) => doc.docId);
      const sorted = (list: string[]) => list.sort();
      return {
        added: sorted(ids.filter((id) => !before.has(id))),
        updated: sorted(ids.filter((id) => before.has(id) && before.get(id) !== hashes.get(id))),
        unchanged: sorted(ids.filter((id) => before.get(id) === hashes.get(id))),
        removed: sorted([...before.keys()].filter((id) => !hashes.has(id))),
        chunks: entries.size,
        indexVersion: versionOf(hashes),
      };
    },
    async indexVersion() {
      return versionOf(hashes);
    },
    async stats() {
      return { docs: hashes.size, chunks: entries.size };
    },
    async documentFrequencies(words) {
      // Counts over restricted pages would tell of their words (as the SQLite index, none then).
      if ([...entries.values()].some((entry) => entry.chunk.labels[ACL_LABEL] !== undefined)) return undefined;
      // A word's rarest token, as the SQLite index reads a word of several tokens.
      const frequencies = words.map((word) => {
        const counts = tokens(word).map((token) => [...entries.values()].filter((entry) => entry.counts.has(token)).length);
        return counts.length === 0 ? 0 : Math.min(...counts);
      });
      return { chunks: entries.size, frequencies };
    },
    async labelValues(name, filter) {
      const values = new Set<string>();
      for (const { chunk } of entries.values()) {
        const have = chunk.labels[name];
        if (have === undefined || !passesFilter(chunk, filter)) continue;
        for (const value of Array.isArray(have) ? have : [have]) if (value !== ALL_VALUE) values.add(value);
      }
      return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    },
    async close() {},
  };
}

/**
 * Builds a {@link Doc} from `[heading, text]` sections, for tests. Section 0 is the first pair.
 *
 * @example
 * makeDoc('leases', '3.x', [['Leases', 'A worker holds a job...'], ['Settings', 'lease_seconds ...']]);
 */
export function makeDoc(docId: string, appliesTo: string, sections: Array<[heading: string, text: string]>): Doc {
  const title = sections[0]?.[0] ?? docId;
  let line = 1;
  const chunks: Chunk[] = sections.map(([heading, text], ord) => {
    const startLine = line;
    line += text.split('\n').length + 1;
    return {
      chunkId: `${docId}#${ord}`,
      docId,
      title,
      heading,
      headingPath: ord === 0 ? [title] : [title, heading],
      text,
      appliesTo,
      ord,
      labels: {},
      sourcePath: `${docId}.md`,
      startLine,
      endLine: line - 1,
      prevChunkId: ord > 0 ? `${docId}#${ord - 1}` : undefined,
      nextChunkId: ord < sections.length - 1 ? `${docId}#${ord + 1}` : undefined,
    };
  });
  const contentHash = createHash('sha256').update(JSON.stringify(sections)).digest('hex');
  return { docId, title, appliesTo, labels: {}, sourcePath: `${docId}.md`, contentHash, chunks };
}

function passesFilter(chunk: Chunk, filter?: SearchFilter): boolean {
  if (filter?.version !== undefined && chunk.appliesTo !== 'all' && chunk.appliesTo !== filter.version) return false;
  return passesLabels(chunk.labels, filter);
}

/** Counts of the chunk's searchable terms: the heading twice, the headings between title and heading, the text, expansions. */
function termCounts(chunk: Chunk): Map<string, number> {
  const between = chunk.headingPath.slice(1, -1).join(' ');
  const counts = new Map<string, number>();
  const text = `${chunk.heading} ${chunk.heading} ${between} ${chunk.text}`;
  for (const term of [...tokens(text, true), ...identifierExpansions(`${chunk.heading}\n${chunk.text}`)]) {
    counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  return counts;
}

/** Words between spaces and punctuation; a run of text without spaces as its bigrams or words, with its characters at ingest (`unigrams`), as the real index does. */
function tokens(text: string, unigrams = false): string[] {
  const found: string[] = [];
  const words = (other: string) => found.push(...(other.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []));
  splitSpaceless(text, words, (run) => found.push(...runWords(run, unigrams).map((word) => word.word)));
  return found;
}

function versionOf(hashes: Map<string, string>): string {
  return computeIndexVersion([...hashes].map(([docId, contentHash]) => ({ docId, contentHash })), DEFAULT_TOKENIZER);
}
