// Conversations, their turns and their search memory: the store contract and what both stores share.
import type { Citation } from '../agent/trust/answer.ts';
import type { HistoryTrace } from '../agent/history.ts';
import type { AgentRun } from '../agent/run-types.ts';
import type { RememberedPassage } from '../agent/session/search-memory.ts';
import type { StopReason } from '../agent/stop-conditions.ts';
import { principalGroups } from '../index/filter.ts';
import type { Principal, SearchFilter } from '../index/types.ts';

/** One search of a stored turn (its query log). */
export interface StoredSearch {
  query: string;
  version?: string;
  page?: number;
  note?: string;
  chunkIds: string[];
}

/** What a stored turn keeps of its run's trace. */
export interface TurnTraceSummary {
  stopReason: StopReason;
  route?: 'classic' | 'agentic';
  searches: StoredSearch[];
  reads: Array<{ tool: string; chunkId: string }>;
  /** Chunks the turn was shown (its own evidence, earlier turns' not counted). */
  evidence: number;
  abstainReason?: string;
  modelCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  history?: HistoryTrace;
}

/** One turn of a conversation as stored. */
export interface StoredTurn {
  /** 1-based. */
  turn: number;
  question: string;
  answer: string;
  abstained: boolean;
  citations: Citation[];
  trace: TurnTraceSummary;
  /** ISO 8601 times, by the store's clock. */
  startedAt: string;
  finishedAt: string;
}

/** A conversation: who created it, with which filter, and its turns in order. */
export interface StoredConversation {
  id: string;
  createdAt: string;
  /** The groups of the principal that created it (sorted); only that principal finds it. */
  groups: string[];
  /** The user (token name) that created it; only that user finds it. Absent: created without one (no auth), found by its groups alone. */
  owner?: string;
  /** The filter its turns search with (version, labels), fixed at creation. */
  filter: SearchFilter;
  turns: StoredTurn[];
}

/**
 * The conversations of one index, in a state store: each conversation's turns (question,
 * answer, citations, trace summary, times), the passages its search session was shown (exact
 * texts) and its query log, so a restart loses nothing. Two implementations: an SQLite file
 * beside the index (`openConversationStore`, sqlite-store.ts) and tables in the PostgreSQL
 * database of a `postgres://` index (`openPostgresConversationStore`, postgres-store.ts), where
 * every replica of `atlas serve` finds every conversation. Both pass one contract suite
 * (store-suite.ts). A conversation is found only by the principal that created it (same groups)
 * and, when it was created by a user (a token's name), only by that user; for anyone else it
 * does not exist. Conversations never share state.
 *
 * @example
 * const store = openConversationStore({ path: stateDbPath('.atlas/index.db') });
 * const { id } = await store.create({ principal: { groups: ['staff'] }, user: 'alice' });
 * (await store.get(id, { groups: ['staff'] }, 'alice'))?.turns; // []
 * await store.get(id, { groups: ['staff'] }, 'bob'); // undefined: another user
 * await store.get(id, undefined, 'alice'); // undefined: another principal
 */
export interface ConversationStore {
  create(options: { principal?: Principal; user?: string; filter?: SearchFilter }): Promise<StoredConversation>;
  /** The conversation, or undefined when it does not exist or belongs to another principal or user. */
  get(id: string, principal: Principal | undefined, user?: string): Promise<StoredConversation | undefined>;
  /** The passages the conversation's turns were shown, in first-shown order. */
  passages(id: string): Promise<RememberedPassage[]>;
  /**
   * Appends a finished turn, its new or grown passages and its searches, in one transaction;
   * returns the stored turn. Turns of one conversation saved at once are serialized: each gets
   * the next number, none is lost.
   */
  saveTurn(id: string, turn: NewTurn): Promise<StoredTurn>;
  /** The store's wall clock in ms (the times it stores). */
  now(): number;
  close(): Promise<void>;
}

/** What `saveTurn` stores: the question, its run, when it started (ms) and the passages it added or grew. */
export interface NewTurn {
  question: string;
  run: AgentRun;
  startedAt: number;
  passages: RememberedPassage[];
}

/** What both stores keep of a conversation row (strings as stored). */
export interface ConversationRow {
  id: string;
  created_at: string;
  principal_groups: string;
  filter: string;
  owner: string;
}

