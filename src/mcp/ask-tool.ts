import { locatorText } from '../corpus/locator.ts';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { LanguageModel } from 'ai';
import { z } from 'zod';
import type { ModelPrice } from '../agent/cost.ts';
import type { RunEvent } from '../agent/events.ts';
import type { ModelLabel } from '../agent/policy/model-labels.ts';
import type { Policy } from '../agent/policy/policy.ts';
import { agenticRun } from '../agent/run.ts';
import type { AgentRun, RunLimits } from '../agent/run-types.ts';
import type { Answer } from '../agent/trust/answer.ts';
import { closestHeading } from '../agent/trust/abstain-text.ts';
import { headingPathText } from '../agent/session/tool-values.ts';
import { withIndexLease } from '../index/index-lease.ts';
import { yieldingModel } from '../models/yielding-model.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { absentNulls, nullableOptionals } from './inputs.ts';
import { askOutput } from './output-schemas.ts';
import { logged, toolError, toolResult, type CallLog } from './results.ts';
import { chunkUri } from './uris.ts';
import { versionRefusal } from './version-argument.ts';
import { modelFailed } from '../agent/stop-conditions.ts';
import { inSpan, type RunTracing } from '../telemetry/tracing.ts';

/** The model the `ask` tool runs, and the limits of each run. */
export interface AskToolOptions extends RunLimits {
  model: LanguageModel;
  /** Names the closest passages when `model` abstains without them (`AskOptions.closestModel`; the shells pass the offline planner). */
  closestModel?: LanguageModel;
  /** How the model is named in results, e.g. `offline` or `openai:gpt-5-mini`. */
  modelSpec: string;
  price?: ModelPrice | null;
  /** Searches of each ask run (default 6); a run's searches do not use the session's budget. */
  maxSearches?: number;
  /** Clock in ms for the run's deadline and latency (default `performance.now`). */
  now?: () => number;
  /** Mandatory retrievals every ask runs (docs/policy.md), as `atlas ask --policy`. */
  policy?: Policy;
  /** With a policy: an answer citing none of a fired rule's required pages abstains. */
  policyStrict?: boolean;
  /** Labels the model may set on search_docs (`model_labels` of atlas.config.yaml). */
  modelLabels?: ModelLabel[];
  /** The tracer of each ask's spans, under a `tools/call ask` span (docs/observability.md); default: the API's no-op tracer. */
  tracing?: RunTracing;
}

/** The attributes of the span of an `ask` call (the MCP semantic conventions). */
const MCP_ASK_SPAN = { 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'ask', 'gen_ai.operation.name': 'execute_tool' };

/** Arguments of `ask`. */
export const askInput = z.object({
  question: z.string().trim().min(1, { error: 'question must be a non-empty text, e.g. "How do I set the lease duration?"' }).describe('The question, in full.'),
  version: z.string().optional().describe('Release line to restrict to, e.g. "3.x". Omit to search every version.'),
});

/**
 * Registers `ask`: a full agentic run (search, read, search again, answer) with the configured
 * model, under the server's filter, returning the answer, its verified citations and a summary
 * of the trace. Each call is a run of its own, with its own search budget; search progress is
 * sent as progress notifications when the client asks for them.
 *
 * @example
 * registerAskTool(server, { index, filter }, { model: createOfflineModel(), modelSpec: 'offline' });
 */
export function registerAskTool(server: McpServer, context: { index: IndexBackend; filter?: SearchFilter; filterRule: string; log?: CallLog }, options: AskToolOptions): void {
  const maxSearches = options.maxSearches ?? 6;
  server.registerTool(
    'ask',
    {
      title: 'Ask the docs',
      description: `Answer a question from the docs with ${options.modelSpec === 'offline' ? "Atlas's offline planner (extractive, no model)" : `the model ${options.modelSpec}`}: it searches (up to ${maxSearches} times), reads, and answers with citations verified against the passages it was shown, or abstains. Returns the answer, the citations (with atlas://chunk links) and a summary of the run. Its searches do not use this session's search_docs budget.${context.filterRule}`,
      inputSchema: nullableOptionals(askInput),
      outputSchema: askOutput,
      annotations: { readOnlyHint: true, openWorldHint: options.modelSpec !== 'offline', idempotentHint: false },
    },
    logged(context.log, 'ask', async (sent: unknown, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
      const args = absentNulls(askInput, sent);
      const refusal = await versionRefusal(context.index, args.version, context.filter?.version);
      if (refusal !== undefined) return toolError(`${refusal} The question was not run.`);
      const version = args.version === undefined || args.version === '' ? undefined : args.version;
      const filter = version === undefined ? context.filter : { ...context.filter, version };
      const progressToken = extra._meta?.progressToken;
      let searches = 0;
      const onEvent = (event: RunEvent) => {
        if (progressToken === undefined || event.type !== 'search-end') return;
        searches += 1;
        const message = `search ${searches} of ${maxSearches}: ${event.step.query}`;
        extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: searches, total: maxSearches, message } }).catch(() => undefined);
      };
      // The whole run on one version of the index, even if a --rebuild replaces it meanwhile.
      // The model gives the event loop a turn before each call: a cancellation (notifications/cancelled,
      // or the client's connection closing) is seen between calls even with the synchronous offline planner.
      const ask = () => withIndexLease(context.index, () => agenticRun(args.question, {
        model: yieldingModel(options.model),
        ...(options.closestModel ? { closestModel: options.closestModel } : {}),
        index: context.index,
        maxSearches,
        price: options.price ?? null,
        abortSignal: extra.signal,
        onEvent,
        ...(filter ? { filter } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.callTimeoutMs === undefined ? {} : { callTimeoutMs: options.callTimeoutMs }),
        ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
        ...(options.policy ? { policy: options.policy, policyStrict: options.policyStrict === true } : {}),
        ...(options.modelLabels && options.modelLabels.length > 0 ? { modelLabels: options.modelLabels } : {}),
        ...(options.tracing ? { tracing: options.tracing } : {}),
      }));
      const run = await (options.tracing ? inSpan(options.tracing.tracer, 'tools/call ask', MCP_ASK_SPAN, ask) : ask());
      return askResult(run, options.modelSpec);
    }),
  );
}

