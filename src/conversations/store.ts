// Conversations, their turns and their search memory, kept in the state database.
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Citation } from '../agent/trust/answer.ts';
import type { HistoryTrace } from '../agent/history.ts';
import type { AgentRun } from '../agent/run-types.ts';
import type { RememberedPassage } from '../agent/session/search-memory.ts';
import type { StopReason } from '../agent/stop-conditions.ts';
import { principalGroups } from '../index/filter.ts';
import type { Principal, SearchFilter } from '../index/types.ts';
import { openStateDatabase } from './state-db.ts';

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

export interface ConversationStoreOptions {
  /** The state database file (see `stateDbPath`), or `:memory:`. */
  path: string;
  /** Conversation ids (default `crypto.randomUUID`); tests inject their own. */
  randomId?: () => string;
  /** Wall clock in ms for the stored times (default `Date.now`). */
  now?: () => number;
}

/**
 * The conversations of one index, in its state database: each conversation's turns (question,
 * answer, citations, trace summary, times), the passages its search session was shown (exact
 * texts) and its query log, so a restart loses nothing. A conversation is found only by the
 * principal that created it (same groups) and, when it was created by a user (a token's name),
 * only by that user; for anyone else it does not exist. Conversations never share state.
 *
 * @example
 * const store = openConversationStore({ path: stateDbPath('.atlas/index.db') });
 * const { id } = store.create({ principal: { groups: ['staff'] }, user: 'alice' });
 * store.get(id, { groups: ['staff'] }, 'alice')?.turns; // []
 * store.get(id, { groups: ['staff'] }, 'bob'); // undefined: another user
 * store.get(id, undefined, 'alice'); // undefined: another principal
 */
export interface ConversationStore {
  create(options: { principal?: Principal; user?: string; filter?: SearchFilter }): StoredConversation;
  /** The conversation, or undefined when it does not exist or belongs to another principal or user. */
  get(id: string, principal: Principal | undefined, user?: string): StoredConversation | undefined;
  /** The passages the conversation's turns were shown. */
  passages(id: string): RememberedPassage[];
  /** Appends a finished turn, its new or grown passages and its searches, in one transaction; returns the stored turn. */
  saveTurn(id: string, turn: { question: string; run: AgentRun; startedAt: number; passages: RememberedPassage[] }): StoredTurn;
  /** The store's wall clock in ms (the times it stores). */
  now(): number;
  close(): void;
}

