/**
 * `npx tsx bench/label-values.ts [-- --sections 20000]`
 *
 * What a run with model labels pays before its first model call: `labelValues('store', filter)`
 * (the enum of the `store` argument of search_docs), on the bench's MuSiQue pages labelled as
 * in bench/access.ts (a fifth restricted to admins, a fifth store Aundh, a tenth store all; here
 * also a tenth store Baner). p50/p99/mean in ms per call, single process.
 */
import { parseArgs } from 'node:util';
import { parseDocument } from '../src/corpus/parse-document.ts';
import type { Doc } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { SearchFilter } from '../src/index/types.ts';
import { summarize, timeEach } from './measure.ts';
import { buildPages, musiqueFolder, readPassages, type BenchPage } from './musique-corpus.ts';

function labelled(page: BenchPage, n: number): BenchPage {
  const labels = n % 5 === 0 ? 'labels:\n  acl: [admins]\n  store: Hinjewadi\n' : n % 5 === 1 ? 'labels:\n  store: Aundh\n' : n % 10 === 2 ? 'labels:\n  store: all\n' : n % 10 === 3 ? 'labels:\n  store: Baner\n' : '';
  return { ...page, markdown: page.markdown.replace(/\n---\n/, `\n${labels}---\n`) };
}

function parse(pages: BenchPage[]): Doc[] {
  return pages.map((page) => {
    const parsed = parseDocument({ path: page.path, bytes: Buffer.from(page.markdown) });
    if (!parsed.ok) throw new Error(`bench: ${page.path}: ${parsed.problems[0]?.message}`);
    return parsed.doc;
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sections: { type: 'string', default: '20000' } } });
  const pages = buildPages(readPassages(musiqueFolder(process.env)), Number(values.sections), 7).map(labelled);
  const index = createSqliteIndex({ path: ':memory:' });
  const report = await index.ingest(parse(pages));
  const filters: Array<[string, SearchFilter | undefined]> = [
    ['anonymous', undefined],
    ['groups admins', { principal: { groups: ['admins'] } }],
    ['version 3.x, staff', { version: '3.x', principal: { groups: ['staff'] } }],
  ];
  process.stdout.write(`${report.chunks} chunks, labelValues('store'), ms per call\n\n| filter | values | p50 | p99 | mean |\n|---|---|---|---|---|\n`);
  const calls = Array.from({ length: 200 }, (_, n) => n);
  for (const [name, filter] of filters) {
    const found = await index.labelValues('store', filter);
    const timings = summarize(await timeEach(calls, () => index.labelValues('store', filter), performance.now.bind(performance), 10));
    process.stdout.write(`| ${name} | ${found.join(', ')} | ${timings.p50.toFixed(2)} | ${timings.p99.toFixed(2)} | ${timings.mean.toFixed(2)} |\n`);
  }
  await index.close();
}

await main();
