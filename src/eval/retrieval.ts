import type { LanguageModel } from 'ai';
import type { ModelLabel } from '../agent/policy/model-labels.ts';
import type { Policy } from '../agent/policy/policy.ts';
import { agenticRun } from '../agent/run.ts';
import type { ModelPrice } from '../agent/cost.ts';
import type { RunLimits } from '../agent/run-types.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { caseFilter, failedRuns, runFailed, thrownRun, type FailedRuns } from './cases.ts';
import type { AgentRun } from '../agent/run-types.ts';
import { kindOrder } from './compare-rows.ts';
import type { RetrievalQuery } from './dataset/dataset.ts';
import { runIdentifierCheck, type IdentifierCheck } from './identifier-check.ts';
import { docRecall, evidenceDocIds, mean, median, readEvidenceDocIds, round3, searchCount, share } from './metrics.ts';
import { runPool, withRetry, type Sleep } from './pool.ts';

/** The arms `atlas eval retrieval` can run: one-shot search at k=5 and k=15, and the agent. */
export type RetrievalArmGroup = 'classic' | 'agentic';

/** Classic one-shot depths. */
export const CLASSIC_KS = [5, 15] as const;

/** One row of the retrieval table. Answerable kinds carry recall/allFound, the others abstainRate. */
export interface RetrievalRow {
  kind: string;
  arm: 'classic@5' | 'classic@15' | 'agentic';
  /** The agentic arm's chunk cap, when one was set. */
  maxChunks?: number;
  n: number;
  /** Mean over queries of |gold pages found| / |gold pages|. */
  recall?: number;
  /** Mean over queries of |gold pages with a chunk read in full| / |gold pages|. */
  readRecall?: number;
  /** Share of queries whose gold pages were all found. */
  allFound?: number;
  /** Share of runs that abstained (kinds without gold pages, agentic arm only). */
  abstainRate?: number;
  /** Mean searches per query. */
  searches: number;
  /** Mean distinct chunks seen per query. */
  chunks: number;
  /** Median latency per query in ms. */
  p50Ms: number;
}

/** Options of {@link runRetrievalEval}. */
export interface RetrievalEvalOptions {
  /** Labels and access groups every search is held to (the query's release line is added). */
  filter?: SearchFilter;
  queries: RetrievalQuery[];
  index: IndexBackend;
  /** Default both. */
  arms?: RetrievalArmGroup[];
  /** Required for the agentic arm. */
  model?: LanguageModel;
  price?: ModelPrice | null;
  /** Per-call timeout and deadline of every agentic run (defaults of `RunLimits`). */
  limits?: RunLimits;
  maxSearches?: number;
  /** Chunk cap of the agentic arm (to compare at an equal chunk budget). */
  maxChunks?: number;
  /** Agentic runs in flight at once (default 4). */
  concurrency?: number;
  /** Mandatory retrievals every agentic run applies (its required searches count as evidence seen). */
  policy?: Policy;
  /** Labels the model may set as search_docs arguments in the agentic arm (atlas.config.yaml `model_labels`). */
  modelLabels?: ModelLabel[];
  now?: () => number;
  sleep?: Sleep;
  /** Told after each measured query of each arm. */
  onQueryDone?: () => void;
}

/** One arm on one query, as listed per case in `atlas eval retrieval --json`. */
export interface RetrievalCaseArm {
  /** Gold pages among the pages seen; null when the query has no gold page. */
  recall: number | null;
  /** Gold pages among the pages read in full; null when the query has no gold page. */
  readRecall: number | null;
  /** Pages with a chunk seen (snippet or full text), in first-seen order. */
  docsSeen: string[];
  /** Pages with a chunk read in full: classic passages are full section text, so all of them. */
  docsRead: string[];
  searches: number;
  chunks: number;
  /** The agentic run abstained (agentic arm only). */
  abstained?: boolean;
}

