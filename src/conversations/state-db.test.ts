import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createTestDoc } from '../index/test-docs.ts';
import { openStateDatabase, STATE_SCHEMA_VERSION, stateDbPath } from './state-db.ts';

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-state-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the state database', () => {
  it('lives beside the index', () => {
    expect(stateDbPath('/data/.atlas/index.db')).toBe('/data/.atlas/index.db.state.db');
    expect(stateDbPath(':memory:')).toBe(':memory:');
  });

  it('creates its tables with meta.schema_version on first open, and reopens the same file', () => {
    const file = path.join(dir, 'nested', 'index.db.state.db');
    const db = openStateDatabase(file);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: String(STATE_SCHEMA_VERSION) });
    db.close();
    const again = openStateDatabase(file);
    expect((again.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name)).toEqual([
      'conversations',
      'meta',
      'queries',
      'seen_passages',
      'turns',
    ]);
    again.close();
  });

  it('refuses a file written by a newer Atlas, naming the versions and the fix, and leaves it unchanged', () => {
    const file = path.join(dir, 'state.db');
    openStateDatabase(file).close();
    const raw = new Database(file);
    raw.prepare("UPDATE meta SET value = '7' WHERE key = 'schema_version'").run();
    raw.close();
    expect(() => openStateDatabase(file)).toThrow(
      `Atlas: the state database ${file} has schema version 7; this Atlas reads version 2. It was written by a newer Atlas: upgrade Atlas, or move the file away to start with no conversations.`,
    );
    const check = new Database(file);
    expect(check.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '7' });
    check.close();
  });

  it('upgrades a version 1 file in place: its conversations keep their turns and have no owner (found by their groups alone)', () => {
    const file = path.join(dir, 'v1.db');
    const raw = new Database(file);
    raw.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE conversations (id TEXT PRIMARY KEY, created_at TEXT NOT NULL, principal_groups TEXT NOT NULL, filter TEXT NOT NULL);
      INSERT INTO meta VALUES ('schema_version', '1');
      INSERT INTO conversations VALUES ('old', '2026-11-30T10:00:00.000Z', '["staff"]', '{}');`);
    raw.close();
    const db = openStateDatabase(file);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get()).toEqual({ value: '2' });
    expect(db.prepare('SELECT id, principal_groups, owner FROM conversations').all()).toEqual([{ id: 'old', principal_groups: '["staff"]', owner: '' }]);
    db.close();
  });

  it('issue 38: refuses an index given as the state database (--state pointed at it) and leaves it byte for byte as it was', async () => {
    const file = path.join(dir, 'index.db');
    const index = createSqliteIndex({ path: file });
    await index.ingest([createTestDoc({ docId: 'leases', sections: ['A worker holds a job for the lease.'] })]);
    await index.close();
    const other = path.join(dir, 'other.db');
    const raw = new Database(other);
    raw.exec('CREATE TABLE notes (text TEXT)');
    raw.close();
    for (const [target, message] of [
      [file, `Atlas: ${file} is an Atlas index, not a state database. Move it away, or pass another state path, and Atlas starts a new one.`],
      [other, `Atlas: ${other} is an SQLite file but not an Atlas state database (no meta.schema_version). Move it away, or pass another state path, and Atlas starts a new one.`],
    ] as const) {
      const before = hash(target);
      expect(() => openStateDatabase(target)).toThrow(message);
      expect([hash(target), existsSync(`${target}-wal`), existsSync(`${target}-shm`)]).toEqual([before, false, false]);
    }
  });

  it('refuses an SQLite file that is not a state database, and a file that is not SQLite', async () => {
    const other = path.join(dir, 'other.db');
    const raw = new Database(other);
    raw.exec('CREATE TABLE notes (text TEXT)');
    raw.close();
    expect(() => openStateDatabase(other)).toThrow(
      `Atlas: ${other} is an SQLite file but not an Atlas state database (no meta.schema_version). Move it away, or pass another state path, and Atlas starts a new one.`,
    );
    const text = path.join(dir, 'text.db');
    await writeFile(text, 'this is not a database, just some text that is long enough to have a header'.repeat(10));
    expect(() => openStateDatabase(text)).toThrow(`Atlas: ${text} is not an SQLite database (file is not a database). Move it away, or pass another state path.`);
  });
});
