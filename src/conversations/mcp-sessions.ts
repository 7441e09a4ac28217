// MCP sessions that outlive a process: the session id -> owner binding and what its search
// session carries (passages shown, searches used), in the state tables of a postgres:// index,
// so any `atlas serve` replica accepts any session id (src/mcp/shared-http.ts).
import type { RememberedPassage } from '../agent/session/search-memory.ts';
import type { PostgresState } from './postgres-state.ts';
import { mergedPassage, passageOf } from './store.ts';

/** What an MCP session's search session carries between requests. */
export interface McpSessionState {
  /** The passages shown, with exactly the texts shown. */
  passages: RememberedPassage[];
  /** search_docs calls used, toward the session's budget. */
  searchesUsed: number;
}

/** A stored MCP session. */
export interface McpSessionRecord extends McpSessionState {
  id: string;
  /** Who opened it (user and groups, as the handler keys them): only they may use it. */
  owner: string;
  /** The client it counts against in the per-client bound. */
  client: string;
  /** Last request, ms by the handler's clock. */
  lastUsed: number;
}

/** The bounds an opening session is held to (those of `createMcpHttpHandler`). */
export interface McpSessionBounds {
  maxSessions: number;
  maxSessionsPerClient: number;
  idleMs: number;
}

/** Where shared MCP sessions are kept. */
export interface McpSessionStore {
  /**
   * Records a new session at `at`: first drops the sessions idle longer than `idleMs`, then
   * closes the client's own least recently used sessions past its bound or the server's; a
   * client with none open when the server's bound is reached is refused (`ok: false`).
   */
  open(session: { id: string; owner: string; client: string }, at: number, bounds: McpSessionBounds): Promise<{ ok: true } | { ok: false }>;
  /** The session, its last use moved to `at`; undefined when unknown, ended, or idle longer than `idleMs`. */
  get(id: string, at: number, idleMs: number): Promise<McpSessionRecord | undefined>;
  /** Adds what one request showed and the searches it used (merged with what others stored meanwhile). */
  record(id: string, change: McpSessionState): Promise<void>;
  /** Ends the session (DELETE /mcp). */
  end(id: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * The MCP sessions of `state`'s `state_mcp_sessions` table. Opening takes a transaction-scoped
 * advisory lock, so replicas opening at once count the same sessions; recording a request
 * locks the session's row, so two replicas serving one session at once lose neither's passages
 * nor searches. Closing the store closes `state`.
 *
 * @example
 * const sessions = createPostgresMcpSessions(await openPostgresState({ url }));
 * const mcp = createSharedMcpHttpHandler({ index, sessions });
 */
export function createPostgresMcpSessions(state: PostgresState): McpSessionStore {
  return {
    open({ id, owner, client }, at, bounds) {
      return state.transaction(async (db) => {
        await db.query("SELECT pg_advisory_xact_lock(hashtext(current_database() || current_schema() || ' mcp sessions'))");
        await db.query('DELETE FROM state_mcp_sessions WHERE last_used < $1', [at - bounds.idleMs]);
        const own = (await db.query<{ id: string }>('SELECT id FROM state_mcp_sessions WHERE client = $1 ORDER BY last_used, created_at', [client])).rows.map((row) => row.id);
        let total = Number((await db.query<{ count: string }>('SELECT count(*) AS count FROM state_mcp_sessions')).rows[0]!.count);
        const victims: string[] = [];
        while ((own.length >= bounds.maxSessionsPerClient || total >= bounds.maxSessions) && own.length > 0) {
          victims.push(own.shift()!);
          total -= 1;
        }
        if (total >= bounds.maxSessions) return { ok: false };
        await db.query('DELETE FROM state_mcp_sessions WHERE id = ANY($1)', [victims]);
        await db.query('INSERT INTO state_mcp_sessions (id, owner, client, created_at, last_used, state) VALUES ($1, $2, $3, $4, $4, $5)', [
          id,
          owner,
          client,
          at,
          JSON.stringify({ passages: [], searchesUsed: 0 }),
        ]);
        return { ok: true };
      });
    },
    async get(id, at, idleMs) {
      const result = await state.run((pool) =>
        pool.query<{ id: string; owner: string; client: string; last_used: string; state: string }>(
          'UPDATE state_mcp_sessions SET last_used = $2 WHERE id = $1 AND last_used >= $3 RETURNING id, owner, client, last_used, state',
          [id, at, at - idleMs],
        ),
      );
      const row = result.rows[0];
      if (!row) return undefined;
      const stored = JSON.parse(row.state) as McpSessionState;
      return { id: row.id, owner: row.owner, client: row.client, lastUsed: Number(row.last_used), passages: stored.passages, searchesUsed: stored.searchesUsed };
    },
    record(id, change) {
      return state.transaction(async (db) => {
        const row = (await db.query<{ state: string }>('SELECT state FROM state_mcp_sessions WHERE id = $1 FOR UPDATE', [id])).rows[0];
        if (!row) return;
        const stored = JSON.parse(row.state) as McpSessionState;
        const passages = new Map(stored.passages.map((passage) => [passage.chunkId, passage]));
        for (const passage of change.passages) {
          const before = passages.get(passage.chunkId);
          const merged = mergedPassage(before ? { texts: JSON.stringify(before.texts), source: before.source } : undefined, passage);
          passages.set(passage.chunkId, passageOf({ chunk_id: passage.chunkId, ...merged }));
        }
        const next: McpSessionState = { passages: [...passages.values()], searchesUsed: stored.searchesUsed + change.searchesUsed };
        await db.query('UPDATE state_mcp_sessions SET state = $2 WHERE id = $1', [id, JSON.stringify(next)]);
      });
    },
    async end(id) {
      await state.run((pool) => pool.query('DELETE FROM state_mcp_sessions WHERE id = $1', [id]));
    },
    close: () => state.close(),
  };
}