/** A new conversation: the conversation to return and the row to insert (the principal is never stored in the filter). */
export function newConversation(id: string, createdAt: string, options: { principal?: Principal; user?: string; filter?: SearchFilter }): { conversation: StoredConversation; row: ConversationRow } {
  const { principal: _ignored, ...filter } = { ...options.filter };
  const groups = groupsKey(options.principal);
  const conversation: StoredConversation = { id, createdAt, groups, ...(options.user ? { owner: options.user } : {}), filter, turns: [] };
  return { conversation, row: { id, created_at: createdAt, principal_groups: JSON.stringify(groups), filter: JSON.stringify(filter), owner: options.user ?? '' } };
}

/** The stored conversation of `row` with its turns, or undefined when it is not `principal`'s and `user`'s. */
export function visibleConversation(row: ConversationRow | undefined, turns: StoredTurn[], principal: Principal | undefined, user: string | undefined): StoredConversation | undefined {
  if (!row || row.principal_groups !== JSON.stringify(groupsKey(principal))) return undefined;
  if (row.owner !== '' && row.owner !== user) return undefined;
  return {
    id: row.id,
    createdAt: row.created_at,
    groups: JSON.parse(row.principal_groups) as string[],
    ...(row.owner === '' ? {} : { owner: row.owner }),
    filter: JSON.parse(row.filter) as SearchFilter,
    turns,
  };
}

/** The turn numbered `number` as stored, from its run. */
export function storedTurn(number: number, turn: NewTurn, finishedAt: string): StoredTurn {
  const { run } = turn;
  return {
    turn: number,
    question: turn.question,
    answer: run.answer.text,
    abstained: run.answer.abstained,
    citations: run.answer.citations,
    trace: summarize(run),
    startedAt: new Date(turn.startedAt).toISOString(),
    finishedAt,
  };
}

/** A remembered passage grown by a turn: the texts of both (first shown first), `read` once either was read. */
export function mergedPassage(existing: { texts: string; source: string } | undefined, passage: RememberedPassage): { texts: string; source: string } {
  const texts = existing ? [...new Set([...(JSON.parse(existing.texts) as string[]), ...passage.texts])] : passage.texts;
  return { texts: JSON.stringify(texts), source: existing?.source === 'read' ? 'read' : passage.source };
}

/** A stored passage row as a remembered passage. */
export function passageOf(row: { chunk_id: string; texts: string; source: string }): RememberedPassage {
  return { chunkId: row.chunk_id, texts: JSON.parse(row.texts) as string[], source: row.source === 'read' ? 'read' : 'search' };
}

/** The sorted groups a conversation is keyed by; no principal is the anonymous one (public pages: no groups). */
function groupsKey(principal: Principal | undefined): string[] {
  return [...new Set(principalGroups(principal))].sort();
}

/** A stored turn row (both stores). */
export interface TurnRow {
  turn: number;
  question: string;
  answer: string;
  abstained: number | boolean;
  citations: string;
  trace: string;
  started_at: string;
  finished_at: string;
}

/** A stored turn row as a turn. */
export function turnOf(row: TurnRow): StoredTurn {
  return {
    turn: row.turn,
    question: row.question,
    answer: row.answer,
    abstained: row.abstained === 1 || row.abstained === true,
    citations: JSON.parse(row.citations) as Citation[],
    trace: JSON.parse(row.trace) as TurnTraceSummary,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

function summarize(run: AgentRun): TurnTraceSummary {
  const { trace, usage } = run;
  return {
    stopReason: trace.stopReason,
    ...(run.route ? { route: run.route } : {}),
    searches: trace.steps.map((step) => ({
      query: step.query,
      ...(step.filter.version ? { version: step.filter.version } : {}),
      ...(step.page ? { page: step.page } : {}),
      ...(step.note ? { note: step.note } : {}),
      chunkIds: step.chunkIds,
    })),
    reads: trace.reads.map((read) => ({ tool: read.tool, chunkId: read.chunkId })),
    evidence: trace.evidence.length,
    ...(trace.abstainReason ? { abstainReason: trace.abstainReason } : {}),
    modelCalls: usage.modelCalls,
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    latencyMs: run.latencyMs,
    ...(trace.history ? { history: trace.history } : {}),
  };
}
