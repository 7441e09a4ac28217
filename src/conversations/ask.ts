// One turn of a stored conversation: the run sees the earlier turns and the conversation's search memory.
import type { ConversationTurn } from '../agent/history.ts';
import { routedAsk, type RoutedAskOptions, type RoutedRun } from '../agent/policy/route.ts';
import { SearchMemory } from '../agent/session/search-memory.ts';
import { withPrincipal } from '../index/filter.ts';
import type { Principal, SearchFilter } from '../index/types.ts';
import type { ConversationStore, StoredConversation, StoredTurn } from './store.ts';
import { modelFailed } from '../agent/stop-conditions.ts';
import { narrowConversationFilter } from './turn-filter.ts';
import { inSpan, tracerOf } from '../telemetry/tracing.ts';

/** The options of a conversation turn: those of `routedAsk`, minus what the conversation fixes. */
export type ConversationAskOptions = Omit<RoutedAskOptions, 'history' | 'memory' | 'filter' | 'principal'> & {
  /** The user asking (a token's name): a conversation another user created does not exist for them. */
  user?: string;
  /**
   * The filter enforced now by whoever serves the turn (`atlas serve --version/--label`): it
   * narrows the filter the conversation was created with, never widens it
   * (`narrowConversationFilter`). Its `principal` is ignored: the conversation's groups decide.
   */
  currentFilter?: SearchFilter;
};

/** A finished turn: the run (the AgentRun of this turn) and the turn as stored. */
export interface ConversationReply {
  conversationId: string;
  run: RoutedRun;
  /** The turn as stored; absent when the run failed (stop reason error, timeout or deadline), which is not stored. */
  turn?: StoredTurn;
  /** What the current filter narrowed of the conversation's own (a version or label values outside it); empty when nothing. */
  notes: string[];
}

/**
 * Asks `question` as the next turn of conversation `id`, as `principal`: the run is given the
 * earlier turns (`history`, bounded, see docs/conversations.md), searches with the filter and
 * principal the conversation was created with (the filter narrowed by `currentFilter`, the one
 * enforced now, when given), skips the passages its earlier turns were shown
 * and may cite them (its search memory), with a fresh search budget. The turn, the passages it
 * was shown and its searches are stored before this returns; a run the model failed (stop reason
 * `error`, `timeout`, `deadline`) is returned but not stored, so a retry starts from the same state. Undefined when the conversation
 * does not exist or belongs to another principal or user (the same answer for all).
 *
 * @example
 * const { id } = await store.create({ principal });
 * await askInConversation(store, id, 'How do I enqueue a job in Orbit 3.x?', principal, { model, index });
 * const reply = await askInConversation(store, id, 'and how do I cancel it?', principal, { model, index });
 * reply?.run.trace.steps[0]?.query; // 'and how do I cancel it? Orbit enqueue job'
 */
export async function askInConversation(
  store: ConversationStore,
  id: string,
  question: string,
  principal: Principal | undefined,
  options: ConversationAskOptions,
): Promise<ConversationReply | undefined> {
  const conversation = await store.get(id, principal, options.user);
  if (!conversation) return undefined;
  // The turn's span: its run's spans and the state writes under it (docs/observability.md).
  const attributes = { 'atlas.conversation.id': id, 'atlas.conversation.earlier_turns': conversation.turns.length };
  return inSpan(tracerOf(options.tracing), 'atlas.conversation.turn', attributes, async (span) => {
    const reply = await runTurn(store, conversation, question, options);
    span.setAttribute('atlas.conversation.turn_saved', reply.turn !== undefined);
    return reply;
  });
}

/** Runs the turn with the conversation's history and memory, and stores it unless the model failed. */
async function runTurn(store: ConversationStore, conversation: StoredConversation, question: string, options: ConversationAskOptions): Promise<ConversationReply> {
  const { user: _user, currentFilter, ...runOptions } = options;
  const { id } = conversation;
  const startedAt = store.now();
  const runPrincipal: Principal = { groups: conversation.groups };
  const { filter: turnFilter, notes } = narrowConversationFilter(conversation.filter, currentFilter);
  // Earlier passages are restored under the narrowed filter: one outside it now can be neither shown nor cited.
  const filter = withPrincipal(turnFilter, runPrincipal);
  const memory = await SearchMemory.restore(await store.passages(id), (chunkId) => options.index.getChunk(chunkId, filter));
  const run = await routedAsk(question, {
    ...runOptions,
    filter: turnFilter,
    principal: runPrincipal,
    history: historyOf(conversation),
    memory,
  });
  // A run that ended without an answer because the model failed (or the client went away) is not a turn to remember.
  if (modelFailed(run.trace.stopReason)) return { conversationId: id, run, notes };
  const turn = await store.saveTurn(id, { question, run, startedAt, passages: memory.takeChanges() });
  return { conversationId: id, run, turn, notes };
}

/** The earlier turns of a stored conversation, as a run is given them. */
export function historyOf(conversation: StoredConversation): ConversationTurn[] {
  return conversation.turns.map((turn) => ({ question: turn.question, answer: turn.answer, citations: turn.citations }));
}
