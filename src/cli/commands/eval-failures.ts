import { AtlasError } from '../../errors.ts';
import type { FailedRuns } from '../../eval/cases.ts';
import type { CliIO } from '../io.ts';

/**
 * Exit semantics of the evals (`eval compare`, `eval retrieval`'s agentic arm, `eval decisions`):
 * the report is printed either way; runs whose model failed (stopReason `error`, `timeout`,
 * `deadline`, after the one retry) are counted on stderr with the first cause, and when every run
 * failed nothing was measured, so the command exits 1.
 *
 * @example
 * reportFailures(io, report.failedRuns, 'openai:gpt-5-mini', 'runs', 'counted as finding nothing');
 */
export function reportFailures(io: CliIO, failed: FailedRuns, spec: string, what: string, countedAs: string): void {
  if (failed.count === 0) return;
  if (failed.count < failed.of) {
    io.stderr(`atlas: ${failed.count} of ${failed.of} ${what} failed (${countedAs}); first: ${failed.first}\n`);
    return;
  }
  throw new AtlasError(
    'model-call',
    `Atlas: every run of model "${spec}" failed (${failed.of} ${what}), so nothing was measured; first: ${failed.first}. Check the model spec, its key and its server, or raise --timeout / --deadline.`,
  );
}
