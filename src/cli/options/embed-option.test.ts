import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../../testing/loopback-server.ts';
import { runCli } from '../main.ts';

// The CLI path of docs/vectors.md end to end: the real AI SDK OpenAI-compatible client against a
// loopback server that answers /v1/embeddings in OpenAI's wire format.
let dir: string;
let io: RecordingIO;
let server: LoopbackServer;
const stdout = () => io.out.join('');
const stderr = () => io.err.join('');
const clear = () => {
  io.out.length = 0;
  io.err.length = 0;
};
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;
/** A vector per input: texts naming a lease on one axis, the others on another. */
const vectorOf = (text: string) => (/lease/i.test(text) ? [1, 0, 0] : [0, 1, 0]);
const embedRequests = () => server.requests().map((request) => (request.body as { input: string[] }).input);
const spec = () => `openai-compatible:${server.url}/v1#bge-small`;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-embed-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for the lease of sixty seconds.'));
  await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
  server = await startLoopbackServer((request) => {
    const input = (request.body as { input: string[] }).input;
    return jsonResponse({
      object: 'list',
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: vectorOf(text) })),
      model: 'bge-small',
      usage: { prompt_tokens: input.length * 10, total_tokens: input.length * 10 },
    });
  });
});

afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('atlas ingest --embed', () => {
  it('embeds every chunk after the text ingest, then nothing on a re-ingest of unchanged docs', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    expect(stdout()).toBe(
      'Indexed 2 docs (2 chunks) into .atlas/index.db: 2 added, 0 updated, 0 unchanged, 0 removed.\n' +
        `Embedded 2 chunks with ${spec()} (0 reused by content hash, 1 calls); 2 vectors of 3 dimensions.\n`,
    );
    expect(stderr()).toBe(`atlas: embedded 2/2 chunks with ${spec()}\n`);
    expect(embedRequests()).toEqual([['leases\n\nA worker holds a job for the lease of sixty seconds.', 'retries\n\nFailed jobs are retried with exponential backoff.']]);
    clear();
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    expect(stdout()).toContain(`Embedded 0 chunks with ${spec()} (0 reused by content hash, 0 calls); 2 vectors of 3 dimensions.\n`);
    expect(server.requests()).toHaveLength(1);
  });

  it('--rebuild reuses the old index\'s vectors of the same model: no call for unchanged text', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    await writeFile(path.join(dir, 'docs', 'new.md'), page('new', 'A new page.'));
    clear();
    expect(await runCli(['ingest', 'docs', '--rebuild', '--embed', spec()], io)).toBe(0);
    expect(stdout()).toContain(`Embedded 1 chunks with ${spec()} (2 reused by content hash, 1 calls); 3 vectors of 3 dimensions.\n`);
    expect(embedRequests()).toEqual([expect.any(Array), ['new\n\nA new page.']]);
    clear();
    // Another model: nothing is carried over, everything is embedded with it.
    expect(await runCli(['ingest', 'docs', '--rebuild', '--embed', 'hash:8'], io)).toBe(0);
    expect(stdout()).toContain('Embedded 3 chunks with hash:8 (0 reused by content hash, 1 calls); 3 vectors of 8 dimensions.\n');
  });

  it('refuses another model before writing anything, naming both and the fix', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    await writeFile(path.join(dir, 'docs', 'new.md'), page('new', 'A new page.'));
    clear();
    expect(await runCli(['ingest', 'docs', '--embed', 'hash:8'], io)).toBe(1);
    expect(stderr()).toBe(
      `Atlas: the index at .atlas/index.db holds vectors of ${spec()}, not hash:8. Pass --embed ${spec()} (or set ATLAS_EMBED=${spec()}), or rebuild the index with the new model: atlas ingest <docs-dir> --db .atlas/index.db --rebuild --embed hash:8\n`,
    );
    clear();
    expect(await runCli(['search', 'new page', '--json'], io)).toBe(0);
    expect((JSON.parse(stdout()) as { hits: unknown[] }).hits).toEqual([]);
  });

  it('notes the chunks an ingest without --embed leaves without a vector', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    await writeFile(path.join(dir, 'docs', 'new.md'), page('new', 'A new page.'));
    clear();
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(stderr()).toBe(`atlas: note: 1 of 3 chunks have no vector of ${spec()}; vector and hybrid search miss them until: atlas ingest docs --db .atlas/index.db --embed ${spec()}\n`);
    clear();
    expect(await runCli(['search', 'page', '--embed', spec(), '--json'], io)).toBe(0);
    expect(stderr()).toBe(`atlas: note: 1 of 3 chunks have no vector of ${spec()} yet; vector and hybrid search rank only the others. Embed them: atlas ingest <docs-dir> --embed ${spec()}\n`);
    expect((JSON.parse(stdout()) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId)).toContain('new#0');
  });
});

describe('atlas search --embed / --mode', () => {
  it('searches by vector with the query embedded by the same model (ATLAS_EMBED works as --embed)', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    clear();
    io.env.ATLAS_EMBED = spec();
    expect(await runCli(['search', 'how long is a lease', '--mode', 'vector', '--k', '1', '--json'], io)).toBe(0);
    const result = JSON.parse(stdout()) as { hits: Array<{ chunkId: string; score: number }> };
    expect(result.hits.map((hit) => [hit.chunkId, hit.score])).toEqual([['leases#0', 1]]);
    expect(embedRequests().at(-1)).toEqual(['how long is a lease']);
  });

  it('refuses vector mode without an embedder, naming the recorded model', async () => {
    expect(await runCli(['ingest', 'docs', '--embed', spec()], io)).toBe(0);
    clear();
    expect(await runCli(['search', 'lease', '--mode', 'vector'], io)).toBe(2);
    expect(stderr()).toBe(`Atlas: search mode "vector" needs an embedding model. Pass --embed ${spec()} (or set ATLAS_EMBED), or use --mode bm25.\n`);
  });

  it('notes that an index without vectors is searched by BM25 only', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    clear();
    expect(await runCli(['search', 'lease', '--embed', spec(), '--json'], io)).toBe(0);
    expect(stderr()).toBe(`atlas: note: the index has no vectors yet, so searches rank by BM25 only. Add them: atlas ingest <docs-dir> --embed ${spec()}\n`);
    expect((JSON.parse(stdout()) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId)).toEqual(['leases#0']);
    expect(server.requests()).toEqual([]);
  });

  it('refuses a bad spec before any provider loads', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    clear();
    expect(await runCli(['search', 'lease', '--embed', 'word2vec'], io)).toBe(2);
    expect(stderr()).toBe(
      'Atlas: invalid embedding model "word2vec": it has no provider prefix. Use one of: openai:<model>, ollama:<model>, openai-compatible:<baseURL>#<model>, hash:<dimensions> (deterministic, offline) (e.g. --embed openai:text-embedding-3-small).\n',
    );
  });
});
