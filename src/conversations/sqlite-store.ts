// The conversation store in an SQLite state file beside the index (one process, or several on one machine).
import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { openStateDatabase } from './state-db.ts';
import {
  mergedPassage,
  newConversation,
  passageOf,
  storedTurn,
  turnOf,
  visibleConversation,
  type ConversationRow,
  type ConversationStore,
  type TurnRow,
} from './store.ts';

export interface ConversationStoreOptions {
  /** The state database file (see `stateDbPath`), or `:memory:`. */
  path: string;
  /** Conversation ids (default `crypto.randomUUID`); tests inject their own. */
  randomId?: () => string;
  /** Wall clock in ms for the stored times (default `Date.now`). */
  now?: () => number;
}

/**
 * Opens the SQLite store (creating the state database when missing; see `openStateDatabase` for
 * the version check). Its methods are async like the PostgreSQL store's; a turn is saved in one
 * SQLite transaction (SQLite's write lock serializes saves, also across processes).
 *
 * @example
 * const store = openConversationStore({ path: stateDbPath('.atlas/index.db') });
 * const { id } = await store.create({ principal: { groups: ['staff'] } });
 */
export function openConversationStore(options: ConversationStoreOptions): ConversationStore {
  const db = openStateDatabase(options.path);
  const randomId = options.randomId ?? (() => randomUUID());
  const now = options.now ?? (() => Date.now());
  const iso = (ms: number) => new Date(ms).toISOString();
  const statements = prepare(db);

  const saveTurn = db.transaction((id: string, turn: Parameters<ConversationStore['saveTurn']>[1]) => {
    const number = ((statements.lastTurn.get(id) as { last: number | null }).last ?? 0) + 1;
    const stored = storedTurn(number, turn, iso(now()));
    statements.insertTurn.run(id, number, stored.question, stored.answer, stored.abstained ? 1 : 0, JSON.stringify(stored.citations), JSON.stringify(stored.trace), stored.startedAt, stored.finishedAt);
    for (const passage of turn.passages) {
      const merged = mergedPassage(statements.passage.get(id, passage.chunkId) as { texts: string; source: string } | undefined, passage);
      statements.upsertPassage.run(id, passage.chunkId, merged.texts, merged.source, number);
    }
    stored.trace.searches.forEach((search, seq) => {
      statements.insertQuery.run(id, number, seq, search.query, search.version ?? null, search.page ?? null, search.note ?? null, JSON.stringify(search.chunkIds));
    });
    return stored;
  });

  return {
    async create(request) {
      const { conversation, row } = newConversation(randomId(), iso(now()), request);
      statements.insertConversation.run(row.id, row.created_at, row.principal_groups, row.filter, row.owner);
      return conversation;
    },
    async get(id, principal, user) {
      const row = statements.conversation.get(id) as ConversationRow | undefined;
      return visibleConversation(row, row ? (statements.turns.all(id) as TurnRow[]).map(turnOf) : [], principal, user);
    },
    async passages(id) {
      return (statements.passages.all(id) as Array<{ chunk_id: string; texts: string; source: string }>).map(passageOf);
    },
    async saveTurn(id, turn) {
      return saveTurn(id, turn);
    },
    now,
    async close() {
      if (db.open) db.close();
    },
  };
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
