import type { ModelMessage } from 'ai';
import { abstention, type Answer } from '../trust/answer.ts';
import type { RunEventHandler } from '../events.ts';
import { matchingRules, type Policy, type PolicyRequire } from './policy.ts';
import type { SearchSession, ToolOutcome } from '../session/search-session.ts';

/** Chunks of one required document the loop reads at most (the first page of each). */
export const MAX_REQUIRED_DOC_CHUNKS = 8;

/** The flag of a run whose answer did not cite any page a fired rule required. */
export type PolicyFlag = 'policy-evidence-not-cited';

/** One rule that fired on the question, as recorded in the trace. */
export interface PolicyFiring {
  rule: string;
  /** The term, or the text the pattern matched. */
  matched: string;
  require: PolicyRequire;
  /** The pages the answer must cite (one of them): the best `top` docs of the search, or the listed docs that were found. */
  requiredDocIds: string[];
  /** The chunks the loop showed the model for this rule. */
  chunkIds: string[];
  /** Listed docs that are unknown or outside the run's filter ("not found", like any read). */
  missingDocIds: string[];
  /** Whether the final answer cites one of `requiredDocIds`. */
  cited: boolean;
}

/** The policy part of a run's trace. */
export interface PolicyTrace {
  /** The policy file, when known. */
  source?: string;
  fired: PolicyFiring[];
  flags: PolicyFlag[];
  /** Whether an uncited requirement made the run abstain. */
  strict: boolean;
}

/** The required retrievals of one run: the messages to put before the model's first call, and the firings. */
/** Runs one retrieval of a policy (a run traces each in its span, agent/run-spans.ts). */
export type ToolRunner = (toolName: 'search_docs' | 'read_section', work: () => Promise<ToolOutcome>) => Promise<ToolOutcome>;

export interface PolicyRetrievals {
  messages: ModelMessage[];
  firings: PolicyFiring[];
}

/**
 * Runs the required retrieval of every rule that matches the question, through the run's own
 * search session (so filters, access rules and budgets hold, and the evidence may be cited),
 * and returns them as one assistant turn of tool calls and one tool message of their results:
 * every model, scripted and offline ones included, sees them as if it had asked. Searches show
 * full passages, not snippets; the first result of each rule carries
 * `policy: { rule, must_cite: [doc ids] }`. Nothing matches: no messages.
 *
 * @example
 * const { messages, firings } = await runPolicyRetrievals(policy, question, session);
 * firings[0]; // { rule: 'allergy-label', matched: 'allergy', requiredDocIds: ['bakery-handbook'], ... }
 */
export async function runPolicyRetrievals(policy: Policy, question: string, session: SearchSession, emit: RunEventHandler = () => {}, tool: ToolRunner = (_toolName, work) => work()): Promise<PolicyRetrievals> {
  const firings: PolicyFiring[] = [];
  const calls: Array<{ toolCallId: string; toolName: 'search_docs' | 'read_section'; input: Record<string, unknown>; outcome: ToolOutcome }> = [];
  for (const { rule, matched } of matchingRules(policy, question)) {
    const firing: PolicyFiring = { rule: rule.name, matched, require: rule.require, requiredDocIds: [], chunkIds: [], missingDocIds: [], cited: false };
    const firstCall = calls.length;
    const callId = () => `policy-${calls.length + 1}`;
    if ('search' in rule.require) {
      const input = { query: rule.require.search };
      emit({ type: 'search-start', query: input.query });
      const outcome = await tool('search_docs', () => session.searchDocs(input, { fullText: true }));
      const step = session.steps.at(-1);
      if (step) {
        emit({ type: 'search-end', step });
        firing.chunkIds = step.chunkIds;
        firing.requiredDocIds = step.docIds.slice(0, rule.require.top ?? 1);
      }
      calls.push({ toolCallId: callId(), toolName: 'search_docs', input, outcome });
    } else {
      for (const docId of rule.require.docs) {
        const found = await readDocument(session, docId, (input, outcome) => calls.push({ toolCallId: callId(), toolName: 'read_section', input, outcome }), emit, tool);
        if (found.length === 0) firing.missingDocIds.push(docId);
        else firing.requiredDocIds.push(docId);
        firing.chunkIds.push(...found);
      }
    }
    firings.push(firing);
    // The first result of the rule tells the model what its answer must cite (real models read it; nothing depends on it).
    const first = calls[firstCall];
    if (first?.outcome.ok && firing.requiredDocIds.length > 0) {
      first.outcome = { ok: true, value: { ...first.outcome.value, policy: { rule: rule.name, must_cite: firing.requiredDocIds } } };
    }
  }
  if (calls.length === 0) return { messages: [], firings };
  const messages: ModelMessage[] = [
    {
      role: 'assistant',
      content: calls.map(({ toolCallId, toolName, input }) => ({ type: 'tool-call' as const, toolCallId, toolName, input })),
    },
    {
      role: 'tool',
      content: calls.map(({ toolCallId, toolName, outcome }) => ({
        type: 'tool-result' as const,
        toolCallId,
        toolName,
        output: outcome.ok ? { type: 'json' as const, value: outcome.value } : { type: 'error-text' as const, value: outcome.error },
      })),
    },
  ];
  return { messages, firings };
}

