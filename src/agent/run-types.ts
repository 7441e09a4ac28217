// The shapes of a run: its options and limits, its trace, usage and result (run-state.ts records them).
import type { LanguageModel } from 'ai';
import type { Principal, SearchFilter } from '../index/types.ts';
import type { Answer, DroppedCitation } from './trust/answer.ts';
import type { ModelPrice } from './cost.ts';
import type { EvidenceSource } from './trust/evidence.ts';
import type { ModelLabel } from './policy/model-labels.ts';
import type { ConversationTurn, HistoryBounds, HistoryTrace } from './history.ts';
import type { Policy } from './policy/policy.ts';
import type { PolicyTrace } from './policy/policy-run.ts';
import type { RunEventHandler } from './events.ts';
import type { ModelCallOutcome, ToolChoice } from './model-call.ts';
import type { SearchMemory } from './session/search-memory.ts';
import type { ReadStep, SearchStep } from './session/search-session.ts';
import type { StopReason } from './stop-conditions.ts';
import type { WebTrace } from './web/web.ts';
import type { RunTracing } from '../telemetry/tracing.ts';

/** Per model call timeout when none is given: 60 s, retries included. */
export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
/** Whole-run deadline when none is given: 5 minutes (a 10-call run at a few seconds a call fits easily). */
export const DEFAULT_RUN_DEADLINE_MS = 300_000;

/**
 * Time limits of one run. A model call is aborted after `callTimeoutMs` (retries included) or
 * when the run's deadline comes, whichever is first; once the deadline has passed no call is
 * made. Either way the run ends without an answer, and its trace says which limit ended it
 * (`stopReason` `timeout` or `deadline`, and the message in `errors`).
 *
 * @example
 * await agenticRun(question, { model, index, callTimeoutMs: 30_000, deadlineMs: 120_000 });
 */
export interface RunLimits {
  /** Per model call timeout in ms, retries included (default {@link DEFAULT_CALL_TIMEOUT_MS}). */
  callTimeoutMs?: number;
  /** Deadline of the whole run in ms from its start, by the injected clock (default {@link DEFAULT_RUN_DEADLINE_MS}). */
  deadlineMs?: number;
}

/** Options shared by the agentic loop and the classic baseline. */
export interface AskOptions extends RunLimits {
  model: LanguageModel;
  /** Version/label filters enforced inside the tools. */
  filter?: SearchFilter;
  /** Who is asking: pages whose `labels.acl` names none of these groups are never found (default: public pages only). */
  principal?: Principal;
  /** Price of the model; `null` or absent makes `usage.costUsd` null (unknown, never 0). */
  price?: ModelPrice | null;
  onEvent?: RunEventHandler;
  /** Clock in ms (default `performance.now`). */
  now?: () => number;
  /** Makes the signal that aborts a call after its timeout (default `AbortSignal.timeout`); tests inject their own. */
  timeoutSignal?: (ms: number) => AbortSignal;
  /** Provider retries per call (default 2). */
  maxRetries?: number;
  abortSignal?: AbortSignal;
  /** Mandatory retrievals (see `parsePolicy`, docs/policy.md): run before the model's first call; their pages must be cited. */
  policy?: Policy;
  /** With a policy: abstain when the answer cites none of a fired rule's required pages (default: only flag it). */
  policyStrict?: boolean;
  /**
   * Remove the answer's unsupported claims from its text, and abstain when none is supported
   * (default: only mark them in `answer.claims`; agent/trust/claims.ts). Applied after the policy check.
   */
  strictClaims?: boolean;
  /** Support score a claim needs (default `DEFAULT_CLAIM_THRESHOLD`, docs/calibration.md). */
  claimThreshold?: number;
  /**
   * Labels the model may set as `search_docs` arguments (an enum of the values the run's pages
   * carry); a model-chosen value only narrows `filter`, never widens it (docs/policy.md).
   */
  modelLabels?: ModelLabel[];
  /**
   * Earlier turns of the conversation, oldest first: shown to the model before the question as
   * prior conversation (never as instructions), within `historyBounds` (docs/conversations.md).
   */
  history?: ConversationTurn[];
  /** How much of `history` the model sees (default: the last 6 turns, within about 4000 tokens). */
  historyBounds?: HistoryBounds;
  /**
   * The conversation's search memory: passages earlier turns were shown are skipped and stay
   * citable; the run adds what it was shown when it ends. Budgets stay per run.
   */
  memory?: SearchMemory;
  /**
   * A model asked for the closest passages when the run's model abstains, or its answer keeps no
   * verified citation, without naming them (providers with strict answer schemas cannot): its
   * answer's `closest` is verified and shown as the run's. The shells pass the offline planner
   * for every other model, so an abstention of any model shows where the docs come closest.
   */
  closestModel?: LanguageModel;
  /**
   * The tracer of the run's spans (`atlas.run`, `atlas.search`, `atlas.read`, and the AI SDK's
   * model-call spans under them; docs/observability.md). Default: the OpenTelemetry API's global
   * tracer, a no-op unless the application registered a provider.
   */
  tracing?: RunTracing;
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
  /** The rules of the run's policy that fired, and its flags; absent when the run had no policy. */
  policy?: PolicyTrace;
  /** The earlier turns the run was given and how many the bounds dropped; absent without history. */
  history?: HistoryTrace;
  /** Web search: allow-list, whether and why it was offered, searches and sources; absent on docs-only runs (docs/web-search.md). */
  web?: WebTrace;
  /** Set when the closest passages shown were named by `closestModel`, not by the run's model. */
  closestBy?: 'closest-model';
}

export interface RunUsage {
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  /** Provider-hosted web searches (runs given the web only); their fee is in `costUsd`. */
  webSearches?: number;
}

/** The result of `agenticRun` and `classicAsk`. */
export interface AgentRun {
  question: string;
  answer: Answer;
  trace: RunTrace;
  usage: RunUsage;
  latencyMs: number;
  /** Set by `routedAsk`: the arm whose answer this is. */
  route?: 'classic' | 'agentic';
  /** Set by `routedAsk`: why that arm answered (the check that escalated, or that classic passed every check). */
  routeReason?: string;
  /** Route `auto` escalated: the classic run set aside (its usage and latency are counted in this run's). */
  escalatedFrom?: AgentRun;
  /** `webFallback` added the web: the docs-only run that abstained (its usage and latency are counted in this run's). */
  webFallbackFrom?: AgentRun;
}
