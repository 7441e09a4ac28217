import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from './test-cli.ts';
import { startPgliteServer, type PgliteServer } from '../testing/pglite-server.ts';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { runCli } from './main.ts';

const server = testPostgres(process.env);

/** The major version of the server at `url` (the pgvector package is named after it). */
async function serverMajor(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Math.floor(Number((await client.query<{ server_version_num: string }>('SHOW server_version_num')).rows[0]!.server_version_num) / 10000);
  } finally {
    await client.end();
  }
}
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;

describe.skipIf(server.url === undefined)(`atlas --db postgres://...${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'cli');
  afterAll(() => schemas.dropAll());
  let dir: string;
  let io: RecordingIO;
  let db: string;
  let shown: string;
  const stdout = () => io.out.join('');
  const clear = () => {
    io.out.length = 0;
    io.err.length = 0;
  };

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'atlas-pg-cli-'));
    io = recordingIO({ cwd: dir });
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for the lease of sixty seconds.'));
    await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
    // The test server trusts every connection, so the password is only there to be hidden.
    const url = new URL(schemas.fresh());
    url.password = 'hunter2';
    db = url.href;
    url.password = '***';
    shown = url.href.replace('%2A%2A%2A', '***');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests, re-ingests incrementally and searches, never printing the password', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    expect(stdout()).toBe(`Indexed 2 docs (2 chunks) into ${shown}: 2 added, 0 updated, 0 unchanged, 0 removed.\n`);
    clear();
    await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with linear backoff.'));
    expect(await runCli(['ingest', 'docs', '--db', db, '--json'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ db: shown, docs: 2, added: [], updated: ['retries'], unchanged: ['leases'], removed: [], chunks: 2 });
    clear();
    expect(await runCli(['search', 'linear backoff', '--db', db, '--json'], io)).toBe(0);
    const result = JSON.parse(stdout()) as { hits: Array<{ chunkId: string; snippet: string }> };
    expect(result.hits.map((hit) => [hit.chunkId, hit.snippet])).toEqual([['retries#0', 'Failed jobs are retried with linear backoff.']]);
    expect(io.out.join('') + io.err.join('')).not.toContain('hunter2');
  });

  it('keeps the text index when --embed finds no pgvector on the server, naming the server and the fix', async () => {
    const major = await serverMajor(server.url!);
    expect(await runCli(['ingest', 'docs', '--db', db, '--embed', 'hash:64'], io)).toBe(1);
    expect(io.err.join('')).toBe(
      `Atlas: the PostgreSQL server of ${shown} has no pgvector extension, which vectors (--embed) need. Install it on the server (Debian/Ubuntu: apt install postgresql-${major}-pgvector) and run CREATE EXTENSION vector; as a superuser in database "${new URL(db).pathname.slice(1)}", or keep vectors in an SQLite index (--db .atlas/index.db).\n`,
    );
    clear();
    // The text ingest committed first: BM25 search works, and an explicit vector mode says the index has none.
    expect(await runCli(['search', 'lease', '--db', db, '--json'], io)).toBe(0);
    expect((JSON.parse(stdout()) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId)).toEqual(['leases#0']);
    clear();
    expect(await runCli(['search', 'lease', '--db', db, '--mode', 'vector', '--embed', 'hash:64'], io)).toBe(2);
    expect(io.err.join('')).toBe(
      'atlas: note: the index has no vectors yet, so searches rank by BM25 only. Add them: atlas ingest <docs-dir> --embed hash:64\nAtlas: the index has no vectors, so search mode "vector" has nothing to search. Use --mode bm25, or add vectors first: atlas ingest <docs-dir> --embed hash:64\n',
    );
    expect(io.out.join('') + io.err.join('')).not.toContain('hunter2');
  });

  it('rebuilds in one transaction and refuses to empty the index from an empty folder', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['ingest', 'docs', '--db', db, '--rebuild'], io)).toBe(0);
    expect(stdout()).toBe(`Indexed 2 docs (2 chunks) into ${shown} (rebuilt from scratch): 2 added, 0 updated, 0 unchanged, 0 removed.\n`);
    clear();
    await mkdir(path.join(dir, 'empty'));
    expect(await runCli(['ingest', 'empty', '--db', db], io)).toBe(1);
    expect(io.err.join('')).toBe(
      `Atlas: empty has no page Atlas reads: the folder is empty; ingesting it would remove all 2 docs from the index at ${shown}. Nothing was changed. Check the folder, or pass --allow-empty to empty the index.\n`,
    );
  });

  it('notes a --version that is not a release line of the index', async () => {
    await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for the lease of sixty seconds.').replace('applies_to: all', 'applies_to: "3.x"'));
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['search', 'lease', '--db', db, '--version', '9.x', '--json'], io)).toBe(0);
    expect((JSON.parse(stdout()) as { notes: string[] }).notes).toEqual(['--version "9.x" is not a release line of this index (known: 3.x); only pages for all versions match.']);
  });

  it('answers with the offline model from a PostgreSQL index', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['ask', 'How long is the lease?', '--db', db, '--model', 'offline', '--json'], io)).toBe(0);
    const run = JSON.parse(stdout()) as { answer: { abstained: boolean; citations: Array<{ docId: string }> } };
    expect(run.answer.abstained).toBe(false);
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['leases']);
  });

  it('keeps conversations in the state tables of the database, or in the SQLite file of --state', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['ask', 'How long is the lease?', '--db', db, '--model', 'offline', '--conversation', 'new'], io)).toBe(0);
    const id = /conversation (\S+) started/.exec(io.err.join(''))![1]!;
    expect(existsSync(path.join(dir, '.atlas'))).toBe(false);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const schema = new URL(db).searchParams.get('schema');
      const turns = await client.query(`SELECT conversation_id, turn, question FROM ${schema}.state_turns`);
      expect(turns.rows).toEqual([{ conversation_id: id, turn: 1, question: 'How long is the lease?' }]);
    } finally {
      await client.end();
    }
    clear();
    expect(await runCli(['ask', 'and how long is that?', '--db', db, '--model', 'offline', '--conversation', id, '--state', 'state.db'], io)).toBe(2);
    expect(io.err.join('')).toContain(`Atlas: no conversation "${id}" in ${path.join(dir, 'state.db')} for these access groups.`);
    clear();
    expect(await runCli(['ask', 'and how long is that?', '--db', db, '--model', 'offline', '--conversation', 'nope'], io)).toBe(2);
    expect(io.err.join('')).toContain(`Atlas: no conversation "nope" in the state tables of ${shown} for these access groups.`);
  });

  it('names the missing index and the command that builds it', async () => {
    expect(await runCli(['search', 'lease', '--db', db], io)).toBe(1);
    const schema = new URL(db).searchParams.get('schema');
    expect(io.err.join('')).toBe(`Atlas: no index in schema "${schema}" of ${shown}. Build it first: atlas ingest <docs-dir> --db ${shown}\n`);
  });
});

describe('atlas --db postgres://... with pgvector (PGlite on a loopback port)', () => {
  let pglite: PgliteServer;
  let dir: string;
  let io: RecordingIO;
  beforeAll(async () => {
    pglite = await startPgliteServer();
    dir = await mkdtemp(path.join(tmpdir(), 'atlas-pglite-cli-'));
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for the lease of sixty seconds.'));
    await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
  });
  afterAll(async () => {
    await pglite.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('ingests with --embed (only changed chunks embedded again) and searches by vector and hybrid', async () => {
    io = recordingIO({ cwd: dir });
    const db = `${pglite.url}?schema=public`;
    expect(await runCli(['ingest', 'docs', '--db', db, '--embed', 'hash:16'], io)).toBe(0);
    expect(io.out.join('')).toBe(
      `Indexed 2 docs (2 chunks) into ${db}: 2 added, 0 updated, 0 unchanged, 0 removed.\nEmbedded 2 chunks with hash:16 (0 reused by content hash, 1 calls); 2 vectors of 16 dimensions.\n`,
    );
    expect(io.err.join('')).toBe('atlas: embedded 2/2 chunks with hash:16\n');
    io = recordingIO({ cwd: dir });
    await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with linear backoff.'));
    expect(await runCli(['ingest', 'docs', '--db', db, '--embed', 'hash:16', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out.join(''))).toMatchObject({ updated: ['retries'], unchanged: ['leases'], vectors: { model: 'hash:16', dimensions: 16, embedded: 1, reused: 0, calls: 1, vectors: 2 } });
    io = recordingIO({ cwd: dir });
    expect(await runCli(['search', 'linear backoff', '--db', db, '--mode', 'vector', '--embed', 'hash:16', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out.join('')) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId)).toEqual(['retries#0', 'leases#0']);
    io = recordingIO({ cwd: dir });
    expect(await runCli(['search', 'lease', '--db', db, '--embed', 'hash:16', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out.join('')) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId)).toEqual(['leases#0', 'retries#0']);
    // Another model is refused before the text ingest writes anything; an ingest without --embed notes the chunks it leaves without a vector.
    io = recordingIO({ cwd: dir });
    await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried after a fixed delay.'));
    expect(await runCli(['ingest', 'docs', '--db', db, '--embed', 'hash:8'], io)).toBe(1);
    expect(io.err.join('')).toBe(
      `Atlas: the index at ${db} holds vectors of hash:16, not hash:8. Pass --embed hash:16 (or set ATLAS_EMBED=hash:16), or rebuild the index with the new model: atlas ingest <docs-dir> --db ${db} --rebuild --embed hash:8\n`,
    );
    io = recordingIO({ cwd: dir });
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    expect(io.out.join('')).toBe(`Indexed 2 docs (2 chunks) into ${db}: 0 added, 1 updated, 1 unchanged, 0 removed.\n`);
    expect(io.err.join('')).toBe(`atlas: note: 1 of 2 chunks have no vector of hash:16; vector and hybrid search miss them until: atlas ingest docs --db ${db} --embed hash:16\n`);
    io = recordingIO({ cwd: dir });
    expect(await runCli(['search', 'lease', '--db', db, '--embed', 'hash:8'], io)).toBe(1);
    expect(io.err.join('')).toBe(
      `Atlas: the index at ${db} holds vectors of hash:16, not hash:8. Pass --embed hash:16 (or set ATLAS_EMBED=hash:16), or rebuild the index with the new model: atlas ingest <docs-dir> --db ${db} --rebuild --embed hash:8\n`,
    );
  });
});
