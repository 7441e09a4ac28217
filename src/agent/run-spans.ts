// The OpenTelemetry spans of one run (docs/observability.md): the run span, a span per search
// and per read, and the context the AI SDK's model-call spans nest in. With no tracer configured
// these are the API's no-op spans, and the AI SDK's telemetry stays off.
import { context, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { LanguageModel, TelemetrySettings } from 'ai';
import { attributeText, failSpan, tracerOf, type RunTracing } from '../telemetry/tracing.ts';
import type { AgentRun } from './run-types.ts';
import type { ToolOutcome } from './session/search-session.ts';
import type { ReadStep, SearchStep } from './session/search-steps.ts';
import { modelFailed } from './stop-conditions.ts';

/** What a traced tool call looks at: the steps and reads the run's session recorded so far. */
interface SessionRecord {
  readonly steps: readonly SearchStep[];
  readonly reads: readonly ReadStep[];
}

/**
 * The spans of one run, made per run by its recorder. `atlas.run` starts as a child of the
 * active span (an HTTP request, a CLI command) and ends in {@link RunSpans.end}.
 *
 * @example
 * const spans = new RunSpans(options.tracing, { kind: 'agentic', model, question });
 * const outcome = await spans.tool('search_docs', session, () => session.searchDocs({ query }));
 */
export class RunSpans {
  readonly #tracing: RunTracing | undefined;
  readonly #span: Span;
  /** The active context with the run span in it: the parent of every span of the run. */
  readonly #context: Context;

  constructor(tracing: RunTracing | undefined, run: { kind: 'agentic' | 'classic'; model: LanguageModel; question: string }) {
    this.#tracing = tracing;
    this.#span = tracerOf(tracing).startSpan('atlas.run', { attributes: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'atlas', 'atlas.run.kind': run.kind, ...modelAttributes(run.model), 'atlas.run.question': attributeText(run.question) } });
    this.#context = trace.setSpan(context.active(), this.#span);
  }

  /**
   * Runs one tool call (`search_docs`, `read_section`, `read_neighbors`) in its span:
   * `atlas.search` or `atlas.read` (`atlas.tool` for an unknown tool), with what the session recorded of it; an error outcome the
   * model reads is an attribute, a thrown error fails the span.
   */
  async tool(toolName: string, session: SessionRecord, work: () => Promise<ToolOutcome>, toolCallId?: string): Promise<ToolOutcome> {
    const before = { steps: session.steps.length, reads: session.reads.length };
    const attributes: Attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': toolName, ...(toolCallId === undefined ? {} : { 'gen_ai.tool.call.id': toolCallId }) };
    const span = tracerOf(this.#tracing).startSpan(toolSpanName(toolName), { attributes }, this.#context);
    try {
      const outcome = await work();
      const step = session.steps[before.steps];
      if (step) span.setAttributes(searchAttributes(step));
      const read = session.reads[before.reads];
      if (read) span.setAttributes(readAttributes(read));
      if (!outcome.ok) span.setAttribute('atlas.tool.error', attributeText(outcome.error, 300));
      return outcome;
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  }

  /** Runs a model call with the run span active, so the AI SDK's spans (given {@link RunSpans.telemetry}) are its children. */
  modelCall<T>(work: () => Promise<T>): Promise<T> {
    return context.with(this.#context, work);
  }

  /** The AI SDK's telemetry settings of the run's model calls: on only when the run span records. */
  telemetry(): TelemetrySettings | undefined {
    if (!this.#span.isRecording()) return undefined;
    const recordContent = this.#tracing?.recordContent === true;
    return { isEnabled: true, tracer: tracerOf(this.#tracing), functionId: 'atlas.run', recordInputs: recordContent, recordOutputs: recordContent };
  }

  /** Ends the run span with the run's outcome; a run that ended without an answer because the model failed is an error span. */
  end(run: AgentRun): void {
    const { trace: runTrace, usage, answer } = run;
    const failed = modelFailed(runTrace.stopReason);
    this.#span.setAttributes({
      'atlas.run.stop_reason': runTrace.stopReason,
      'atlas.run.outcome': failed ? 'failed' : answer.abstained ? 'abstained' : 'answered',
      'atlas.run.searches': runTrace.steps.length,
      'atlas.run.reads': runTrace.reads.length,
      'atlas.run.model_calls': usage.modelCalls,
      'atlas.run.citations': answer.citations.length,
      'atlas.run.dropped_citations': runTrace.droppedCitations.length,
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
      ...(usage.costUsd === null ? {} : { 'atlas.run.cost_usd': usage.costUsd }),
      ...(runTrace.abstainReason === undefined ? {} : { 'atlas.run.abstain_reason': attributeText(runTrace.abstainReason, 300) }),
    });
    // The failure is a value of the run (the provider's error is on the AI SDK's span): a status, no exception event.
    if (failed) this.#span.setStatus({ code: SpanStatusCode.ERROR, message: runTrace.errors.at(-1) ?? runTrace.stopReason });
    this.#span.end();
  }

  /** Ends the run span of a run that threw. */
  fail(error: unknown): void {
    failSpan(this.#span, error);
    this.#span.end();
  }
}

/** `atlas.search` for search_docs, `atlas.read` for the read tools, `atlas.tool` for a call of any other name (refused). */
function toolSpanName(toolName: string): string {
  if (toolName === 'search_docs') return 'atlas.search';
  return toolName === 'read_section' || toolName === 'read_neighbors' ? 'atlas.read' : 'atlas.tool';
}

/** The model as GenAI attributes: `gen_ai.request.model` and, for a model object, `gen_ai.provider.name`. */
function modelAttributes(model: LanguageModel): Attributes {
  if (typeof model === 'string') return { 'gen_ai.request.model': model };
  return { 'gen_ai.request.model': model.modelId, 'gen_ai.provider.name': model.provider };
}

function searchAttributes(step: SearchStep): Attributes {
  const { principal, ...filter } = step.filter;
  return {
    'atlas.search.query': attributeText(step.query),
    'atlas.search.filter': JSON.stringify(filter),
    ...(principal === undefined ? {} : { 'atlas.search.groups': principal.groups }),
    ...(step.page === undefined ? {} : { 'atlas.search.page': step.page }),
    'atlas.search.hits': step.chunkIds.length,
    'atlas.search.doc_ids': step.docIds,
    'atlas.search.new_doc_ids': step.newDocIds,
    'atlas.search.skipped_seen': step.skippedSeen,
    ...(step.bestScore === undefined ? {} : { 'atlas.search.best_score': step.bestScore }),
    ...(step.note === undefined ? {} : { 'atlas.search.note': step.note }),
  };
}

function readAttributes(read: ReadStep): Attributes {
  const hash = read.chunkId.lastIndexOf('#');
  return {
    'atlas.read.tool': read.tool,
    'atlas.read.chunk_id': read.chunkId,
    ...(hash > 0 ? { 'atlas.read.doc_id': read.chunkId.slice(0, hash) } : {}),
    'atlas.read.found': read.found,
    'atlas.read.new_chunk_ids': read.newChunkIds,
    ...(read.offset === undefined ? {} : { 'atlas.read.offset': read.offset }),
    ...(read.note === undefined ? {} : { 'atlas.read.note': read.note }),
  };
}
