import type { ModelMessage } from 'ai';
import { AtlasError } from '../errors.ts';
import type { IndexBackend } from '../index/types.ts';
import type { RequestedToolCall } from './model-call.ts';
import { modelLabelChoices } from './policy/model-labels.ts';
import { startPolicy } from './policy/policy-run.ts';
import { buildSystemPrompt } from './prompt.ts';
import { RunRecorder } from './run-state.ts';
import { type AgentRun, type AskOptions } from './run-types.ts';
import { SearchSession, type ToolOutcome } from './session/search-session.ts';
import {
  chunkBudget,
  firstStop,
  maxSteps,
  noNewEvidence,
  searchBudget,
  type StopCondition,
  type StopReason,
} from './stop-conditions.ts';
import { checkToolCall, createAgentTools, ignoredArgumentsNote, runCheckedToolCall, type AgentToolSet } from './session/tools.ts';
import { WebLog, webPrompt, type WebOptions } from './web/web.ts';

export interface AgenticRunOptions extends AskOptions {
  index: IndexBackend;
  /** Searches allowed per run, duplicates included (default 6). */
  maxSearches?: number;
  /** Model calls per run, the forced final answer included (default 10). */
  maxSteps?: number;
  /** Distinct chunks the run may be shown (default: unlimited), for equal-budget evals. */
  maxChunks?: number;
  /** `required` (default) makes the first call search; `auto` lets the model answer directly. */
  firstTurn?: 'required' | 'auto';
  /** Stop rules checked before each model call (default: budget, chunk budget, no new evidence). The step cap always applies. */
  stopWhen?: StopCondition[];
  /** Weak-match threshold of search_docs (see docs/calibration.md). */
  weakScore?: number;
  /** Provider-hosted web search with an allow-list (`createWebSearch`, docs/web-search.md); default: docs only. */
  web?: WebOptions;
  /** Why the web was offered, for the trace (set by `webFallback`; default: the run was given the web). */
  webReason?: string;
  /**
   * Tool calls answered per model turn (default {@link DEFAULT_MAX_TOOL_CALLS_PER_TURN}); the
   * calls past it are answered with an error and not run, so no text can make one turn read
   * without bound (docs/reliability.md, "Prompt injection").
   */
  maxToolCallsPerTurn?: number;
}

/** Tool calls answered per model turn when no limit is given. */
export const DEFAULT_MAX_TOOL_CALLS_PER_TURN = 16;

/**
 * Answers a question by letting the model search, read and search again, under stop rules
 * enforced in code, then verifies every citation against what the run was shown.
 *
 * @example
 * const run = await agenticRun('Which error does a too-large step result raise?', { model, index });
 * run.answer.citations; // verified quotes with chunk ids and line ranges
 * run.trace.stopReason; // 'model-done' | 'search-budget' | 'no-new-evidence' | ...
 */
export async function agenticRun(question: string, options: AgenticRunOptions): Promise<AgentRun> {
  const maxCalls = options.maxToolCallsPerTurn ?? DEFAULT_MAX_TOOL_CALLS_PER_TURN;
  if (!Number.isInteger(maxCalls) || maxCalls < 1) {
    throw new AtlasError('usage', `Atlas: maxToolCallsPerTurn must be a positive whole number, got ${String(maxCalls)}. Pass e.g. maxToolCallsPerTurn: ${DEFAULT_MAX_TOOL_CALLS_PER_TURN}.`);
  }
  const session = new SearchSession({
    index: options.index,
    filter: options.filter,
    principal: options.principal,
    maxSearches: options.maxSearches ?? 6,
    maxChunks: options.maxChunks,
    ...(options.weakScore === undefined ? {} : { weakScore: options.weakScore }),
    ...(options.memory ? { memory: options.memory } : {}),
  });
  // Model labels: a search_docs argument each, an enum of the values on the pages this run may read.
  const toolSet = createAgentTools((await modelLabelChoices(options.index, options.modelLabels, session.filter)).offered);
  const docsSystem = buildSystemPrompt({ maxSearches: session.maxSearches, filter: options.filter, labels: toolSet.labels, history: (options.history?.length ?? 0) > 0 });
  const { web } = options;
  const system = web ? `${docsSystem}\n\n${webPrompt(web.allowedDomains)}` : docsSystem;
  const tools = web ? { ...toolSet.tools, ...web.tools } : toolSet.tools;
  const webLog = web ? new WebLog(web.allowedDomains, options.webReason ?? 'the run was given the web (--web)') : undefined;
  const recorder = new RunRecorder(options, system, question, tools, webLog);
  const conditions = [
    ...(options.stopWhen ?? [searchBudget(), chunkBudget(), noNewEvidence(2)]),
    maxSteps(options.maxSteps ?? 10),
  ];
  try {
    return await runLoop(question, { options, session, recorder, toolSet, conditions, maxCalls });
  } catch (error) {
    recorder.spans.fail(error);
    throw error;
  }
}

