/**
 * Parity of the PostgreSQL vector path (pgvector's HNSW, on PGlite over a loopback port) with the
 * SQLite one (sqlite-vec, exact) on dev sets: the same docs ingested into both with the hash
 * embedder, then every retrieval query searched in `vector` and `hybrid` mode, top 5 compared
 * (identical lists, mean overlap) with the p50 of the PostgreSQL vector search. The hash
 * embedder is a plumbing check (docs/vectors.md); PGlite is single-threaded WebAssembly, so the
 * timings are not a server's. docs/postgres.md ("Vectors") records the numbers.
 *
 * Usage:
 *   npx tsx scripts/pgvector-parity.ts [--ef-search 100] [--exact] <dataset-dir>...
 *   npx tsx scripts/pgvector-parity.ts /work/shared/datasets/graphile-worker-dev /work/shared/datasets/musique-dev
 * `--exact` turns index scans off (the exact scan, for comparison).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadCorpus } from '../src/corpus/index.ts';
import { createHashEmbedder } from '../src/embed/hash-embedder.ts';
import { createPostgresIndex } from '../src/index/postgres/postgres.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { withRetrieval } from '../src/index/vectors/vector-retrieval.ts';
import { startPgliteServer } from '../src/testing/pglite-server.ts';

const K = 5;

interface Options {
  efSearch: number | undefined;
  exact: boolean;
  datasets: string[];
}

function parseArguments(argv: string[]): Options {
  const options: Options = { efSearch: undefined, exact: false, datasets: [] };
  for (let position = 0; position < argv.length; position += 1) {
    const argument = argv[position]!;
    if (argument === '--exact') options.exact = true;
    else if (argument === '--ef-search') options.efSearch = Number(argv[(position += 1)]);
    else options.datasets.push(argument);
  }
  if (options.datasets.length === 0) throw new Error('Usage: npx tsx scripts/pgvector-parity.ts [--ef-search N] [--exact] <dataset-dir>...');
  return options;
}

async function measure(dataset: string, options: Options): Promise<Record<string, unknown>> {
  const { docs } = await loadCorpus(path.join(dataset, 'docs'));
  const queries = readFileSync(path.join(dataset, 'eval', 'retrieval_queries.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { query: string }).query);
  const embedder = createHashEmbedder({ dimensions: 256 });
  const sqlite = createSqliteIndex({ path: ':memory:' });
  await withRetrieval(sqlite, { embedder }).ingest(docs);
  const server = await startPgliteServer();
  const postgres = createPostgresIndex({ url: `${server.url}?schema=public`, maxConnections: 1, ...(options.efSearch ? { efSearch: options.efSearch } : {}) });
  try {
    const report = await withRetrieval(postgres, { embedder }).ingest(docs);
    if (options.exact) {
      // PGlite is one session: the setting reaches the index's connection.
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query('SET enable_indexscan = off');
      await client.end();
    }
    const counts = { vectorIdentical: 0, vectorOverlap: 0, hybridIdentical: 0 };
    const times: number[] = [];
    for (const query of queries) {
      const expected = (await withRetrieval(sqlite, { embedder, mode: 'vector' }).search(query, { k: K })).map((hit) => hit.chunkId);
      const started = performance.now();
      const found = (await withRetrieval(postgres, { embedder, mode: 'vector' }).search(query, { k: K })).map((hit) => hit.chunkId);
      times.push(performance.now() - started);
      if (found.join() === expected.join()) counts.vectorIdentical += 1;
      counts.vectorOverlap += found.filter((id) => expected.includes(id)).length / K;
      const hybridExpected = (await withRetrieval(sqlite, { embedder }).search(query, { k: K })).map((hit) => hit.chunkId);
      const hybridFound = (await withRetrieval(postgres, { embedder }).search(query, { k: K })).map((hit) => hit.chunkId);
      if (hybridFound.join() === hybridExpected.join()) counts.hybridIdentical += 1;
    }
    times.sort((a, b) => a - b);
    return {
      dataset: path.basename(dataset),
      chunks: report.chunks,
      efSearch: options.exact ? 'exact' : (options.efSearch ?? 'default'),
      queries: queries.length,
      vectorTop5Identical: counts.vectorIdentical,
      vectorTop5Overlap: Number((counts.vectorOverlap / queries.length).toFixed(3)),
      hybridTop5Identical: counts.hybridIdentical,
      postgresVectorSearchP50Ms: Number(times[Math.floor(times.length / 2)]!.toFixed(1)),
    };
  } finally {
    await postgres.close();
    await sqlite.close();
    await server.close();
  }
}

const options = parseArguments(process.argv.slice(2));
for (const dataset of options.datasets) console.log(JSON.stringify(await measure(dataset, options)));
