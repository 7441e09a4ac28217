import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../eval/test-cli.ts';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { runCli } from './main.ts';

const server = testPostgres(process.env);
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

  it('refuses --embed, --rerank and --mode, which need an SQLite index, naming the fix and writing nothing', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db, '--embed', 'hash:64'], io)).toBe(2);
    expect(io.err.join('')).toBe(
      `Atlas: --embed needs an SQLite index: the PostgreSQL backend (${shown}) has no vectors yet. Ingest without --embed, or use an SQLite --db for hybrid search (docs/vectors.md).\n`,
    );
    clear();
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['search', 'lease', '--db', db, '--mode', 'hybrid', '--rerank', 'cohere:rerank-v3.5'], io)).toBe(2);
    expect(io.err.join('')).toBe(
      'Atlas: --rerank, --mode (or ATLAS_EMBED, ATLAS_RERANK, ATLAS_SEARCH_MODE) need an SQLite index: the PostgreSQL backend has no vectors yet. Leave them out to search by BM25, or use an SQLite --db (docs/vectors.md).\n',
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
      `Atlas: empty has no pages (.md or .mdx files); ingesting it would remove all 2 docs from the index at ${shown}. Nothing was changed. Check the folder, or pass --allow-empty to empty the index.\n`,
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

  it('keeps conversations in a state file named after the server, database and schema', async () => {
    expect(await runCli(['ingest', 'docs', '--db', db], io)).toBe(0);
    clear();
    expect(await runCli(['ask', 'How long is the lease?', '--db', db, '--model', 'offline', '--conversation', 'new'], io)).toBe(0);
    const target = new URL(db);
    const file = path.join(dir, '.atlas', `${target.hostname}-${target.port}-${target.pathname.slice(1)}-${target.searchParams.get('schema')}.state.db`);
    expect(existsSync(file)).toBe(true);
  });

  it('names the missing index and the command that builds it', async () => {
    expect(await runCli(['search', 'lease', '--db', db], io)).toBe(1);
    const schema = new URL(db).searchParams.get('schema');
    expect(io.err.join('')).toBe(`Atlas: no index in schema "${schema}" of ${shown}. Build it first: atlas ingest <docs-dir> --db ${shown}\n`);
  });
});