/** One query of the retrieval eval with what every arm found for it. */
export interface RetrievalCaseRow {
  id: string;
  kind: string;
  gold: string[];
  /** By arm name (`classic@5`, `classic@15`, `agentic`); classic arms skip queries without gold. */
  arms: Record<string, RetrievalCaseArm>;
}

/** What {@link runRetrievalEval} measured. */
export interface RetrievalResult {
  rows: RetrievalRow[];
  cases: RetrievalCaseRow[];
  /** MRR@10 of the queries that name an identifier (see identifier-check.ts). */
  identifiers: IdentifierCheck;
  /** Agentic runs the model failed (absent without the agentic arm): counted as found nothing. */
  failedRuns?: FailedRuns;
}

interface Measurement {
  id: string;
  kind: string;
  gold: string[];
  seen: string[];
  read: string[];
  abstained?: boolean;
  searches: number;
  chunks: number;
  ms: number;
}

/** How many measurements {@link runRetrievalEval} makes (for a progress bar). */
export function retrievalRunCount(queries: RetrievalQuery[], arms: RetrievalArmGroup[]): number {
  const answerable = queries.filter((query) => query.relevantDocIds.length > 0).length;
  return (arms.includes('classic') ? answerable * CLASSIC_KS.length : 0) + (arms.includes('agentic') ? queries.length : 0);
}

/**
 * The retrieval eval: per query, one-shot `index.search` at k=5 and k=15 with the query's
 * version filter, and the agentic run (evidence recall over every chunk it saw or read; read
 * recall over the chunks it read in full). Rows per (kind, arm), then an `all` row per arm over
 * the kinds with gold pages. Kinds without gold pages get the agentic abstain rate instead of
 * recall, and no classic rows. Also returns every query's per-arm row and the identifier check.
 *
 * @example
 * const { rows, cases, identifiers } = await runRetrievalEval({ queries, index, model, arms: ['classic', 'agentic'] });
 * // rows: [{ kind: 'multi_hop', arm: 'classic@5', n: 20, recall: 0.78, readRecall: 0.78, allFound: 0.55, ... }, ...]
 */
export async function runRetrievalEval(options: RetrievalEvalOptions): Promise<RetrievalResult> {
  const arms = options.arms ?? ['classic', 'agentic'];
  const now = options.now ?? (() => performance.now());
  const identifiers = await runIdentifierCheck({ queries: options.queries, index: options.index });
  const measured = new Map<RetrievalRow['arm'], Measurement[]>();
  if (arms.includes('classic')) {
    const answerable = options.queries.filter((query) => query.relevantDocIds.length > 0);
    for (const k of CLASSIC_KS) {
      const results: Measurement[] = [];
      for (const query of answerable) {
        const started = now();
        const filter = caseFilter(query, options.filter);
        const hits = await options.index.search(query.query, { k, ...(filter ? { filter } : {}) });
        const ms = now() - started;
        // The classic arm shows every passage as its full section text: what it sees, it reads.
        const found = [...new Set(hits.map((hit) => hit.docId))];
        results.push({ id: query.id, kind: query.kind, gold: query.relevantDocIds, seen: found, read: found, searches: 1, chunks: hits.length, ms });
        options.onQueryDone?.();
      }
      measured.set(`classic@${k}`, results);
    }
  }
  let failed: FailedRuns | undefined;
  if (arms.includes('agentic')) {
    const { measurements, failures } = await agenticMeasurements(options, now);
    measured.set('agentic', measurements);
    failed = failures;
  }
  return { rows: retrievalRows(measured, options.maxChunks), cases: caseRows(options.queries, measured), identifiers, ...(failed ? { failedRuns: failed } : {}) };
}

