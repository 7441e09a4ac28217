/**
 * `npx tsx bench/libreoffice-help.ts [--dir /usr/share/libreoffice/help] [--languages en,ru,el] [--json]`
 *
 * Questions in English, Russian and Greek asked of LibreOffice Help as Debian's packages
 * `libreoffice-help-en-us`, `-ru` and `-el` install it: the same 2,560 HTML pages per language,
 * each language's index holding its own pages only. For each language, 15 questions a reader of
 * that language asks, written by a helper from pages of that language (different pages and
 * questions per language, not translations), each with a string a right answer holds, copied from
 * the page, and the page; and 3 the Help does not answer (bench/libreoffice-help/cases.json, with
 * how they were written in bench/libreoffice-help/README.md).
 *
 * Per language it reports retrieval, the question itself as the query (the page among the first
 * 1 and 5 hits, and the mean reciprocal rank of its first hit in 10), and the offline planner's
 * answers as bench/expected-string.ts scores them (right, wrong, closest useful, abstained). A
 * check of languages other than English and other scripts (Cyrillic, Greek), not an eval set;
 * a language whose pages are not installed is skipped and named.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { answerOutcome, type Outcome } from './expected-string.ts';

/** Where Debian's libreoffice-help packages put the pages, one folder per language. */
const LIBREOFFICE_HELP = '/usr/share/libreoffice/help';

/** The folder of each language's pages under {@link LIBREOFFICE_HELP}. */
const FOLDERS: Record<string, string> = { en: 'en-US', ru: 'ru', el: 'el' };

/** One question: the string a right answer holds and the page (relative to the language's folder) it was written from; both null when the Help does not answer it. */
interface HelpCase {
  question: string;
  holds: string | null;
  page: string | null;
}

const CASES = JSON.parse(readFileSync(new URL('./libreoffice-help/cases.json', import.meta.url), 'utf8')) as Record<string, HelpCase[]>;

interface CaseResult {
  language: string;
  question: string;
  answerable: boolean;
  /** Rank (1-based) of the first hit of the question's page among the first 10; null when absent or unanswerable. */
  rank: number | null;
  outcome: Outcome;
  answer: string;
}

/** One language's questions over an index of that language's pages. */
export async function measureLanguage(dir: string, language: string): Promise<CaseResult[]> {
  const { docs } = await loadCorpus(join(dir, FOLDERS[language]!));
  const index = createSqliteIndex({ path: ':memory:' });
  const results: CaseResult[] = [];
  try {
    await index.ingest(docs);
    for (const item of CASES[language] ?? []) {
      const answerable = item.holds !== null;
      let rank: number | null = null;
      if (item.page !== null) {
        const hits = await index.search(item.question, { k: 10 });
        const at = hits.findIndex((hit) => hit.sourcePath === item.page);
        rank = at === -1 ? null : at + 1;
      }
      const { answer } = await agenticRun(item.question, { model: createOfflineModel(), index });
      results.push({ language, question: item.question, answerable, rank, outcome: answerOutcome(answer, item.holds ?? undefined), answer: answer.text });
    }
  } finally {
    await index.close();
  }
  return results;
}

/** A language's line of the summary. */
function summary(language: string, of: CaseResult[]): string {
  const answerable = of.filter((result) => result.answerable);
  const count = (outcome: Outcome, isAnswerable: boolean) => of.filter((result) => result.outcome === outcome && result.answerable === isAnswerable).length;
  const within = (k: number) => answerable.filter((result) => result.rank !== null && result.rank <= k).length;
  const mrr = answerable.reduce((sum, result) => sum + (result.rank === null ? 0 : 1 / result.rank), 0) / Math.max(1, answerable.length);
  return (
    `${language}: retrieval (${answerable.length}): page first ${within(1)}, in the first 5 ${within(5)}, MRR@10 ${mrr.toFixed(3)}; ` +
    `answers: right ${count('right', true)}, wrong ${count('wrong', true)}, closest useful ${count('closest useful', true)}, abstained ${count('abstained', true)}; ` +
    `unanswerable (${of.length - answerable.length}): abstained ${count('abstained', false)}, answered ${count('wrong', false)}`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { dir: { type: 'string', default: LIBREOFFICE_HELP }, languages: { type: 'string', default: Object.keys(FOLDERS).join(',') }, json: { type: 'boolean', default: false } } });
  const results: CaseResult[] = [];
  const lines: string[] = [];
  for (const language of values.languages.split(',')) {
    if (FOLDERS[language] === undefined || CASES[language] === undefined) throw new Error(`bench: no questions for language ${JSON.stringify(language)}; the languages are ${Object.keys(FOLDERS).join(', ')}`);
    if (!existsSync(join(values.dir, FOLDERS[language]!, 'text'))) {
      lines.push(`${language}: skipped: no pages at ${join(values.dir, FOLDERS[language]!)} (apt-get install libreoffice-help-${FOLDERS[language]!.toLowerCase()})`);
      continue;
    }
    const of = await measureLanguage(values.dir, language);
    results.push(...of);
    lines.push(summary(language, of));
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ results, summary: lines })}\n`);
    return;
  }
  process.stdout.write(`| language | question | page rank | outcome | answer |\n|---|---|---|---|---|\n${results.map((result) => `| ${result.language} | ${result.question} | ${result.rank ?? '-'} | ${result.outcome} | ${result.answer.slice(0, 80).replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`).join('\n')}\n\n${lines.join('\n')}\n`);
}

await main();
