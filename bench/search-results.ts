/**
 * `npx tsx bench/search-results.ts <dataset-dir>... [--result-chars N]`
 *
 * What the first page of `search_docs` shows on a dataset's retrieval queries (one fresh search
 * session per query, with the query's version): the characters of its JSON (the value the agent's
 * tools return; MCP adds `uri` and the budget fields), the passages shown whole, and, for queries
 * that list `facts`, how many of them the page's texts and snippets hold (a fact is found when one
 * of its spellings is, case and whitespace folded). `--result-chars 0` shows snippets only (the
 * page before whole passages). docs/mcp.md records the numbers.
 */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { SearchSession } from '../src/agent/session/search-session.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/index.ts';

interface Query {
  query: string;
  version?: string | null;
  facts?: string[][];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'result-chars': { type: 'string' } } });
const resultChars = values['result-chars'] === undefined ? undefined : Number(values['result-chars']);
const fold = (text: string) => text.toLowerCase().replace(/\s+/g, ' ');

for (const dataset of positionals) {
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(join(dataset, 'docs'))).docs);
  const queries = readFileSync(join(dataset, 'eval', 'retrieval_queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Query);
  const sizes: number[] = [];
  let hits = 0;
  let whole = 0;
  let withFacts = 0;
  let allFacts = 0;
  let factsFound = 0;
  let factsTotal = 0;
  for (const query of queries) {
    const session = new SearchSession({ index, ...(query.version ? { filter: { version: query.version } } : {}), ...(resultChars === undefined ? {} : { resultChars }) });
    const outcome = await session.searchDocs({ query: query.query });
    if (!outcome.ok) continue;
    const results = outcome.value.results as Array<{ text?: string; snippet?: string; complete?: boolean }>;
    sizes.push(JSON.stringify(outcome.value).length);
    hits += results.length;
    whole += results.filter((result) => result.complete === true).length;
    if (!query.facts?.length) continue;
    const shown = fold(results.map((result) => result.text ?? result.snippet ?? '').join('\n'));
    const found = query.facts.filter((spellings) => spellings.some((spelling) => shown.includes(fold(spelling)))).length;
    withFacts += 1;
    factsFound += found;
    factsTotal += query.facts.length;
    if (found === query.facts.length) allFacts += 1;
  }
  sizes.sort((a, b) => a - b);
  const mean = Math.round(sizes.reduce((sum, size) => sum + size, 0) / sizes.length);
  const at = (share: number) => sizes[Math.min(sizes.length - 1, Math.floor(sizes.length * share))];
  console.log(
    `${basename(dataset)}: ${sizes.length} queries, JSON chars mean ${mean}, p50 ${at(0.5)}, p90 ${at(0.9)}, max ${sizes.at(-1)}; ` +
      `${whole} of ${hits} passages whole; all facts on the page for ${allFacts} of ${withFacts} queries, ${factsFound} of ${factsTotal} facts`,
  );
  await index.close();
}
