/**
 * `npx tsx bench/chunk-recall.ts <dataset-dir> [--k 3,5,15] [--json] [--max-chunk-chars N]
 *   [--min-chunk-chars N] [--split-depth N] [--heading-split-chars N]`
 *
 * How well chunks carry answers to one-shot search: the dataset's docs are chunked with the given
 * options and indexed in SQLite, and each query is searched once (with its version filter).
 * Per k: page recall (the share of a query's gold pages among the top-k chunks' pages, averaged),
 * and for queries with `facts` (graphile-worker-dev has them) the share of facts found (one of
 * a fact's spellings in the top-k chunks' heading paths and texts, case and whitespace ignored),
 * the share of those queries with every fact found, and the mean characters of the k chunks.
 * docs/chunking.md records the numbers behind the default options.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { CHUNKING_FLAGS, chunkingOptionsFrom } from './chunking-flags.ts';

interface Query {
  query: string;
  relevant_doc_ids: string[];
  version?: string | null;
  facts?: string[][];
}

const normalize = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');
const round3 = (value: number) => Number(value.toFixed(3));
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { k: { type: 'string', default: '3,5,15' }, json: { type: 'boolean', default: false }, ...CHUNKING_FLAGS },
  });
  const dataset = positionals[0];
  if (dataset === undefined) throw new Error('Pass a dataset folder with docs/ and eval/retrieval_queries.jsonl, e.g. datasets/orbit');
  const options = chunkingOptionsFrom(values);
  const queries = readFileSync(join(dataset, 'eval/retrieval_queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Query)
    .filter((query) => query.relevant_doc_ids.length > 0);
  const { docs } = await loadCorpus(join(dataset, 'docs'), options);
  const index = createSqliteIndex({ path: ':memory:' });
  try {
    await index.ingest(docs);
    const rows = [];
    for (const k of values.k.split(',').map(Number)) {
      const recalls: number[] = [];
      const factShares: number[] = [];
      const complete: boolean[] = [];
      const characters: number[] = [];
      let facts = 0;
      let found = 0;
      for (const query of queries) {
        const hits = await index.search(query.query, { k, ...(query.version ? { filter: { version: query.version } } : {}) });
        const pages = new Set(hits.map((hit) => hit.docId));
        recalls.push(query.relevant_doc_ids.filter((docId) => pages.has(docId)).length / query.relevant_doc_ids.length);
        characters.push(hits.reduce((sum, hit) => sum + hit.text.length, 0));
        if (!query.facts || query.facts.length === 0) continue;
        const shown = normalize(hits.map((hit) => `${hit.headingPath.join(' ')}\n${hit.text}`).join('\n'));
        const hitFacts = query.facts.filter((spellings) => spellings.some((spelling) => shown.includes(normalize(spelling)))).length;
        facts += query.facts.length;
        found += hitFacts;
        factShares.push(hitFacts / query.facts.length);
        complete.push(hitFacts === query.facts.length);
      }
      rows.push({
        k,
        pageRecall: round3(mean(recalls)),
        ...(facts > 0 ? { facts: round3(found / facts), allFacts: round3(complete.filter(Boolean).length / complete.length) } : {}),
        meanChars: Math.round(mean(characters)),
      });
    }
    const chunks = docs.reduce((sum, doc) => sum + doc.chunks.length, 0);
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ options, queries: queries.length, chunks, rows })}\n`);
      return;
    }
    for (const row of rows) {
      const factColumns = row.facts === undefined ? '' : ` facts=${row.facts} allFacts=${row.allFacts}`;
      process.stdout.write(`k=${row.k} pageRecall=${row.pageRecall}${factColumns} meanChars=${row.meanChars} chunks=${chunks}\n`);
    }
  } finally {
    await index.close();
  }
}

await main();
