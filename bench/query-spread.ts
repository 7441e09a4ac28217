/**
 * `npx tsx bench/query-spread.ts [--size 10000] [--runs 7]`
 *
 * How much the bench questions differ in their own cost: on the `bench:scale` database of
 * `--size` chunks (built and cached by bench/scale-db.ts), every question of the bench, unfiltered
 * and filtered, after two untimed rounds, each run `--runs` times in one process; prints each
 * query's best time (what it costs without a garbage collection or the machine in the way),
 * sorted, with the median and the spread (slowest ÷ median). Against this, a p99 ÷ p50 of single
 * runs far above the spread is the process or the machine, not the questions.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { benchQueries, musiqueFolder, queryFilter, readPassages, readQuestions } from './musique-corpus.ts';
import { cachedScaleDb } from './scale-db.ts';

const { values } = parseArgs({ options: { size: { type: 'string', default: '10000' }, runs: { type: 'string', default: '7' } } });
const folder = musiqueFolder(process.env);
const { path } = await cachedScaleDb({ cache: join(tmpdir(), 'atlas-scale'), size: Number(values.size), passages: readPassages(folder), log: (line) => process.stderr.write(`${line}\n`) });
const queries = benchQueries(readQuestions(folder), 2);
const index = createSqliteIndex({ path, readonly: true });
const run = (query: (typeof queries)[number]) => index.search(query.query, { k: 10, filter: queryFilter(query) });
for (let round = 0; round < 2; round += 1) for (const query of queries) await run(query);
const best: Array<{ ms: number; query: string }> = [];
for (const query of queries) {
  let ms = Infinity;
  for (let n = 0; n < Number(values.runs); n += 1) {
    const start = performance.now();
    await run(query);
    ms = Math.min(ms, performance.now() - start);
  }
  best.push({ ms, query: `${query.version ?? 'all'}  ${query.query}` });
}
await index.close();
best.sort((a, b) => a.ms - b.ms);
const median = best[Math.floor(best.length / 2)]!.ms;
for (const { ms, query } of best) process.stdout.write(`${ms.toFixed(2).padStart(7)} ms  ${query}\n`);
process.stdout.write(`${best.length} queries, best of ${values.runs} runs each: median ${median.toFixed(2)} ms, slowest ${best.at(-1)!.ms.toFixed(2)} ms, spread ${(best.at(-1)!.ms / median).toFixed(2)}x\n`);