async function agenticMeasurements(options: RetrievalEvalOptions, now: () => number): Promise<{ measurements: Measurement[]; failures: FailedRuns }> {
  const { model } = options;
  if (!model) throw new Error('runRetrievalEval: the agentic arm needs options.model');
  const runs: Array<{ id: string; run: AgentRun }> = [];
  const measurements = await runPool(options.queries, options.concurrency ?? 4, async (query) => {
    const filter = caseFilter(query, options.filter);
    const run = await withRetry(
      () =>
        agenticRun(query.query, {
          model,
          index: options.index,
          price: options.price ?? null,
          now,
          ...options.limits,
          ...(filter ? { filter } : {}),
          ...(options.maxSearches === undefined ? {} : { maxSearches: options.maxSearches }),
          ...(options.maxChunks === undefined ? {} : { maxChunks: options.maxChunks }),
          ...(options.policy ? { policy: options.policy } : {}),
          ...(options.modelLabels ? { modelLabels: options.modelLabels } : {}),
        }),
      { failed: runFailed, ...(options.sleep ? { sleep: options.sleep } : {}) },
    ).catch((error: unknown) => thrownRun(query.query, error));
    runs.push({ id: query.id, run });
    options.onQueryDone?.();
    return {
      id: query.id,
      kind: query.kind,
      gold: query.relevantDocIds,
      seen: evidenceDocIds(run),
      read: readEvidenceDocIds(run),
      abstained: run.answer.abstained,
      searches: searchCount(run),
      chunks: run.trace.evidence.length,
      ms: run.latencyMs,
    };
  });
  // In case order, so the first failure named is the same whatever the concurrency.
  const order = new Map(options.queries.map((query, n) => [query.id, n]));
  return { measurements, failures: failedRuns(runs.sort((a, b) => order.get(a.id)! - order.get(b.id)!)) };
}

function retrievalRows(measured: Map<RetrievalRow['arm'], Measurement[]>, maxChunks: number | undefined): RetrievalRow[] {
  const all = [...measured.values()].flat();
  const rows: RetrievalRow[] = [];
  for (const kind of [...kindOrder(all), 'all']) {
    for (const [arm, results] of measured) {
      const group = results.filter((result) => (kind === 'all' ? result.gold.length > 0 : result.kind === kind));
      if (group.length === 0) continue;
      const answerable = group.every((result) => result.gold.length > 0);
      const head = { kind, arm, ...(arm === 'agentic' && maxChunks !== undefined ? { maxChunks } : {}), n: group.length };
      const quality = answerable
        ? {
            recall: round3(mean(group.map((result) => docRecall(result.gold, result.seen) ?? 0))),
            readRecall: round3(mean(group.map((result) => docRecall(result.gold, result.read) ?? 0))),
            allFound: round3(share(group.map((result) => docRecall(result.gold, result.seen) === 1))),
          }
        : { abstainRate: round3(share(group.map((result) => result.abstained === true))) };
      rows.push({
        ...head,
        ...quality,
        searches: round3(mean(group.map((result) => result.searches))),
        chunks: round3(mean(group.map((result) => result.chunks))),
        p50Ms: round3(median(group.map((result) => result.ms))),
      });
    }
  }
  return rows;
}

function caseRows(queries: RetrievalQuery[], measured: Map<RetrievalRow['arm'], Measurement[]>): RetrievalCaseRow[] {
  const byArm = [...measured].map(([arm, results]) => [arm, new Map(results.map((result) => [result.id, result]))] as const);
  return queries.map((query) => {
    const arms: Record<string, RetrievalCaseArm> = {};
    for (const [arm, results] of byArm) {
      const result = results.get(query.id);
      if (!result) continue;
      arms[arm] = {
        recall: roundOrNull(docRecall(result.gold, result.seen)),
        readRecall: roundOrNull(docRecall(result.gold, result.read)),
        docsSeen: result.seen,
        docsRead: result.read,
        searches: result.searches,
        chunks: result.chunks,
        ...(result.abstained === undefined ? {} : { abstained: result.abstained }),
      };
    }
    return { id: query.id, kind: query.kind, gold: query.relevantDocIds, arms };
  });
}

function roundOrNull(value: number | undefined): number | null {
  return value === undefined ? null : round3(value);
}
