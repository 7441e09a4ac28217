import { abstention } from '../agent/trust/answer.ts';
import type { AgentRun } from '../agent/run-types.ts';
import type { SearchFilter } from '../index/types.ts';
import type { FailureBucket } from './buckets.ts';
import type { Dataset } from './dataset/dataset.ts';
import { checkFacts, type Fact } from './facts.ts';
import { citedDocIds, docRecall, evidenceDocIds, readEvidenceDocIds, searchCount } from './metrics.ts';
import { modelFailed } from '../agent/stop-conditions.ts';
import { wordCount } from '../text/text.ts';

/** One question of the compare eval: one line of retrieval_queries.jsonl or of qa_gold.jsonl. */
export interface EvalCase {
  /** The query id, or `qa:<id>` for qa_gold cases (the two files may share ids). */
  id: string;
  /** The query kind; for qa_gold cases `qa`, or `unanswerable` when the line cites no page. */
  kind: string;
  question: string;
  /** Gold doc ids; empty when the right outcome is to abstain. */
  gold: string[];
  version: string | null;
  /** Key facts a correct answer holds (see facts.ts); empty when the line gives none. */
  facts: Fact[];
}

/**
 * The compare cases of a dataset: every retrieval query (unanswerable ones included), then every
 * qa_gold question, in file order. Each line is its own case, also when a qa_gold question
 * repeats a retrieval query: nothing is merged. A qa_gold line with no citations is an
 * `unanswerable` case.
 *
 * @example
 * const cases = compareCases(await loadDataset('datasets/orbit'));
 */
export function compareCases(dataset: Pick<Dataset, 'retrievalQueries' | 'qaGold'>): EvalCase[] {
  const retrieval = (dataset.retrievalQueries ?? []).map((query) => ({
    id: query.id,
    kind: query.kind,
    question: query.query,
    gold: query.relevantDocIds,
    version: query.version,
    facts: query.facts,
  }));
  const qa = (dataset.qaGold ?? []).map((item) => ({
    id: `qa:${item.id}`,
    kind: item.citations.length === 0 ? 'unanswerable' : 'qa',
    question: item.question,
    gold: item.citations,
    version: item.version,
    facts: item.facts,
  }));
  return [...retrieval, ...qa];
}

/**
 * The filter of a case: the run's own filter (labels, access groups of `--label`/`--groups`) with
 * the case's release line, if any; undefined when neither sets anything.
 *
 * @example
 * caseFilter({ version: '3.x' }, { principal: { groups: ['staff'] } }); // { principal: { groups: ['staff'] }, version: '3.x' }
 */
export function caseFilter(item: { version: string | null }, base: SearchFilter = {}): SearchFilter | undefined {
  const filter: SearchFilter = { ...base, ...(item.version === null ? {} : { version: item.version }) };
  return Object.keys(filter).length === 0 ? undefined : filter;
}

/** One arm's outcome on one case: the metrics of the compare table and the full run. */
export interface CaseResult {
  caseId: string;
  kind: string;
  arm: string;
  question: string;
  gold: string[];
  version: string | null;
  /** Evidence recall (gold pages among the pages seen or read); null when there is no gold. */
  recall: number | null;
  /** Read recall (gold pages with a chunk read in full); null when there is no gold. */
  readRecall: number | null;
  /** Every gold page was seen; null when there is no gold. */
  allFound: boolean | null;
  /** Cites at least one gold page, or abstains when there is no gold. */
  pass: boolean;
  /**
   * With gold pages: did not abstain and holds every fact (when the case lists none: `pass`).
   * Without gold pages: abstained.
   */
  correct: boolean;
  /** The case's facts ({@link EvalCase.facts}). */
  facts: Fact[];
  /** Facts present in the answer text or its citation quotes / facts; null without facts or gold. */
  factRecall: number | null;
  /** Facts the answer lacks. */
  missingFacts: Fact[];
  abstained: boolean;
  /**
   * An answerable case the run abstained on whose closest passages (answer.closest) hold every
   * fact (a case without facts: name a gold page). False otherwise.
   */
  closestUseful: boolean;
  /** Words of the answer text, citation markers not counted; null when the run abstained. */
  answerWords: number | null;
  searches: number;
  /** Distinct chunks seen or read. */
  chunks: number;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** null when the model's price is unknown. */
  costUsd: number | null;
  latencyMs: number;
  seenDocIds: string[];
  /** Doc ids with a chunk read in full (read_section, read_neighbors, or shown as full text). */
  readDocIds: string[];
  citedDocIds: string[];
  /** Set on failed agentic cases. */
  bucket?: FailureBucket;
  run: AgentRun;
}

