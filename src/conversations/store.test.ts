import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { openPostgresState, POSTGRES_STATE_TABLES } from './postgres-state.ts';
import { createPostgresConversationStore } from './postgres-store.ts';
import { openConversationStore } from './sqlite-store.ts';
import { describeConversationStore } from './store-suite.ts';

const T0 = Date.parse('2026-05-06T07:08:09.000Z');
const counter = () => {
  let next = 0;
  return () => `c-${++next}`;
};

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describeConversationStore('SQLite', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'atlas-store-'));
  dirs.push(dir);
  const file = path.join(dir, 'index.db.state.db');
  const open = () => openConversationStore({ path: file, randomId: counter(), now: () => T0 });
  return { store: open(), reopen: async () => open() };
});

const server = testPostgres(process.env);
describe.skipIf(server.url === undefined)(`PostgreSQL${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'state');
  afterAll(() => schemas.dropAll());
  describeConversationStore('PostgreSQL', async () => {
    const url = schemas.fresh();
    const open = async () => createPostgresConversationStore(await openPostgresState({ url }), { randomId: counter(), now: () => T0 });
    return { store: await open(), reopen: open };
  });

  it('refuses state tables of another schema version, naming both versions and the fix, and changes nothing', async () => {
    const url = schemas.fresh();
    await (await openPostgresState({ url })).close();
    const schema = new URL(url).searchParams.get('schema');
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      await client.query(`UPDATE ${schema}.state_meta SET value = '7' WHERE key = 'schema_version'`);
      await expect(openPostgresState({ url })).rejects.toThrow(
        `Atlas: the conversation state tables in schema "${schema}" of ${url} have schema version 7; this Atlas reads version 1. They were written by a newer Atlas: upgrade Atlas on every replica.`,
      );
      await client.query(`UPDATE ${schema}.state_meta SET value = '0' WHERE key = 'schema_version'`);
      await expect(openPostgresState({ url })).rejects.toThrow(`have schema version 0; this Atlas reads version 1. Drop them to start with no conversations (DROP TABLE ${POSTGRES_STATE_TABLES.join(', ')}), or serve with --state PATH to keep conversations in an SQLite file instead.`);
      expect((await client.query(`SELECT value FROM ${schema}.state_meta`)).rows).toEqual([{ value: '0' }]);
    } finally {
      await client.end();
    }
  });
});
