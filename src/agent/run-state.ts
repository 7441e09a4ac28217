import type { ModelMessage, ToolSet } from 'ai';
import { inQuestionLanguage } from './trust/abstain-text.ts';
import { abstention, NO_DIRECT_ANSWER_TEXT, type Answer, type DroppedCitation, type ModelAnswer } from './trust/answer.ts';
import { verifyCitations } from './trust/citations.ts';
import { verifiedClosest } from './trust/closest.ts';
import { checkCitationsCurrent } from './trust/current-citations.ts';
import { applyClaimSupport } from './trust/claims.ts';
import { costOf, webSearchCost, type ModelPrice } from './cost.ts';
import type { PolicyReview } from './policy/policy-run.ts';
import type { RunEventHandler } from './events.ts';
import { callModel, secondsText, type ModelCallOutcome, type ToolChoice } from './model-call.ts';
import { historyMessages, type HistoryTrace } from './history.ts';
import { repairPrompt } from './prompt.ts';
import { RunSpans } from './run-spans.ts';
import type { SearchSession } from './session/search-session.ts';
import type { StopReason } from './stop-conditions.ts';
import { webAnswerSchema, withWebCitations, type WebLog } from './web/web.ts';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RUN_DEADLINE_MS, type AskOptions, type ModelCallRecord, type RunTrace, type RunUsage, type AgentRun } from './run-types.ts';

/**
 * The mutable record of one run: model calls, errors and the message list. Internal to the
 * agent layer; made per run.
 */
export class RunRecorder {
  readonly calls: ModelCallRecord[] = [];
  readonly errors: string[] = [];
  readonly messages: ModelMessage[];
  /** When the run started, by the run's clock. */
  readonly startedAt: number;
  readonly #now: () => number;
  /** The stop reason of the last model call when it failed (`error`, `timeout` or `deadline`). */
  #failure: StopReason | undefined;
  /** What the bounds let through of `options.history`; undefined without history. */
  readonly #history: HistoryTrace | undefined;
  /** The run's spans (no-op ones unless a tracer records, docs/observability.md). */
  readonly spans: RunSpans;

  constructor(
    readonly options: AskOptions,
    readonly system: string,
    question: string,
    /** The tools every call offers (default: the agent's tools without model labels). */
    readonly tools?: ToolSet,
    /** The run's web record, when the run was given the web (its calls then ask for `web_citations`). */
    readonly web?: WebLog,
    kind: 'agentic' | 'classic' = 'agentic',
  ) {
    this.#now = options.now ?? (() => performance.now());
    this.startedAt = this.#now();
    this.spans = new RunSpans(options.tracing, { kind, model: options.model, question });
    // Earlier turns come first, as prior conversation (user and assistant turns, never system text).
    const earlier = options.history && options.history.length > 0 ? historyMessages(options.history, options.historyBounds) : undefined;
    this.#history = earlier?.trace;
    this.messages = [...(earlier?.messages ?? []), { role: 'user', content: question }];
  }