/**
 * The tool result of a finished run: an error result when the model failed (no answer),
 * else the answer (its text with the `[n]` markers of its citations), citations and trace
 * summary; an abstention that found close passages but no direct answer adds them as `closest`
 * and as a text block under "Closest passages in the docs", each with a link to its chunk.
 *
 * @example
 * askResult(run, 'offline').structuredContent; // { answer: '...', abstained: false, citations: [...], trace: {...} }
 */
export function askResult(run: AgentRun, modelSpec: string): CallToolResult {
  const { stopReason, errors } = run.trace;
  if (modelFailed(stopReason)) {
    const cause = (errors.at(-1) ?? 'unknown error').replace(/\.$/, '');
    return toolError(`ask failed: the run of model "${modelSpec}" ended without an answer (stop: ${stopReason}): ${cause}. Ask again later, or search with search_docs and read_section yourself.`);
  }
  const citations = run.answer.citations.map((citation) => ({
    doc_id: citation.docId,
    chunk_id: citation.chunkId,
    quote: citation.quote,
    heading_path: headingPathText(citation),
    source_path: citation.sourcePath,
    start_line: citation.startLine,
    end_line: citation.endLine,
    uri: chunkUri(citation.chunkId),
    ...(citation.stale ? { stale: citation.stale } : {}),
  }));
  const closest = (run.answer.closest ?? []).map((passage) => ({
    doc_id: passage.docId,
    chunk_id: passage.chunkId,
    heading_path: headingPathText(passage),
    source_path: passage.sourcePath,
    start_line: passage.startLine,
    end_line: passage.endLine,
    sentences: passage.sentences,
    uri: chunkUri(passage.chunkId),
  }));
  const structured = {
    answer: run.answer.text,
    abstained: run.answer.abstained,
    citations,
    ...(closest.length === 0 ? {} : { closest }),
    // Each claim of the answer with whether a verified quote backs it (docs/calibration.md "Claim support").
    ...(run.answer.claims === undefined
      ? {}
      : { claims: run.answer.claims.map((claim) => ({ text: claim.text, supported: claim.supported, score: claim.score, citations: claim.citations })) }),
    trace: {
      model: modelSpec,
      stop_reason: stopReason,
      searches: run.trace.steps.map((step) => ({
        query: step.query,
        ...(step.filter.version === undefined ? {} : { version: step.filter.version }),
        new_doc_ids: step.newDocIds,
        ...(step.note === undefined ? {} : { note: step.note }),
      })),
      reads: run.trace.reads.map((read) => ({ tool: read.tool, chunk_id: read.chunkId, found: read.found })),
      dropped_citations: run.trace.droppedCitations.length,
      ...(run.trace.abstainReason === undefined ? {} : { abstain_reason: run.trace.abstainReason }),
      model_calls: run.usage.modelCalls,
      input_tokens: run.usage.inputTokens,
      output_tokens: run.usage.outputTokens,
      cost_usd: run.usage.costUsd,
      latency_ms: run.latencyMs,
    },
  };
  // One link per cited chunk, in citation order, then per closest passage.
  const linked = [...new Map([...citations, ...closest].map((place) => [place.chunk_id, place])).values()];
  return toolResult(structured, linked, closest.length === 0 ? [] : [closestText(run.answer)]);
}

/**
 * The closest passages for clients that read only text: the heading (in the language of the
 * abstention's text: `closestHeading`), then each passage's heading path, file:lines and chunk
 * link, and its sentences quoted.
 *
 * @example
 * closestText(run.answer);
 * // 'Closest passages in the docs:\n1. Error codes > ORB-1202 PayloadTooLarge — error-codes.md:90-90 (atlas://chunk/error-codes%234)\n   "The job\'s arguments ..."'
 */
export function closestText(answer: Pick<Answer, 'text' | 'closest'>): string {
  const passages = (answer.closest ?? []).map((passage, position) => {
    const sentences = passage.sentences.map((sentence) => `   "${sentence.replace(/\s+/g, ' ').trim()}"`);
    return [`${position + 1}. ${headingPathText(passage)} — ${locatorText(passage)} (${chunkUri(passage.chunkId)})`, ...sentences].join('\n');
  });
  return `${closestHeading(answer)}:\n${passages.join('\n')}`;
}
