// `--read-db`: searches and reads served by a PostgreSQL streaming standby while ingest and the
// conversations go to the primary; an ingest becomes visible whole, never half (docs/postgres.md).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresIndex } from '../index/postgres/postgres.ts';
import { createTestSchemas, onServer, testPostgresStandby } from '../testing/postgres-server.ts';
import { runCli } from './main.ts';
import { recordingIO } from './test-cli.ts';
import { spawnServe, type ServeProcess } from './test-serve.ts';

const standby = testPostgresStandby(process.env);
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(standby.url === undefined)(`--read-db on a streaming standby${standby.url === undefined ? ` (skipped: ${standby.absent})` : ''}`, () => {
  const primaryUrl = process.env.ATLAS_TEST_POSTGRES_URL ?? 'postgres://unused';
  const schemas = createTestSchemas(primaryUrl, 'readdb');
  let dir: string;
  let db: string;
  let readDb: string;
  let replica: ServeProcess | undefined;
  let admin: pg.Client;

  /** Writes `count` pages named `<marker>-<n>`, each holding `marker`, and ingests the folder into the primary (one transaction). */
  const ingestPages = async (marker: string, count: number) => {
    for (let n = 1; n <= count; n += 1) await writeFile(path.join(dir, 'docs', `${marker}-${n}.md`), page(`${marker}-${n}`, `The ${marker} setting number ${n} tunes the scheduler.`));
    expect(await runCli(['ingest', 'docs', '--db', db], recordingIO({ cwd: dir }))).toBe(0);
  };
  /** Hits of `query` as the replica serves them (GET /v1/search). */
  const served = async (query: string) => {
    const response = await fetch(`${replica!.url}/v1/search?q=${encodeURIComponent(query)}&k=20`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { hits: Array<{ docId: string }> }).hits.map((hit) => hit.docId);
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'atlas-read-db-'));
    await mkdir(path.join(dir, 'docs'));
    db = schemas.fresh();
    readDb = onServer(db, standby.url!);
    await ingestPages('baseline', 2);
    admin = new pg.Client({ connectionString: standby.url });
    await admin.connect();
    // The standby has the index once it has replayed the first ingest.
    const schema = new URL(db).searchParams.get('schema');
    for (let tries = 0; ; tries += 1) {
      const found = await admin.query<{ docs: string | null }>(`SELECT CASE WHEN to_regclass('${schema}.docs') IS NULL THEN NULL ELSE 1 END AS docs`);
      if (found.rows[0]!.docs !== null && (await admin.query(`SELECT count(*)::int AS n FROM ${schema}.docs`)).rows[0].n === 2) break;
      if (tries > 250) throw new Error('the standby did not replay the first ingest within 5 s');
      await sleep(20);
    }
    replica = await spawnServe(['--db', db, '--read-db', readDb, '--model', 'offline'], {});
  }, 60_000);
  afterAll(async () => {
    await admin?.query('SELECT pg_wal_replay_resume()').catch(() => {});
    await admin?.end();
    if (replica && replica.child.exitCode === null) {
      replica.child.kill('SIGTERM');
      await replica.exited;
    }
    await schemas.dropAll();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves searches from the standby: an ingest on the primary shows there only once replayed, whole', async () => {
    expect((await served('baseline scheduler')).sort()).toEqual(['baseline-1', 'baseline-2']);
    // Replay paused: the primary has the new pages, the standby (and so the replica) not yet.
    await admin.query('SELECT pg_wal_replay_pause()');
    await ingestPages('quokka', 5);
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['search', 'quokka', '--db', db, '--k', '20', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out.join('')) as { hits: unknown[] }).hits).toHaveLength(5);
    expect(await served('quokka')).toEqual([]);
    const cli = recordingIO({ cwd: dir });
    expect(await runCli(['search', 'quokka', '--db', db, '--read-db', readDb, '--k', '20', '--json'], cli)).toBe(0);
    expect((JSON.parse(cli.out.join('')) as { hits: unknown[] }).hits).toEqual([]);
    await admin.query('SELECT pg_wal_replay_resume()');
    const seen: number[] = [];
    for (let tries = 0; seen.at(-1) !== 5 && tries < 250; tries += 1) seen.push((await served('quokka')).length);
    expect(seen.at(-1)).toBe(5);
    expect(seen.filter((count) => count !== 0 && count !== 5)).toEqual([]);
  });

  it('searches on the primary and on the standby see an ingest in progress whole or not at all', async () => {
    const primary = createPostgresIndex({ url: db, readonly: true });
    try {
      const counts = { primary: [] as number[], standby: [] as number[] };
      let done = false;
      const ingest = ingestPages('wombat', 8).finally(() => (done = true));
      while (!done || counts.standby.at(-1) !== 8) {
        counts.primary.push((await primary.search('wombat', { k: 20 })).length);
        counts.standby.push((await served('wombat')).length);
        if (counts.standby.length > 500) break;
      }
      await ingest;
      expect(counts.primary.filter((count) => count !== 0 && count !== 8)).toEqual([]);
      expect(counts.standby.filter((count) => count !== 0 && count !== 8)).toEqual([]);
      expect([counts.primary.at(-1), counts.standby.at(-1)]).toEqual([8, 8]);
    } finally {
      await primary.close();
    }
  });

  it('keeps conversations on the primary: a turn on the replica is stored there and found again', async () => {
    const created = await fetch(`${replica!.url}/v1/conversations`, { method: 'POST', body: '{}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const turn = await fetch(`${replica!.url}/v1/conversations/${id}/messages`, { method: 'POST', body: JSON.stringify({ content: 'Which setting tunes the scheduler?', route: 'classic' }) });
    expect([turn.status, ((await turn.json()) as { turn: number }).turn]).toEqual([200, 1]);
    const client = new pg.Client({ connectionString: primaryUrl });
    await client.connect();
    try {
      const schema = new URL(db).searchParams.get('schema');
      expect((await client.query(`SELECT conversation_id, turn FROM ${schema}.state_turns`)).rows).toEqual([{ conversation_id: id, turn: 1 }]);
    } finally {
      await client.end();
    }
  });

  it('refuses --read-db beside an SQLite --db, naming the fix', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(await runCli(['search', 'quokka', '--read-db', readDb], io)).toBe(2);
    expect(io.err.join('')).toBe(
      `Atlas: --read-db needs --db to be the PostgreSQL primary it replicates, got --db .atlas/index.db. Pass e.g. --db postgres://atlas@primary:5432/docs --read-db postgres://atlas@standby:5432/docs, or leave --read-db out.\n`,
    );
  });
});
