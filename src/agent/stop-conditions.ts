import type { SearchSession } from './session/search-session.ts';

/**
 * Why a run stopped. The last three end it without an answer: `error`, the last model call
 * failed (a provider fault after retries: 5xx, 429, 401, a refused connection, a truncated or
 * non-JSON reply); `timeout`, a model call ran past the per-call timeout; `deadline`, the run's
 * deadline came (see `RunLimits`).
 */
export type StopReason = 'model-done' | 'search-budget' | 'chunk-budget' | 'no-new-evidence' | 'max-steps' | 'error' | 'timeout' | 'deadline';

/**
 * Whether a run with this stop reason ended without an answer because the model failed (a
 * provider fault, `timeout` or `deadline`), as opposed to answering or abstaining from the docs.
 *
 * @example
 * modelFailed('timeout'); // true
 * modelFailed('no-new-evidence'); // false
 */
export function modelFailed(stopReason: StopReason): boolean {
  return stopReason === 'error' || stopReason === 'timeout' || stopReason === 'deadline';
}

/** What a stop rule looks at: the session's recorded steps and the model calls made so far. */
export interface StopContext {
  session: SearchSession;
  modelCalls: number;
}

/** A stop rule: returns the reason to stop, or undefined to go on. */
export type StopCondition = (context: StopContext) => StopReason | undefined;

/**
 * Stops when the search budget is used up.
 *
 * @example
 * const rules = [searchBudget(), noNewEvidence(2), maxSteps(10)];
 */
export function searchBudget(): StopCondition {
  return ({ session }) => (session.budgetExhausted ? 'search-budget' : undefined);
}

/** Stops when the chunk budget (maxChunks) is used up. */
export function chunkBudget(): StopCondition {
  return ({ session }) => (session.chunkBudgetExhausted ? 'chunk-budget' : undefined);
}

/** Stops when the last `window` searches surfaced no new doc id. */
export function noNewEvidence(window = 2): StopCondition {
  return ({ session }) => {
    const recent = session.steps.slice(-window);
    return recent.length === window && recent.every((step) => step.newDocIds.length === 0) ? 'no-new-evidence' : undefined;
  };
}

/** Stops so that the `limit`-th model call is the forced final answer. */
export function maxSteps(limit = 10): StopCondition {
  return ({ modelCalls }) => (modelCalls >= limit - 1 ? 'max-steps' : undefined);
}

/** The first rule that fires, in order. */
export function firstStop(conditions: StopCondition[], context: StopContext): StopReason | undefined {
  for (const condition of conditions) {
    const reason = condition(context);
    if (reason) return reason;
  }
  return undefined;
}
