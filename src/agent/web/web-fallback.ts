// `--web-fallback`: docs only first; the web only when the docs-only run abstains (docs/web-search.md).
import type { AgentRun, RunUsage } from '../run-types.ts';
import { DEFAULT_RUN_DEADLINE_MS } from '../run-types.ts';
import type { SearchMemory } from '../session/search-memory.ts';
import type { WebOptions } from './web.ts';
import { modelFailed } from '../stop-conditions.ts';

/** What the fallback needs of the options of an ask: the web to add, the deadline, the memory. */
export interface WebFallbackOptions {
  web?: WebOptions;
  deadlineMs?: number;
  memory?: SearchMemory;
  webReason?: string;
}

/**
 * Runs `ask` without the web; when that run abstains (an answer the docs do not give, not a
 * provider failure), runs it again with `options.web`, keeping the docs-only run in
 * `webFallbackFrom` and counting its usage and latency in the result's. Either way
 * `trace.web` says whether the web was offered and why. The docs-only run works on a copy of
 * the conversation memory: it is remembered only when its answer is the one returned. The web
 * run gets what is left of the deadline.
 *
 * @example
 * const run = await withWebFallback(question, { model, index, web }, (q, o) => agenticRun(q, o));
 * run.trace.web?.reason; // 'web fallback: the docs-only run abstained (no citation could be verified)'
 */
export async function withWebFallback<Options extends WebFallbackOptions, Run extends AgentRun>(
  question: string,
  options: Options,
  ask: (question: string, options: Options) => Promise<Run>,
): Promise<Run> {
  const { web, ...docsOnly } = options;
  if (!web) return ask(question, options);
  const memory = options.memory?.clone();
  const docs = await ask(question, { ...docsOnly, ...(memory ? { memory } : {}) } as Options);
  const notOffered = (reason: string): Run => ({
    ...docs,
    trace: { ...docs.trace, web: { allowedDomains: web.allowedDomains, offered: false, reason, searches: 0, sources: [] } },
  });
  if (!docs.answer.abstained) {
    if (memory) options.memory?.merge(memory);
    return notOffered('web fallback not needed: the docs-only run answered');
  }
  // A run the model failed rather than abstained: the web would not help.
  if (modelFailed(docs.trace.stopReason)) {
    if (memory) options.memory?.merge(memory);
    return notOffered(`web fallback not tried: the docs-only run failed (stop: ${docs.trace.stopReason})`);
  }
  const reason = `web fallback: the docs-only run abstained (${docs.trace.abstainReason ?? 'no reason recorded'})`;
  const deadlineMs = (options.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS) - docs.latencyMs;
  const withWeb = await ask(question, { ...options, deadlineMs, webReason: reason });
  return { ...withWeb, usage: sumRunUsage(docs.usage, withWeb.usage), latencyMs: docs.latencyMs + withWeb.latencyMs, webFallbackFrom: docs };
}

function sumRunUsage(first: RunUsage, second: RunUsage): RunUsage {
  const webSearches = (first.webSearches ?? 0) + (second.webSearches ?? 0);
  return {
    modelCalls: first.modelCalls + second.modelCalls,
    inputTokens: first.inputTokens + second.inputTokens,
    outputTokens: first.outputTokens + second.outputTokens,
    costUsd: first.costUsd === null || second.costUsd === null ? null : first.costUsd + second.costUsd,
    ...(first.webSearches === undefined && second.webSearches === undefined ? {} : { webSearches }),
  };
}
