/**
 * `npx tsx bench/tokenizer-matrix.ts [--data datasets/orbit] [--json]`
 *
 * A quick look at index settings on a dataset's retrieval queries: for each tokenizer / weight
 * setting, document-level recall@5 and MRR@10 of one search per query (version filter applied),
 * overall and per query kind. Not the retrieval eval (src/eval owns that); a way to compare
 * index options side by side on the same corpus.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadCorpus } from '../src/corpus/load.ts';
import { createSqliteIndex, type ColumnWeights } from '../src/index/sqlite/sqlite.ts';
import type { TokenizerOptions } from '../src/index/analysis/tokenize.ts';

interface RetrievalQuery {
  id: string;
  query: string;
  kind: string;
  relevant_doc_ids: string[];
  version: string | null;
}

interface Setting {
  name: string;
  tokenizer: TokenizerOptions;
  weights?: Partial<ColumnWeights>;
}

const SETTINGS: Setting[] = [
  { name: 'porter+idents (default)', tokenizer: { porter: true, identifiers: true } },
  { name: 'porter', tokenizer: { porter: true, identifiers: false } },
  { name: 'idents', tokenizer: { porter: false, identifiers: true } },
  { name: 'plain', tokenizer: { porter: false, identifiers: false } },
  { name: 'default, flat weights', tokenizer: { porter: true, identifiers: true }, weights: { title: 1, heading: 1 } },
  { name: 'default, heading 5', tokenizer: { porter: true, identifiers: true }, weights: { heading: 5 } },
  { name: 'default, idents 0.5', tokenizer: { porter: true, identifiers: true }, weights: { idents: 0.5 } },
  { name: 'default, title 0', tokenizer: { porter: true, identifiers: true }, weights: { title: 0 } },
];

/** Distinct doc ids of hits, in rank order. */
const rankedDocs = (docIds: string[]) => [...new Set(docIds)];

async function evaluate(setting: Setting, docs: Awaited<ReturnType<typeof loadCorpus>>['docs'], queries: RetrievalQuery[]) {
  const index = createSqliteIndex({ path: ':memory:', tokenizer: setting.tokenizer, weights: setting.weights });
  await index.ingest(docs);
  const perQuery: Array<{ kind: string; recall: number; reciprocalRank: number }> = [];
  for (const query of queries) {
    const filter = query.version === null ? undefined : { version: query.version };
    const hits = await index.search(query.query, { k: 30, filter });
    const ranked = rankedDocs(hits.map((hit) => hit.docId));
    const relevant = new Set(query.relevant_doc_ids);
    const recall = ranked.slice(0, 5).filter((docId) => relevant.has(docId)).length / relevant.size;
    const firstRelevant = ranked.slice(0, 10).findIndex((docId) => relevant.has(docId));
    perQuery.push({ kind: query.kind, recall, reciprocalRank: firstRelevant === -1 ? 0 : 1 / (firstRelevant + 1) });
  }
  await index.close();
  const summary = (rows: typeof perQuery) => ({
    queries: rows.length,
    recallAt5: round(rows.reduce((sum, row) => sum + row.recall, 0) / rows.length),
    mrrAt10: round(rows.reduce((sum, row) => sum + row.reciprocalRank, 0) / rows.length),
  });
  const kinds = [...new Set(perQuery.map((row) => row.kind))].sort();
  return {
    setting: setting.name,
    all: summary(perQuery),
    byKind: Object.fromEntries(kinds.map((kind) => [kind, summary(perQuery.filter((row) => row.kind === kind))])),
  };
}

const round = (value: number) => Number(value.toFixed(3));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { data: { type: 'string', default: 'datasets/orbit' }, json: { type: 'boolean', default: false } },
  });
  const { docs, problems } = await loadCorpus(join(values.data, 'docs'));
  if (problems.length > 0) process.stderr.write(`${problems.length} corpus problems ignored\n`);
  const queries = readFileSync(join(values.data, 'eval', 'retrieval_queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RetrievalQuery)
    .filter((query) => query.relevant_doc_ids.length > 0);
  const results = [];
  for (const setting of SETTINGS) results.push(await evaluate(setting, docs, queries));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ docs: docs.length, queries: queries.length, results })}\n`);
    return;
  }
  const kinds = Object.keys(results[0]?.byKind ?? {});
  const header = ['setting', 'R@5', 'MRR@10', ...kinds.map((kind) => `${kind} R@5`)];
  const rows = results.map((result) => [
    result.setting,
    result.all.recallAt5,
    result.all.mrrAt10,
    ...kinds.map((kind) => result.byKind[kind]?.recallAt5 ?? ''),
  ]);
  const cells = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  process.stdout.write(`${docs.length} docs, ${queries.length} answerable queries\n`);
  for (const row of cells) process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}\n`);
}

await main();