/**
 * Scores one run of one arm on one case: `pass` (cites a gold page, or abstains where there is
 * none), `correct` (see {@link CaseResult.correct}) and the facts found (see facts.ts: any
 * accepted spelling in the answer text or a citation quote).
 *
 * @example
 * const result = scoreRun(item, 'agentic', await agenticRun(item.question, options));
 * result.pass; // true when a gold page is cited (or the run abstained where there is no gold)
 * result.correct; // true when it also holds every fact of the case
 */
export function scoreRun(item: EvalCase, arm: string, run: AgentRun): CaseResult {
  const seenDocIds = evidenceDocIds(run);
  const readDocIds = readEvidenceDocIds(run);
  const cited = citedDocIds(run);
  const answerable = item.gold.length > 0;
  const recall = docRecall(item.gold, seenDocIds) ?? null;
  const abstained = run.answer.abstained;
  const pass = answerable ? !abstained && cited.some((docId) => item.gold.includes(docId)) : abstained;
  const facts = answerable ? checkFacts(item.facts, [run.answer.text, ...run.answer.citations.map((citation) => citation.quote)]) : { missing: [], recall: null };
  const correct = !answerable ? abstained : item.facts.length === 0 ? pass : !abstained && facts.missing.length === 0;
  const closest = run.answer.closest ?? [];
  const closestUseful =
    answerable &&
    abstained &&
    closest.length > 0 &&
    (item.facts.length === 0
      ? closest.some((passage) => item.gold.includes(passage.docId))
      : checkFacts(item.facts, closest.flatMap((passage) => passage.sentences)).missing.length === 0);
  return {
    caseId: item.id,
    kind: item.kind,
    arm,
    question: item.question,
    gold: item.gold,
    version: item.version,
    recall,
    readRecall: docRecall(item.gold, readDocIds) ?? null,
    allFound: recall === null ? null : recall === 1,
    pass,
    correct,
    facts: item.facts,
    factRecall: facts.recall,
    missingFacts: facts.missing,
    abstained,
    closestUseful,
    answerWords: abstained ? null : answerWords(run.answer.text),
    searches: searchCount(run),
    chunks: run.trace.evidence.length,
    modelCalls: run.usage.modelCalls,
    inputTokens: run.usage.inputTokens,
    outputTokens: run.usage.outputTokens,
    costUsd: run.usage.costUsd,
    latencyMs: run.latencyMs,
    seenDocIds,
    readDocIds,
    citedDocIds: cited,
    run,
  };
}

/** True when a run ended on a provider failure (after the client's own retries), a timeout or its deadline. */
export function runFailed(run: AgentRun): boolean {
  return modelFailed(run.trace.stopReason);
}

/** How many runs of an eval the model failed (after the one retry), of how many, and the first one's cause. */
export interface FailedRuns {
  count: number;
  of: number;
  /** `<case id>: <last error>` of the first failed run; absent when none failed. */
  first?: string;
}

/**
 * Counts the runs the model failed (see {@link runFailed}).
 *
 * @example
 * failedRuns([{ id: 'q1', run }]); // { count: 1, of: 1, first: 'q1: model call 1 timed out after 60 s' }
 */
export function failedRuns(items: ReadonlyArray<{ id: string; run: AgentRun }>): FailedRuns {
  const failed = items.filter((item) => runFailed(item.run));
  const first = failed[0];
  return { count: failed.length, of: items.length, ...(first ? { first: `${first.id}: ${(first.run.trace.errors.at(-1) ?? first.run.trace.stopReason).replace(/\.$/, '')}` } : {}) };
}

/**
 * The run recorded for a case whose run threw even after the retry: it abstains, and its trace
 * carries the error.
 *
 * @example
 * const run = await task().catch((error) => thrownRun(question, error));
 */
export function thrownRun(question: string, error: unknown): AgentRun {
  return {
    question,
    answer: abstention(),
    trace: {
      steps: [],
      reads: [],
      evidence: [],
      rankedDocIds: [],
      toolChoices: [],
      calls: [],
      stopReason: 'error',
      droppedCitations: [],
      abstainReason: 'the run failed',
      errors: [`run failed: ${error instanceof Error ? error.message : String(error)}`],
    },
    usage: { modelCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null },
    latencyMs: 0,
  };
}

/**
 * Words of an answer text as a reader counts them (text.ts `wordCount`: in Chinese or Japanese the
 * words of `Intl.Segmenter`), its citation markers (`[1]`) not counted.
 *
 * @example
 * answerWords('Leases last 30 s. [1]'); // 4
 */
export function answerWords(text: string): number {
  return wordCount(text.replace(/\[\d+\]/g, ' '));
}