/** Reads a document's chunks from `#0` on (first page of each, at most MAX_REQUIRED_DOC_CHUNKS); returns the chunk ids read. */
async function readDocument(
  session: SearchSession,
  docId: string,
  record: (input: Record<string, unknown>, outcome: ToolOutcome) => void,
  emit: RunEventHandler,
  tool: ToolRunner,
): Promise<string[]> {
  const read: string[] = [];
  let chunkId: string | null = `${docId}#0`;
  while (chunkId && read.length < MAX_REQUIRED_DOC_CHUNKS) {
    const input = { chunk_id: chunkId };
    const outcome = await tool('read_section', () => session.readSection(input));
    const step = session.reads.at(-1);
    if (step) emit({ type: 'read', read: step });
    // A missing first chunk is "not found" like any read; the model is not shown the miss.
    if (!outcome.ok) break;
    record(input, outcome);
    read.push(chunkId);
    const next: unknown = (outcome.value as { next_chunk_id?: unknown }).next_chunk_id;
    chunkId = typeof next === 'string' ? next : null;
  }
  return read;
}

/**
 * Checks the final answer against the rules that fired: each must have one of its required
 * pages cited, else the run is flagged `policy-evidence-not-cited`, and with `strict` it
 * abstains. An abstention is not flagged (it claims nothing).
 *
 * @example
 * const { answer, policy, abstainReason } = checkPolicyCitations(answer, firings, { strict: true, source: 'policy.yaml' });
 */
export function checkPolicyCitations(
  answer: Answer,
  firings: PolicyFiring[],
  options: { strict?: boolean; source?: string } = {},
): { answer: Answer; policy: PolicyTrace; abstainReason?: string } {
  const citedDocs = new Set(answer.citations.map((citation) => citation.docId));
  const checked = firings.map((firing) => ({ ...firing, cited: firing.requiredDocIds.some((docId) => citedDocs.has(docId)) }));
  const uncited = answer.abstained ? [] : checked.filter((firing) => !firing.cited);
  const strict = options.strict === true;
  const policy: PolicyTrace = {
    ...(options.source === undefined ? {} : { source: options.source }),
    fired: checked,
    flags: uncited.length > 0 ? ['policy-evidence-not-cited'] : [],
    strict,
  };
  if (!strict || uncited.length === 0) return { answer, policy };
  const reasons = uncited.map((firing) =>
    firing.requiredDocIds.length === 0 ? `rule "${firing.rule}" found no required page` : `rule "${firing.rule}" requires citing ${firing.requiredDocIds.join(' or ')}`,
  );
  return { answer: abstention(), policy, abstainReason: `policy-evidence-not-cited: ${reasons.join('; ')}` };
}

/** What a run's review of its final answer returns: the answer (maybe an abstention), the policy trace and why it abstained. */
export type PolicyReview = (answer: Answer) => { answer: Answer; policy: PolicyTrace; abstainReason?: string };

/**
 * The policy hook of a run (agentic or classic): with a policy, runs the required retrievals,
 * appends their messages to `recorder.messages`, and returns the review of the final answer;
 * without one, does nothing and returns undefined.
 *
 * @example
 * const review = await startPolicy({ policy, policyStrict: true }, question, session, recorder);
 * return recorder.finish(question, session, draft, stopReason, started, review);
 */
export async function startPolicy(
  options: { policy?: Policy; policyStrict?: boolean },
  question: string,
  session: SearchSession,
  recorder: { messages: ModelMessage[]; emit: RunEventHandler; spans?: { tool: (toolName: string, session: SearchSession, work: () => Promise<ToolOutcome>) => Promise<ToolOutcome> } },
): Promise<PolicyReview | undefined> {
  const { policy } = options;
  if (!policy) return undefined;
  const { spans } = recorder;
  const tool: ToolRunner | undefined = spans ? (toolName, work) => spans.tool(toolName, session, work) : undefined;
  const { messages, firings } = await runPolicyRetrievals(policy, question, session, recorder.emit, tool);
  recorder.messages.push(...messages);
  return (answer) => checkPolicyCitations(answer, firings, { strict: options.policyStrict, source: policy.source });
}

/** Searches a policy may require of one run at most (every search rule firing), for a session's budget. */
export function policySearchCount(policy: Policy | undefined): number {
  return policy?.rules.filter((rule) => 'search' in rule.require).length ?? 0;
}
