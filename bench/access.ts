/**
 * `npx tsx bench/access.ts [-- --sections 20000] [-- --json]`
 *
 * What access groups and label filters cost at search time, on the bench's MuSiQue pages
 * (bench/musique-corpus.ts): the same pages indexed twice, once as they are and once with a
 * fifth of them restricted to `admins` (`labels.acl`) and store labels on others (a fifth
 * `Aundh`, a tenth `all`); every real question searched (top 10) as anonymous, as `staff`, as
 * `admins`, and with `--label store=Aundh`. p50/p99/mean in ms per search, single process.
 */
import { parseArgs } from 'node:util';
import type { Doc } from '../src/corpus/types.ts';
import { parseDocument } from '../src/corpus/parse-document.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { SearchFilter } from '../src/index/types.ts';
import { summarize, timeEach, type Timings } from './measure.ts';
import { buildPages, musiqueFolder, readPassages, readQuestions, type BenchPage } from './musique-corpus.ts';

function parse(pages: BenchPage[]): Doc[] {
  return pages.map((page) => {
    const parsed = parseDocument({ path: page.path, bytes: Buffer.from(page.markdown) });
    if (!parsed.ok) throw new Error(`bench: ${page.path}: ${parsed.problems[0]?.message}`);
    return parsed.doc;
  });
}

/** Labels on page n: every fifth restricted to admins, every fifth (offset 1) store Aundh, every tenth (offset 2) store all. */
function withLabels(page: BenchPage, n: number): BenchPage {
  const labels = n % 5 === 0 ? 'labels:\n  acl: [admins]\n' : n % 5 === 1 ? 'labels:\n  store: Aundh\n' : n % 10 === 2 ? 'labels:\n  store: all\n' : '';
  return { ...page, markdown: page.markdown.replace(/\n---\n/, `\n${labels}---\n`) };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { sections: { type: 'string', default: '20000' }, json: { type: 'boolean', default: false } } });
  const folder = musiqueFolder(process.env);
  const pages = buildPages(readPassages(folder), Number(values.sections), 7);
  const questions = readQuestions(folder);
  const now = performance.now.bind(performance);
  const rows: Array<{ index: string; filter: string; chunks: number; search: Timings }> = [];
  const variants: Array<[string, BenchPage[], Array<[string, SearchFilter | undefined]>]> = [
    ['plain', pages, [['none', undefined], ['version 3.x', { version: '3.x' }]]],
    [
      'acl+store labels',
      pages.map(withLabels),
      [
        ['anonymous', undefined],
        ['groups staff', { principal: { groups: ['staff'] } }],
        ['groups admins', { principal: { groups: ['admins'] } }],
        ['store=Aundh', { labels: { store: 'Aundh' } }],
        ['store=Aundh, 3.x, staff', { labels: { store: 'Aundh' }, version: '3.x', principal: { groups: ['staff'] } }],
      ],
    ],
  ];
  for (const [name, variantPages, filters] of variants) {
    const index = createSqliteIndex({ path: ':memory:' });
    const report = await index.ingest(parse(variantPages));
    for (const [label, filter] of filters) {
      const durations = await timeEach(questions, (query) => index.search(query, { k: 10, ...(filter ? { filter } : {}) }), now, 20);
      rows.push({ index: name, filter: label, chunks: report.chunks, search: summarize(durations) });
    }
    await index.close();
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ questions: questions.length, rows })}\n`);
    return;
  }
  process.stdout.write(`${questions.length} questions, top 10, ms per search\n\n| index | filter | chunks | p50 | p99 | mean |\n|---|---|---|---|---|---|\n`);
  for (const row of rows) {
    const { p50, p99, mean } = row.search;
    process.stdout.write(`| ${row.index} | ${row.filter} | ${row.chunks} | ${p50.toFixed(2)} | ${p99.toFixed(2)} | ${mean.toFixed(2)} |\n`);
  }
}

await main();
