import type { LanguageModel, ModelMessage } from 'ai';
import type { SearchFilter } from '../index/types.ts';
import { abstention, type Answer, type DroppedCitation, type ModelAnswer } from './answer.ts';
import { verifyCitations } from './citations.ts';
import { costOf, type ModelPrice } from './cost.ts';
import type { EvidenceSource } from './evidence.ts';
import type { RunEventHandler } from './events.ts';
import { callModel, type ModelCallOutcome, type ToolChoice } from './model-call.ts';
import { repairPrompt } from './prompt.ts';
import type { ReadStep, SearchSession, SearchStep } from './search-session.ts';
import type { StopReason } from './stop-conditions.ts';


/** Options shared by the agentic loop and the classic baseline. */
export interface AskOptions {
  model: LanguageModel;
  /** Version/label filters enforced inside the tools. */
  filter?: SearchFilter;
  /** Price of the model; `null` or absent makes `usage.costUsd` null (unknown, never 0). */
  price?: ModelPrice | null;
  onEvent?: RunEventHandler;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  /** Per model call timeout in ms, retries included. */
  callTimeoutMs?: number;
  /** Provider retries per call (default 2). */
  maxRetries?: number;
  abortSignal?: AbortSignal;
}

/** One model call as recorded in the trace. */
export interface ModelCallRecord {
  toolChoice: ToolChoice;
  outcome: ModelCallOutcome['kind'];
  toolCalls: string[];
  inputTokens: number;
  outputTokens: number;
  /** False when the provider reported no token counts (then the run's cost is unknown). */
  usageKnown: boolean;
  latencyMs: number;
  error?: string;
}

/** A chunk of the evidence set, as serialised in the trace. */
export interface EvidenceRecord {
  chunkId: string;
  docId: string;
  heading: string;
  firstStep: number;
  source: EvidenceSource;
}

/** Everything a run did, in order; evals, the CLI and the server read this, never logs. */
export interface RunTrace {
  steps: SearchStep[];
  reads: ReadStep[];
  evidence: EvidenceRecord[];
  /** Doc ids in first-seen order. */
  rankedDocIds: string[];
  toolChoices: ToolChoice[];
  calls: ModelCallRecord[];
  stopReason: StopReason;
  droppedCitations: DroppedCitation[];
  /** Why the run abstained, when it did. */
  abstainReason?: string;
  /** Provider faults, malformed output and repairs, in order. */
  errors: string[];
}

export interface RunUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
}

/** The result of `agenticRun` and `classicAsk`. */
export interface AgentRun {
  question: string;
  answer: Answer;
  trace: RunTrace;
  usage: RunUsage;
  latencyMs: number;
}

/**
 * The mutable record of one run: model calls, errors and the message list. Internal to the
 * agent layer; made per run.
 */
export class RunRecorder {
  readonly calls: ModelCallRecord[] = [];
  readonly errors: string[] = [];
  readonly messages: ModelMessage[];
  readonly #now: () => number;

  constructor(
    readonly options: AskOptions,
    readonly system: string,
    question: string,
  ) {
    this.#now = options.now ?? (() => performance.now());
    this.messages = [{ role: 'user', content: question }];
  }

  now(): number {
    return this.#now();
  }

  emit: RunEventHandler = (event) => {
    try {
      this.options.onEvent?.(event);
    } catch {
      // A consumer's failure must not break the run.
    }
  };

  /** One model call, recorded. */
  async call(toolChoice: ToolChoice): Promise<ModelCallOutcome> {
    const started = this.#now();
    const outcome = await callModel({
      model: this.options.model,
      system: this.system,
      messages: this.messages,
      toolChoice,
      timeoutMs: this.options.callTimeoutMs,
      maxRetries: this.options.maxRetries,
      abortSignal: this.options.abortSignal,
    });
    const error = outcome.kind === 'failed' || outcome.kind === 'malformed' ? outcome.reason : undefined;
    if (error) this.errors.push(error);
    this.calls.push({
      toolChoice,
      outcome: outcome.kind,
      toolCalls: outcome.kind === 'tool-calls' ? outcome.toolCalls.map((call) => call.toolName) : [],
      inputTokens: outcome.usage.inputTokens,
      outputTokens: outcome.usage.outputTokens,
      usageKnown: outcome.usage.known,
      latencyMs: this.#now() - started,
      ...(error ? { error } : {}),
    });
    return outcome;
  }