/** What one run's loop works with, made by {@link agenticRun}. */
interface RunParts {
  options: AgenticRunOptions;
  session: SearchSession;
  recorder: RunRecorder;
  toolSet: AgentToolSet;
  conditions: StopCondition[];
  maxCalls: number;
}

/** Policy retrievals, then model calls and their tool calls until the model answers or a stop rule forces the answer. */
async function runLoop(question: string, { options, session, recorder, toolSet, conditions, maxCalls }: RunParts): Promise<AgentRun> {
  const started = recorder.startedAt;
  recorder.emit({ type: 'run-start', question });
  // Mandatory retrievals run in code, before the model's first call, whatever the model.
  const review = await startPolicy(options, question, session, recorder);

  for (;;) {
    const forcedBy = firstStop(conditions, { session, modelCalls: recorder.calls.length });
    const toolChoice = forcedBy ? 'none' : recorder.calls.length === 0 ? (options.firstTurn ?? 'required') : 'auto';
    const outcome = await recorder.call(toolChoice);
    if (outcome.kind === 'tool-calls') {
      recorder.messages.push(...outcome.assistant, await answerToolCalls(session, outcome.toolCalls, recorder, toolSet, maxCalls));
      continue;
    }
    const draft = await recorder.answerFrom(outcome);
    // A failed last call (provider fault, timeout, deadline) names the stop, also on a forced answer.
    const stopReason: StopReason = recorder.failure ?? forcedBy ?? 'model-done';
    return await recorder.finish(question, session, draft, stopReason, started, review);
  }
}

/** Answers every tool call of one turn, in order, in one tool message (past `maxCalls`, with an error); nothing here throws. */
async function answerToolCalls(session: SearchSession, calls: RequestedToolCall[], recorder: RunRecorder, toolSet: AgentToolSet, maxCalls: number): Promise<ModelMessage> {
  const content = [];
  for (const [position, call] of calls.entries()) {
    const outcome = position < maxCalls
      ? await recorder.spans.tool(call.toolName, session, () => runToolCall(session, call, recorder, toolSet), call.toolCallId)
      : refuseOverLimit(call, recorder, maxCalls, calls.length);
    content.push({
      type: 'tool-result' as const,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      output: outcome.ok ? { type: 'json' as const, value: outcome.value } : { type: 'error-text' as const, value: outcome.error },
    });
  }
  return { role: 'tool', content };
}

function refuseOverLimit(call: RequestedToolCall, recorder: RunRecorder, maxCalls: number, sent: number): ToolOutcome {
  recorder.errors.push(`tool call refused: ${call.toolName} ${argumentsText(call.input)}: over ${maxCalls} tool calls in one turn`);
  return { ok: false, error: `too many tool calls in one turn (${sent}): only the first ${maxCalls} were answered and this one was not run. Ask for fewer at a time, or answer from the passages you have.` };
}

async function runToolCall(session: SearchSession, call: RequestedToolCall, recorder: RunRecorder, toolSet: AgentToolSet): Promise<ToolOutcome> {
  // The AI SDK marks calls it could not parse or validate; the check below names the field at fault either way.
  const checked = checkToolCall(call.toolName, call.input, toolSet);
  if (!checked.ok) {
    recorder.errors.push(`tool call rejected: ${call.toolName} ${argumentsText(call.input)}: ${checked.error}`);
    return checked;
  }
  const ignored = checked.ignored === undefined ? undefined : ignoredArgumentsNote(checked.toolName, checked.ignored, toolSet);
  if (ignored !== undefined) recorder.errors.push(`tool call arguments ignored: ${call.toolName} ${argumentsText(call.input)}: ${ignored}`);
  if (checked.toolName === 'search_docs') {
    const { query, version, page } = checked.input;
    recorder.emit({ type: 'search-start', query, ...(version === undefined ? {} : { version }), ...(page === undefined || page === 1 ? {} : { page }) });
  }
  const before = { steps: session.steps.length, reads: session.reads.length };
  let outcome: ToolOutcome;
  try {
    outcome = await runCheckedToolCall(session, checked);
  } catch (error) {
    recorder.errors.push(`tool ${call.toolName} failed: ${error instanceof Error ? error.message : String(error)}`);
    outcome = { ok: false, error: `the ${call.toolName} tool failed; try again with a different request or answer.` };
  }
  const step = session.steps[before.steps];
  for (const conflict of step?.labelConflicts ?? []) recorder.errors.push(`search_docs label refused: ${conflict}`);
  if (step) recorder.emit({ type: 'search-end', step });
  const read = session.reads[before.reads];
  if (read) recorder.emit({ type: 'read', read });
  // The model learns that part of its call was not applied, beside the result.
  return ignored !== undefined && outcome.ok ? { ...outcome, value: { ...outcome.value, ignored_arguments: ignored } } : outcome;
}

/** A tool call's arguments as recorded in the trace: JSON (or the raw text), at most 300 characters. */
function argumentsText(input: unknown): string {
  const text = typeof input === 'string' ? input : (JSON.stringify(input) ?? String(input));
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
}