/** Opens the store (creating the state database when missing; see `openStateDatabase` for the version check). */
export function openConversationStore(options: ConversationStoreOptions): ConversationStore {
  const db = openStateDatabase(options.path);
  const randomId = options.randomId ?? (() => randomUUID());
  const now = options.now ?? (() => Date.now());
  const iso = (ms: number) => new Date(ms).toISOString();
  const statements = prepare(db);

  return {
    create({ principal, user, filter }) {
      const id = randomId();
      const conversation: StoredConversation = { id, createdAt: iso(now()), groups: groupsKey(principal), ...(user ? { owner: user } : {}), filter: { ...filter }, turns: [] };
      const { principal: _ignored, ...stored } = conversation.filter;
      statements.insertConversation.run(id, conversation.createdAt, JSON.stringify(conversation.groups), JSON.stringify(stored), user ?? '');
      return { ...conversation, filter: stored };
    },
    get(id, principal, user) {
      const row = statements.conversation.get(id) as { id: string; created_at: string; principal_groups: string; filter: string; owner: string } | undefined;
      if (!row || row.principal_groups !== JSON.stringify(groupsKey(principal))) return undefined;
      if (row.owner !== '' && row.owner !== user) return undefined;
      const turns = (statements.turns.all(id) as TurnRow[]).map(turnOf);
      return {
        id: row.id,
        createdAt: row.created_at,
        groups: JSON.parse(row.principal_groups) as string[],
        ...(row.owner === '' ? {} : { owner: row.owner }),
        filter: JSON.parse(row.filter) as SearchFilter,
        turns,
      };
    },
    passages(id) {
      return (statements.passages.all(id) as Array<{ chunk_id: string; texts: string; source: string }>).map((row) => ({
        chunkId: row.chunk_id,
        texts: JSON.parse(row.texts) as string[],
        source: row.source === 'read' ? 'read' : 'search',
      }));
    },
    saveTurn(id, { question, run, startedAt, passages }) {
      return db.transaction(() => {
        const number = ((statements.lastTurn.get(id) as { last: number | null }).last ?? 0) + 1;
        const stored: StoredTurn = {
          turn: number,
          question,
          answer: run.answer.text,
          abstained: run.answer.abstained,
          citations: run.answer.citations,
          trace: summarize(run),
          startedAt: iso(startedAt),
          finishedAt: iso(now()),
        };
        statements.insertTurn.run(id, number, question, stored.answer, stored.abstained ? 1 : 0, JSON.stringify(stored.citations), JSON.stringify(stored.trace), stored.startedAt, stored.finishedAt);
        for (const passage of passages) {
          const existing = statements.passage.get(id, passage.chunkId) as { texts: string; source: string } | undefined;
          const texts = existing ? [...new Set([...(JSON.parse(existing.texts) as string[]), ...passage.texts])] : passage.texts;
          const source = existing?.source === 'read' ? 'read' : passage.source;
          statements.upsertPassage.run(id, passage.chunkId, JSON.stringify(texts), source, number);
        }
        stored.trace.searches.forEach((search, seq) => {
          statements.insertQuery.run(id, number, seq, search.query, search.version ?? null, search.page ?? null, search.note ?? null, JSON.stringify(search.chunkIds));
        });
        return stored;
      })();
    },
    now,
    close() {
      if (db.open) db.close();
    },
  };
}

/** The sorted groups a conversation is keyed by; no principal is the anonymous one (public pages: no groups). */
function groupsKey(principal: Principal | undefined): string[] {
  return [...new Set(principalGroups(principal))].sort();
}

function prepare(db: Database.Database) {
  return {
    insertConversation: db.prepare('INSERT INTO conversations (id, created_at, principal_groups, filter, owner) VALUES (?, ?, ?, ?, ?)'),
    conversation: db.prepare('SELECT id, created_at, principal_groups, filter, owner FROM conversations WHERE id = ?'),
    turns: db.prepare('SELECT * FROM turns WHERE conversation_id = ? ORDER BY turn'),
    lastTurn: db.prepare('SELECT MAX(turn) AS last FROM turns WHERE conversation_id = ?'),
    insertTurn: db.prepare(
      'INSERT INTO turns (conversation_id, turn, question, answer, abstained, citations, trace, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    passages: db.prepare('SELECT chunk_id, texts, source FROM seen_passages WHERE conversation_id = ? ORDER BY first_turn, rowid'),
    passage: db.prepare('SELECT texts, source FROM seen_passages WHERE conversation_id = ? AND chunk_id = ?'),
    upsertPassage: db.prepare(
      'INSERT INTO seen_passages (conversation_id, chunk_id, texts, source, first_turn) VALUES (?, ?, ?, ?, ?) ON CONFLICT (conversation_id, chunk_id) DO UPDATE SET texts = excluded.texts, source = excluded.source',
    ),
    insertQuery: db.prepare('INSERT INTO queries (conversation_id, turn, seq, query, version, page, note, chunk_ids) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
  };
}

interface TurnRow {
  turn: number;
  question: string;
  answer: string;
  abstained: number;
  citations: string;
  trace: string;
  started_at: string;
  finished_at: string;
}

function turnOf(row: TurnRow): StoredTurn {
  return {
    turn: row.turn,
    question: row.question,
    answer: row.answer,
    abstained: row.abstained === 1,
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
