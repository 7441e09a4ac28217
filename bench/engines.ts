import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import Database from 'better-sqlite3';
import FlexSearch from 'flexsearch';
import type { Chunk, Doc } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { STOPWORDS } from '../src/index/analysis/tokenize.ts';
import type { SearchFilter } from '../src/index/types.ts';
import { createMiniSearchBaseline } from './minisearch-baseline.ts';

/** The search options every engine of the bench takes: top k, optional version filter. */
export interface EngineSearchOptions {
  k: number;
  filter?: SearchFilter;
}

/** One search engine as the bench drives it: ingest everything once, then search; ids out. */
export interface BenchEngine {
  ingest(docs: Doc[]): Promise<void>;
  search(query: string, options: EngineSearchOptions): Promise<string[]>;
  close(): Promise<void>;
}

/** The engines the bench knows, by the name the child process is given. */
export const ENGINE_NAMES = ['atlas', 'fts5', 'minisearch', 'flexsearch', 'orama'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/**
 * The engine called `name`; `dbPath` is the database file of the SQLite engines, created afresh,
 * or with `existing` opened read-only as an earlier ingest left it (to search in another process).
 *
 * @example
 * const engine = createEngine('fts5', '/tmp/bench/fts5.db');
 * await engine.ingest(docs);
 * await engine.search('Who directed 12 Monkeys?', { k: 10, filter: { version: '3.x' } });
 */
export function createEngine(name: EngineName, dbPath: string, options: { existing?: boolean } = {}): BenchEngine {
  if (options.existing === true && name !== 'atlas' && name !== 'fts5') throw new Error(`bench: ${name} keeps its index in memory; it has no index file to open`);
  switch (name) {
    case 'atlas':
      return atlasEngine(dbPath, options.existing === true);
    case 'fts5':
      return rawFts5Engine(dbPath, options.existing === true);
    case 'minisearch':
      return miniSearchEngine();
    case 'flexsearch':
      return flexSearchEngine();
    case 'orama':
      return oramaEngine();
  }
}

/** The words of a query as the straightforward baselines see them: lower-case, stopwords dropped. */
export function plainTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  const content = words.filter((word) => !STOPWORDS.has(word));
  return [...new Set(content.length > 0 ? content : words)];
}

const chunksOf = (docs: Doc[]): Chunk[] => docs.flatMap((doc) => doc.chunks);
const versionsOf = (appliesTo: string): string[] => (appliesTo === 'all' ? ['all', '2.x', '3.x'] : [appliesTo]);

function atlasEngine(path: string, existing: boolean): BenchEngine {
  const index = createSqliteIndex(existing ? { path, readonly: true } : { path, rebuild: true });
  return {
    async ingest(docs) {
      await index.ingest(docs);
    },
    async search(query, options) {
      return (await index.search(query, options)).map((hit) => hit.chunkId);
    },
    close: () => index.close(),
  };
}

/**
 * Raw FTS5 the straightforward way: one FTS5 table holding the text (title, heading, body, with
 * chunk id and version as UNINDEXED columns), the same tokenizer as Atlas's default (porter
 * unicode61 remove_diacritics 2), the same column weights for title, heading and body, one
 * transaction of prepared inserts, the query's words OR-ed, the filter in the WHERE clause.
 */
function rawFts5Engine(path: string, existing: boolean): BenchEngine {
  const db = new Database(path, { readonly: existing });
  if (!existing) {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.exec(`DROP TABLE IF EXISTS chunks;
      CREATE VIRTUAL TABLE chunks USING fts5(chunk_id UNINDEXED, applies_to UNINDEXED, title, heading, body,
        tokenize='porter unicode61 remove_diacritics 2')`);
  }
  const select = (filtered: boolean) =>
    db.prepare(
      `SELECT chunk_id, title, heading, body FROM chunks WHERE chunks MATCH ?${filtered ? " AND applies_to IN (?, 'all')" : ''}
       ORDER BY bm25(chunks, 0, 0, 2, 3, 1) LIMIT ?`,
    );
  const unfiltered = select(false);
  const filtered = select(true);
  return {
    async ingest(docs) {
      const insert = db.prepare('INSERT INTO chunks (chunk_id, applies_to, title, heading, body) VALUES (?, ?, ?, ?, ?)');
      db.transaction(() => {
        for (const chunk of chunksOf(docs)) insert.run(chunk.chunkId, chunk.appliesTo, chunk.title, chunk.heading, chunk.text);
      })();
    },
    async search(query, { k, filter }) {
      const terms = plainTerms(query);
      if (terms.length === 0) return [];
      const match = terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' OR ');
      const rows = (filter?.version === undefined ? unfiltered.all(match, k) : filtered.all(match, filter.version, k)) as Array<{ chunk_id: string }>;
      return rows.map((row) => row.chunk_id);
    },
    async close() {
      db.close();
    },
  };
}

function miniSearchEngine(): BenchEngine {
  let baseline: ReturnType<typeof createMiniSearchBaseline> | undefined;
  return {
    async ingest(docs) {
      baseline = createMiniSearchBaseline(chunksOf(docs));
    },
    async search(query, options) {
      return baseline!.search(query, options);
    },
    async close() {},
  };
}

/**
 * FlexSearch's Document index over title, heading and text, versions as a tag (a chunk for
 * "all" carries every version's tag, so a filter is one tag lookup), suggestions on so a query
 * matches chunks holding only some of its words (OR, like the others).
 */
function flexSearchEngine(): BenchEngine {
  type Row = { id: number; title: string; heading: string; text: string; versions: string[] };
  const index = new FlexSearch.Document<Row>({
    document: { id: 'id', index: ['title', 'heading', 'text'], tag: ['versions'] },
    tokenize: 'strict',
  });
  const ids: string[] = [];
  return {
    async ingest(docs) {
      for (const chunk of chunksOf(docs)) {
        index.add({ id: ids.length, title: chunk.title, heading: chunk.heading, text: chunk.text, versions: versionsOf(chunk.appliesTo) });
        ids.push(chunk.chunkId);
      }
    },
    async search(query, { k, filter }) {
      const version = filter?.version;
      const results = index.search({
        query: plainTerms(query).join(' '),
        limit: k,
        suggest: true,
        merge: true,
        ...(version === undefined ? {} : { tag: { versions: version } }),
      }) as unknown as Array<{ id: number }>;
      return results.slice(0, k).map((result) => ids[result.id]!);
    },
    async close() {},
  };
}

/** Orama over title, heading and text (boosts as Atlas's), version as an enum, any word matching. */
function oramaEngine(): BenchEngine {
  const db = create({
    schema: { chunkId: 'string', title: 'string', heading: 'string', text: 'string', appliesTo: 'enum' } as const,
  });
  return {
    async ingest(docs) {
      await insertMultiple(
        db,
        chunksOf(docs).map((chunk) => ({ chunkId: chunk.chunkId, title: chunk.title, heading: chunk.heading, text: chunk.text, appliesTo: chunk.appliesTo })),
        1000,
      );
    },
    async search(query, { k, filter }) {
      const version = filter?.version;
      const result = await oramaSearch(db, {
        term: plainTerms(query).join(' '),
        properties: ['title', 'heading', 'text'],
        boost: { title: 2, heading: 3 },
        threshold: 1,
        limit: k,
        ...(version === undefined ? {} : { where: { appliesTo: { in: [version, 'all'] } } }),
      });
      return result.hits.map((hit) => (hit.document as { chunkId: string }).chunkId);
    },
    async close() {},
  };
}