  /** The answer with its citations checked against the index as it is now; a failed read leaves them as verified, noted in the errors. */
  async #current(answer: Answer, session: SearchSession): Promise<Answer> {
    try {
      return await currentAnswer(answer, session);
    } catch (error) {
      this.errors.push(`citations not checked against the current index: ${error instanceof Error ? error.message : String(error)}`);
      return answer;
    }
  }

  /**
   * The answer of `options.closestModel` (the offline planner) from this run's messages, asked when
   * the run's own model abstained, or its answer kept no citation, without naming the closest
   * passages: the passages the research came closest with are still shown. Not asked when the
   * model failed (a failure is never "the docs do not say"), nor of the run's own model, nor past
   * the run's deadline. Its call is not one of the run's (`calls`, usage): the offline planner
   * costs nothing; a failed call is noted in the errors and changes nothing.
   */
  async #closestModelAnswer(answer: Answer): Promise<ModelAnswer | undefined> {
    const closestModel = this.options.closestModel;
    if (closestModel === undefined || closestModel === this.options.model || !answer.abstained || (answer.closest?.length ?? 0) > 0) return undefined;
    const limit = this.#limitAt(this.#now());
    if (limit.remainingMs <= 0) return undefined;
    const outcome = await callModel({
      model: closestModel,
      system: this.system,
      messages: this.messages,
      toolChoice: 'none',
      ...(this.tools ? { tools: this.tools } : {}),
      timeoutMs: limit.timeoutMs,
      ...(this.options.timeoutSignal ? { timeoutSignal: this.options.timeoutSignal } : {}),
      maxRetries: 0,
      abortSignal: this.options.abortSignal,
    });
    if (outcome.kind === 'answer') return outcome.answer;
    this.errors.push(`closest passages not named: ${outcome.kind === 'failed' || outcome.kind === 'malformed' ? outcome.reason : 'the closest model called a tool'}`);
    return undefined;
  }

  /** Why the run must end without an answer when its last model call failed, else undefined. */
  get failure(): StopReason | undefined {
    return this.#failure;
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

  /** One model call, recorded; bounded by the call timeout and the run's deadline. */
  async call(toolChoice: ToolChoice): Promise<ModelCallOutcome> {
    const started = this.#now();
    const limit = this.#limitAt(started);
    let outcome: ModelCallOutcome;
    if (limit.remainingMs <= 0) {
      outcome = { kind: 'failed', reason: this.#deadlineText(), usage: { inputTokens: 0, outputTokens: 0, known: true } };
    } else {
      const telemetry = this.spans.telemetry();
      outcome = await this.spans.modelCall(() => callModel({
        model: this.options.model,
        system: this.system,
        messages: this.messages,
        toolChoice,
        ...(this.tools ? { tools: this.tools } : {}),
        timeoutMs: limit.timeoutMs,
        ...(this.options.timeoutSignal ? { timeoutSignal: this.options.timeoutSignal } : {}),
        maxRetries: this.options.maxRetries,
        abortSignal: this.options.abortSignal,
        ...(this.web ? { answerSchema: webAnswerSchema } : {}),
        ...(telemetry ? { telemetry } : {}),
      }));
    }
    if (outcome.kind !== 'failed') this.web?.record(outcome.web);
    if (outcome.kind === 'failed' && outcome.timedOut) {
      outcome = { ...outcome, reason: limit.byDeadline ? this.#deadlineText() : `model call ${this.calls.length + 1} timed out after ${secondsText(limit.timeoutMs)} (per-call timeout, retries included)` };
    }
    const isDeadline = outcome.kind === 'failed' && (limit.remainingMs <= 0 || (outcome.timedOut === true && limit.byDeadline));
    this.#failure = outcome.kind !== 'failed' ? undefined : isDeadline ? 'deadline' : outcome.timedOut ? 'timeout' : 'error';
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

  /** The timeout of a call starting at `at`: the call timeout, or what is left of the deadline when that is shorter. */
  #limitAt(at: number): { timeoutMs: number; remainingMs: number; byDeadline: boolean } {
    const callTimeoutMs = this.options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const remainingMs = (this.options.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS) - (at - this.startedAt);
    return remainingMs < callTimeoutMs ? { timeoutMs: remainingMs, remainingMs, byDeadline: true } : { timeoutMs: callTimeoutMs, remainingMs, byDeadline: false };
  }

  #deadlineText(): string {
    return `run deadline of ${secondsText(this.options.deadlineMs ?? DEFAULT_RUN_DEADLINE_MS)} reached at model call ${this.calls.length + 1}`;
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

  /**
   * Verifies citations (against the texts shown, then against the index as it is now: a quote
   * of a page changed since it was read is marked stale) and builds the finished run; `review`
   * (the policy check) sees the verified answer and may replace it with an abstention.
   */
  async finish(
    question: string,
    session: SearchSession,
    draft: ModelAnswer | undefined,
    stopReason: StopReason,
    started: number,
    review?: PolicyReview,
  ): Promise<AgentRun> {
    const directAllowed = this.calls[0]?.toolChoice === 'auto';
    const finalized = finalizeAnswer(draft, session, this.errors, directAllowed);
    const closestFrom = draft === undefined ? undefined : await this.#closestModelAnswer(finalized.answer);
    const closest = closestFrom?.closest ? verifiedClosest(closestFrom.closest, session.citableEvidence()) : [];
    const shown = closest.length === 0 ? finalized : { ...finalized, answer: { text: NO_DIRECT_ANSWER_TEXT, citations: [], abstained: true, closest } };
    const checked = { ...shown, answer: await this.#current(shown.answer, session) };
    const verified = this.web ? withWebCitations(checked, draft, this.web) : checked;
    const reviewed = review?.(verified.answer);
    // Claims are judged last, on the answer the policy let through (agent/trust/claims.ts).
    const judged = applyClaimSupport(reviewed?.answer ?? verified.answer, { strict: this.options.strictClaims === true, threshold: this.options.claimThreshold });
    // An abstention's fixed text in the question's language (agent/trust/abstain-text.ts).
    const answer = inQuestionLanguage(judged.answer, question);
    const abstainReason = reviewed?.abstainReason ?? verified.abstainReason ?? judged.abstainReason;
    const { dropped } = verified;
    const usage = sumUsage(this.calls, this.options.price, this.web?.searches);
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
      ...(closest.length > 0 ? { closestBy: 'closest-model' as const } : {}),
      errors: this.errors,
      ...(reviewed ? { policy: reviewed.policy } : {}),
      ...(this.#history ? { history: this.#history } : {}),
      ...(this.web ? { web: this.web.trace() } : {}),
    };
    // The conversation remembers what this turn was shown (a set-aside run works on a copy, see routedAsk).
    this.options.memory?.remember(session.evidence);
    this.emit({ type: 'answer', answer });
    this.emit({ type: 'run-end', stopReason, latencyMs });
    const run = { question, answer, trace, usage, latencyMs };
    this.spans.end(run);
    return run;
  }
}

/** The answer with each citation checked against the index as it is now (`checkCitationsCurrent`). */
async function currentAnswer(answer: Answer, session: SearchSession): Promise<Answer> {
  if (answer.citations.length === 0) return answer;
  return { ...answer, citations: await checkCitationsCurrent(answer.citations, (chunkId) => session.currentChunk(chunkId)) };
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
  const { kept, dropped } = verifyCitations(draft.citations, session.citableEvidence());
  if (draft.abstained) {
    const closest = verifiedClosest(draft.closest ?? [], session.citableEvidence());
    const reason = draft.abstain_reason ? `the model abstained: ${draft.abstain_reason}` : 'the model abstained';
    if (closest.length === 0) return { answer: abstention(), dropped, abstainReason: reason };
    return { answer: { text: NO_DIRECT_ANSWER_TEXT, citations: [], abstained: true, closest }, dropped, abstainReason: reason };
  }
  if (kept.length === 0) {
    const reason = draft.citations.length === 0 ? 'the answer cited nothing' : 'no citation could be verified';
    return { answer: abstention(), dropped, abstainReason: reason };
  }
  return { answer: { text: draft.text, citations: kept, abstained: false }, dropped };
}

/** Token totals and cost; `webSearches` (runs given the web) adds the provider's per-search fee. */
function sumUsage(calls: ModelCallRecord[], price: ModelPrice | null | undefined, webSearches?: number): RunUsage {
  const inputTokens = calls.reduce((sum, call) => sum + call.inputTokens, 0);
  const outputTokens = calls.reduce((sum, call) => sum + call.outputTokens, 0);
  const known = calls.every((call) => call.usageKnown);
  const tokenCost = costOf({ inputTokens: known ? inputTokens : undefined, outputTokens: known ? outputTokens : undefined }, price);
  const webCost = webSearchCost(webSearches ?? 0, price);
  const costUsd = tokenCost === null || webCost === null ? null : tokenCost + webCost;
  return { modelCalls: calls.length, inputTokens, outputTokens, costUsd, ...(webSearches === undefined ? {} : { webSearches }) };
}
