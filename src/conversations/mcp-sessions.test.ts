import { afterAll, describe, expect, it } from 'vitest';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { createPostgresMcpSessions } from './mcp-sessions.ts';
import { openPostgresState } from './postgres-state.ts';

const server = testPostgres(process.env);
const bounds = { maxSessions: 3, maxSessionsPerClient: 2, idleMs: 1_000 };

describe.skipIf(server.url === undefined)(`MCP sessions in PostgreSQL${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'mcpstate');
  afterAll(() => schemas.dropAll());
  const open = async () => createPostgresMcpSessions(await openPostgresState({ url: schemas.fresh() }));

  it('closes a client\'s least recently used session past its bound or the server\'s, never another client\'s, and expires idle ones', async () => {
    const sessions = await open();
    expect(await sessions.open({ id: 'a1', owner: 'alice', client: 'token:a' }, 1_000, bounds)).toEqual({ ok: true });
    expect(await sessions.open({ id: 'a2', owner: 'alice', client: 'token:a' }, 1_001, bounds)).toEqual({ ok: true });
    await sessions.get('a1', 1_002, bounds.idleMs); // a1 used last: a2 is the least recently used
    expect(await sessions.open({ id: 'a3', owner: 'alice', client: 'token:a' }, 1_003, bounds)).toEqual({ ok: true });
    expect(await sessions.get('a2', 1_004, bounds.idleMs)).toBeUndefined();
    expect(await sessions.open({ id: 'b1', owner: 'bob', client: 'token:b' }, 1_005, bounds)).toEqual({ ok: true });
    // The server is full (a1, a3, b1): c has none to give up, and is refused.
    expect(await sessions.open({ id: 'c1', owner: 'carol', client: 'token:c' }, 1_006, bounds)).toEqual({ ok: false });
    expect((await sessions.get('b1', 1_007, bounds.idleMs))?.owner).toBe('bob');
    // 1 s later every session but b1 (used at 1 007) is idle too long.
    expect(await sessions.get('a1', 2_005, bounds.idleMs)).toBeUndefined();
    expect(await sessions.open({ id: 'c1', owner: 'carol', client: 'token:c' }, 2_006, bounds)).toEqual({ ok: true });
    expect((await sessions.get('b1', 2_007, bounds.idleMs))?.id).toBe('b1');
    await sessions.end('b1');
    expect(await sessions.get('b1', 2_008, bounds.idleMs)).toBeUndefined();
    await sessions.close();
  });

  it('merges what requests served at once by two replicas record: every passage text and every search', async () => {
    const url = schemas.fresh();
    const one = createPostgresMcpSessions(await openPostgresState({ url }));
    const two = createPostgresMcpSessions(await openPostgresState({ url }));
    await one.open({ id: 's', owner: 'o', client: 'c' }, 10, bounds);
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => (n % 2 === 0 ? one : two).record('s', { passages: [{ chunkId: 'shared#0', texts: [`text ${n}`], source: n === 3 ? 'read' : 'search' }], searchesUsed: 1 })),
    );
    const stored = await two.get('s', 20, bounds.idleMs);
    expect(stored?.searchesUsed).toBe(10);
    expect(stored?.passages.map((passage) => [passage.chunkId, passage.source, [...passage.texts].sort()])).toEqual([
      ['shared#0', 'read', Array.from({ length: 10 }, (_, n) => `text ${n}`).sort()],
    ]);
    await one.close();
    await two.close();
  });
});
