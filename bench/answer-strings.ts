/**
 * A stricter score for question sets whose gold answers are short strings (MuSiQue, HotpotQA:
 * "Victoria Falls", with `answer_aliases`), which `eval compare` scores by the pages cited when a
 * line gives no `facts`: an answer that cites a gold page but never names the answer counts as
 * correct there. This reads an `eval compare` report and the dataset's qa_gold.jsonl, and counts
 * per arm the answers whose text or quotes hold the gold answer or an alias, and the abstentions
 * whose closest passages hold it (both matched as `facts` are, eval/facts.ts). A case is matched
 * to its gold line by its question. Alone:
 * `npx tsx bench/answer-strings.ts --report <out>/report.json --data ../shared/datasets/musique-dev [--json]`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkFacts } from '../src/eval/facts.ts';

/** What a case of a report needs here. */
export interface ReportCase {
  arm: string;
  question: string;
  abstained: boolean;
  run: { answer: { text: string; citations: Array<{ quote: string }>; closest?: Array<{ sentences: string[] }> } };
}

/** Per arm: cases with a gold answer string, answered, answered holding it, abstained with closest passages that hold it. */
export interface AnswerStringCounts {
  cases: number;
  answered: number;
  held: number;
  /** held / answered; null without answers. */
  precision: number | null;
  closestHeld: number;
}

/**
 * Counts, per arm, how many answers hold their question's gold answer (or an alias) and how many
 * abstentions show it among the closest passages; cases whose question has no gold string are
 * left out.
 *
 * @example
 * answerStringCounts(cases, new Map([['Who directed Big Eyes?', ['Tim Burton']]]));
 * // { agentic: { cases: 1, answered: 1, held: 1, precision: 1, closestHeld: 0 } }
 */
export function answerStringCounts(cases: ReportCase[], answers: ReadonlyMap<string, string[]>): Record<string, AnswerStringCounts> {
  const counts: Record<string, AnswerStringCounts> = {};
  for (const item of cases) {
    const spellings = answers.get(item.question);
    if (spellings === undefined) continue;
    const count = (counts[item.arm] ??= { cases: 0, answered: 0, held: 0, precision: null, closestHeld: 0 });
    count.cases += 1;
    const { answer } = item.run;
    const holds = (texts: string[]) => checkFacts([spellings], texts).missing.length === 0;
    if (!item.abstained) {
      count.answered += 1;
      if (holds([answer.text, ...answer.citations.map((citation) => citation.quote)])) count.held += 1;
    } else if (holds((answer.closest ?? []).flatMap((passage) => passage.sentences))) {
      count.closestHeld += 1;
    }
    count.precision = count.answered === 0 ? null : count.held / count.answered;
  }
  return counts;
}

/** The gold answer and its aliases per question, from a dataset's eval/qa_gold.jsonl (answerable lines only). */
export function goldAnswers(qaGold: string): Map<string, string[]> {
  const answers = new Map<string, string[]>();
  for (const line of qaGold.split('\n')) {
    if (line.trim() === '') continue;
    const item = JSON.parse(line) as { question: string; answer: string; answer_aliases?: string[]; citations: string[] };
    if (item.citations.length === 0) continue;
    answers.set(item.question, [item.answer, ...(item.answer_aliases ?? [])].filter((spelling) => spelling.trim() !== ''));
  }
  return answers;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { report: { type: 'string' }, data: { type: 'string' }, json: { type: 'boolean', default: false } } });
  if (!values.report || !values.data) {
    console.error('usage: npx tsx bench/answer-strings.ts --report <out>/report.json --data <dataset-dir> [--json]');
    process.exit(2);
  }
  const report = JSON.parse(readFileSync(values.report, 'utf8')) as { cases: ReportCase[] };
  const counts = answerStringCounts(report.cases, goldAnswers(readFileSync(join(values.data, 'eval', 'qa_gold.jsonl'), 'utf8')));
  if (values.json) console.log(JSON.stringify(counts));
  else
    for (const [arm, count] of Object.entries(counts))
      console.log(`${arm}: ${count.cases} cases, ${count.answered} answered, ${count.held} hold the gold answer (precision ${count.precision?.toFixed(3) ?? '-'}), ${count.closestHeld} abstentions show it among the closest passages`);
}
