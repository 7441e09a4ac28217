import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe } from 'vitest';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { openPostgresState } from './postgres-state.ts';
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
});
