// The conversation store in the PostgreSQL database of the index: every `atlas serve` replica
// on that database serves every conversation.
import { randomUUID } from 'node:crypto';
import { AtlasError } from '../errors.ts';
import type { PostgresState } from './postgres-state.ts';
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

/** Options of {@link createPostgresConversationStore}. */
export interface PostgresConversationStoreOptions {
  /** Conversation ids (default `crypto.randomUUID`); tests inject their own. */
  randomId?: () => string;
  /** Wall clock in ms for the stored times (default `Date.now`). */
  now?: () => number;
}

/**
 * The conversation store on the state tables of `state` (see `openPostgresState`). Saving a
 * turn is one transaction that first increments the conversation's turn count, which locks its
 * row: turns of one conversation saved at once, by any replica, are stored one after the other
 * with consecutive numbers, and their passages merged, none lost. A replica that dies mid-save
 * leaves nothing (PostgreSQL rolls its transaction back). `get` reads the conversation and its
 * turns in one snapshot. Closing the store closes `state`.
 *
 * @example
 * const store = createPostgresConversationStore(await openPostgresState({ url }));
 * const { id } = await store.create({ principal: { groups: ['staff'] } });
 */
export function createPostgresConversationStore(state: PostgresState, options: PostgresConversationStoreOptions = {}): ConversationStore {
  const randomId = options.randomId ?? (() => randomUUID());
  const now = options.now ?? (() => Date.now());
  const iso = (ms: number) => new Date(ms).toISOString();

  return {
    async create(request) {
      const { conversation, row } = newConversation(randomId(), iso(now()), request);
      await state.run((pool) =>
        pool.query('INSERT INTO state_conversations (id, created_at, principal_groups, filter, owner) VALUES ($1, $2, $3, $4, $5)', [row.id, row.created_at, row.principal_groups, row.filter, row.owner]),
      );
      return conversation;
    },
    async get(id, principal, user) {
      return state.transaction(async (client) => {
        await client.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const row = (await client.query<ConversationRow>('SELECT id, created_at, principal_groups, filter, owner FROM state_conversations WHERE id = $1', [id])).rows[0];
        if (!row) return undefined;
        const turns = (await client.query<TurnRow>('SELECT * FROM state_turns WHERE conversation_id = $1 ORDER BY turn', [id])).rows.map(turnOf);
        return visibleConversation(row, turns, principal, user);
      });
    },
    async passages(id) {
      const result = await state.run((pool) =>
        pool.query<{ chunk_id: string; texts: string; source: string }>('SELECT chunk_id, texts, source FROM state_seen_passages WHERE conversation_id = $1 ORDER BY first_turn, seq', [id]),
      );
      return result.rows.map(passageOf);
    },
    async saveTurn(id, turn) {
      return state.transaction(async (client) => {
        // The row lock of this UPDATE serializes the turns of one conversation until COMMIT.
        const counted = await client.query<{ turns: number }>('UPDATE state_conversations SET turns = turns + 1 WHERE id = $1 RETURNING turns', [id]);
        const number = counted.rows[0]?.turns;
        if (number === undefined) throw new AtlasError('internal', `Atlas: conversation ${id} is not in the state tables of ${state.target.shown}; its turn was not stored.`);
        const stored = storedTurn(number, turn, iso(now()));
        await client.query(
          'INSERT INTO state_turns (conversation_id, turn, question, answer, abstained, citations, trace, started_at, finished_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
          [id, number, stored.question, stored.answer, stored.abstained, JSON.stringify(stored.citations), JSON.stringify(stored.trace), stored.startedAt, stored.finishedAt],
        );
        const chunkIds = turn.passages.map((passage) => passage.chunkId);
        const existing = new Map(
          (await client.query<{ chunk_id: string; texts: string; source: string }>('SELECT chunk_id, texts, source FROM state_seen_passages WHERE conversation_id = $1 AND chunk_id = ANY($2)', [id, chunkIds])).rows.map((row) => [row.chunk_id, row]),
        );
        for (const passage of turn.passages) {
          const merged = mergedPassage(existing.get(passage.chunkId), passage);
          await client.query(
            'INSERT INTO state_seen_passages (conversation_id, chunk_id, texts, source, first_turn) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (conversation_id, chunk_id) DO UPDATE SET texts = excluded.texts, source = excluded.source',
            [id, passage.chunkId, merged.texts, merged.source, number],
          );
        }
        for (const [seq, search] of stored.trace.searches.entries()) {
          await client.query('INSERT INTO state_queries (conversation_id, turn, seq, query, version, page, note, chunk_ids) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)', [
            id,
            number,
            seq,
            search.query,
            search.version ?? null,
            search.page ?? null,
            search.note ?? null,
            JSON.stringify(search.chunkIds),
          ]);
        }
        return stored;
      });
    },
    now,
    close: () => state.close(),
  };
}
