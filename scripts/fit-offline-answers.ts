/**
 * Fits the thresholds of the offline planner's directness rule (src/models/offline/directness.ts)
 * on the answers it would give, and checks them on other dev sets (docs/calibration.md "Direct
 * answers"). Input: records of scripts/capture-offline-evidence.ts (what the planner had read when
 * it answered each case). For each case the planner's draft answer (draftAnswer) is scored: correct
 * when it holds every fact of the case (facts.ts, in the text or the quotes; a case without facts
 * when it cites a gold page, as the compare eval scores it), wrong when not or when the case has no
 * gold page. On the sets named by --fit, the rule's thresholds are searched for the most correct
 * answers at a precision of at least --precision (default 0.7); every set is then reported with
 * them: correct, wrong, answered, precision, closest-useful (abstained answerable cases whose
 * closest passages hold every fact), unanswerable abstained, answer words. --current reports the
 * rule as it is in directness.ts.
 *
 * Usage:
 *   npx tsx scripts/fit-offline-answers.ts --fit graphile-worker-dev /tmp/cap/orbit.jsonl /tmp/cap/graphile-worker-dev.jsonl ... [--current] [--json]
 * A set's name is its file's name without .jsonl.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { checkFacts } from '../src/eval/facts.ts';
import { readConversation } from '../src/models/offline/conversation.ts';
import { DEFAULT_DIRECTNESS_RULE, statesAnswer, type DirectnessRule } from '../src/models/offline/directness.ts';
import { draftAnswer, type AnswerDraft } from '../src/models/offline/extract-answer.ts';
import { answerAnalysis, withEarlierTurns } from '../src/models/offline/follow-up.ts';
import { analyzeQuestion } from '../src/text/question.ts';
import type { CapturedCase } from './capture-offline-evidence.ts';

interface Row {
  set: string;
  id: string;
  answerable: boolean;
  draft: AnswerDraft | undefined;
  /** The draft answer holds every fact (answerable cases only). */
  correct: boolean;
  /** The closest passages hold every fact (answerable cases only). */
  closestUseful: boolean;
  words: number;
}

function rowsOf(path: string): Row[] {
  const set = basename(path).replace(/\.jsonl$/, '');
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const item = JSON.parse(line) as CapturedCase;
      const conversation = readConversation(item.prompt);
      const analysis = analyzeQuestion(conversation.question);
      const draft = draftAnswer(answerAnalysis(analysis, withEarlierTurns(analysis, conversation)), conversation);
      const answerable = item.gold.length > 0;
      const answer = draft?.answer;
      const holds = (texts: string[]) => item.facts.length > 0 && checkFacts(item.facts, texts).missing.length === 0;
      return {
        set,
        id: item.id,
        answerable,
        draft,
        correct: answerable && answer !== undefined && (item.facts.length === 0 ? answer.citations.some((citation) => item.gold.includes(citation.doc_id)) : holds([answer.text, ...answer.citations.map((citation) => citation.quote)])),
        closestUseful: answerable && (item.facts.length === 0 ? (draft?.closest ?? []).some((passage) => item.gold.includes(passage.doc_id)) : holds((draft?.closest ?? []).flatMap((passage) => passage.sentences))),
        words: answer === undefined ? 0 : answer.text.split(/\s+/).filter((word) => !/^\[\d+\]$/.test(word)).length,
      };
    });
}

/** The rule with the most correct answers on `rows` at a precision of at least `minPrecision` (ties: the loosest). */
function fit(rows: Row[], minPrecision: number): DirectnessRule {
  let best: { rule: DirectnessRule; correct: number } = { rule: DEFAULT_DIRECTNESS_RULE, correct: -1 };
  for (const minContextCover of [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 1]) {
    for (const minRank of [0, 0.5, 0.7, 0.8, 0.9, 1]) {
      for (const minAnchors of [0, 0.5, 1]) {
        const rule = { minContextCover, minRank, minAnchors };
        const answers = rows.filter((row) => row.draft?.answer !== undefined && statesAnswer(row.draft.features, rule));
        const correct = answers.filter((row) => row.correct).length;
        if (correct / Math.max(1, answers.length) >= minPrecision && correct > best.correct) best = { rule, correct };
      }
    }
  }
  return best.rule;
}

interface SetReport {
  set: string;
  cases: number;
  correct: number;
  wrong: number;
  answered: number;
  precision: number;
  closestUseful: number;
  correctOrClosestOfAnswerable: number;
  unanswerableAbstained: string;
  medianWords: number;
  maxWords: number;
}

function report(set: string, rows: Row[], rule: DirectnessRule): SetReport {
  const answers = rows.filter((row) => row.draft?.answer !== undefined && statesAnswer(row.draft.features, rule));
  const correct = answers.filter((row) => row.correct).length;
  const abstainedAnswerable = rows.filter((row) => row.answerable && !answers.includes(row));
  const closestUseful = abstainedAnswerable.filter((row) => row.closestUseful).length;
  const answerable = rows.filter((row) => row.answerable).length;
  const unanswerable = rows.filter((row) => !row.answerable);
  const words = answers.map((row) => row.words).sort((a, b) => a - b);
  return {
    set,
    cases: rows.length,
    correct,
    wrong: answers.length - correct,
    answered: answers.length,
    precision: Number((correct / Math.max(1, answers.length)).toFixed(3)),
    closestUseful,
    correctOrClosestOfAnswerable: Number(((correct + closestUseful) / Math.max(1, answerable)).toFixed(3)),
    unanswerableAbstained: `${unanswerable.filter((row) => !answers.includes(row)).length}/${unanswerable.length}`,
    medianWords: words.length === 0 ? 0 : words[Math.floor((words.length - 1) / 2)]!,
    maxWords: words.at(-1) ?? 0,
  };
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { fit: { type: 'string' }, precision: { type: 'string' }, json: { type: 'boolean' }, current: { type: 'boolean' }, dump: { type: 'boolean' } },
  });
  const sets = positionals.map((path) => ({ name: basename(path).replace(/\.jsonl$/, ''), rows: rowsOf(path) }));
  if (values.dump) {
    for (const set of sets) {
      for (const row of set.rows) {
        process.stdout.write(`${JSON.stringify({ set: set.name, id: row.id, correct: row.correct, closestUseful: row.closestUseful, features: row.draft?.features, answer: row.draft?.answer?.text })}\n`);
      }
    }
    return;
  }
  const fitNames = (values.fit ?? sets.map((set) => set.name).join(',')).split(',');
  const rule = values.current ? DEFAULT_DIRECTNESS_RULE : fit(sets.filter((set) => fitNames.includes(set.name)).flatMap((set) => set.rows), Number(values.precision ?? 0.7));
  const reports = sets.map((set) => report(set.name, set.rows, rule));
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ fittedOn: values.current ? null : fitNames, rule, reports })}\n`);
    return;
  }
  process.stdout.write(`${values.current ? 'the rule of directness.ts' : `fitted on ${fitNames.join(', ')}`}: ${JSON.stringify(rule)}\n`);
  for (const row of reports) process.stdout.write(`${JSON.stringify(row)}\n`);
}

main();