  /**
   * Turns a non-tool outcome into the model's answer: malformed output gets exactly one repair
   * call (tool choice "none"); a failure or a second malformed reply gives no answer.
   */
  async answerFrom(outcome: ModelCallOutcome): Promise<ModelAnswer | undefined> {
    if (outcome.kind === 'answer') return outcome.answer;
    if (outcome.kind !== 'malformed') return undefined;
    this.messages.push(
      { role: 'assistant', content: outcome.text === '' ? '(no usable reply)' : outcome.text },
      { role: 'user', content: repairPrompt(outcome.reason) },
    );
    this.errors.push('repair attempted');
    const repaired = await this.call('none');
    return repaired.kind === 'answer' ? repaired.answer : undefined;
  }

  /** Verifies citations and builds the finished run. */
  finish(question: string, session: SearchSession, draft: ModelAnswer | undefined, stopReason: StopReason, started: number): AgentRun {
    const directAllowed = this.calls[0]?.toolChoice === 'auto';
    const { answer, dropped, abstainReason } = finalizeAnswer(draft, session, this.errors, directAllowed);
    const usage = sumUsage(this.calls, this.options.price);
    const latencyMs = this.now() - started;
    const trace: RunTrace = {
      steps: session.steps,
      reads: session.reads,
      evidence: session.evidence.items().map(({ chunk, firstStep, source }) => ({
        chunkId: chunk.chunkId,
        docId: chunk.docId,
        heading: chunk.heading,
        firstStep,
        source,
      })),
      rankedDocIds: session.rankedDocIds(),
      toolChoices: this.calls.map((call) => call.toolChoice),
      calls: this.calls,
      stopReason,
      droppedCitations: dropped,
      ...(abstainReason ? { abstainReason } : {}),
      errors: this.errors,
    };
    this.emit({ type: 'answer', answer });
    this.emit({ type: 'run-end', stopReason, latencyMs });
    return { question, answer, trace, usage, latencyMs };
  }
}

function finalizeAnswer(
  draft: ModelAnswer | undefined,
  session: SearchSession,
  errors: string[],
  directAllowed: boolean,
): { answer: Answer; dropped: DroppedCitation[]; abstainReason?: string } {
  if (!draft) {
    return { answer: abstention(), dropped: [], abstainReason: `no usable answer: ${errors.at(-1) ?? 'unknown error'}` };
  }
  if (directAllowed && draft.citations.length === 0 && !draft.abstained && session.steps.length === 0 && session.reads.length === 0) {
    // A direct reply without searching (first turn "auto": greetings, general questions): no docs claim to check.
    return { answer: { text: draft.text, citations: [], abstained: false }, dropped: [] };
  }
  const { kept, dropped } = verifyCitations(draft.citations, session.evidence);
  if (draft.abstained) return { answer: abstention(), dropped, abstainReason: 'the model abstained' };
  if (kept.length === 0) {
    const reason = draft.citations.length === 0 ? 'the answer cited nothing' : 'no citation could be verified';
    return { answer: abstention(), dropped, abstainReason: reason };
  }
  return { answer: { text: draft.text, citations: kept, abstained: false }, dropped };
}

function sumUsage(calls: ModelCallRecord[], price: ModelPrice | null | undefined): RunUsage {
  const inputTokens = calls.reduce((sum, call) => sum + call.inputTokens, 0);
  const outputTokens = calls.reduce((sum, call) => sum + call.outputTokens, 0);
  const known = calls.every((call) => call.usageKnown);
  const costUsd = costOf({ inputTokens: known ? inputTokens : undefined, outputTokens: known ? outputTokens : undefined }, price);
  return { modelCalls: calls.length, inputTokens, outputTokens, costUsd };
}
