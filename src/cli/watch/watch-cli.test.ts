import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../main.ts';
import { recordingIO } from '../test-cli.ts';

// The real command, as a user runs it: `atlas ingest docs --watch` in its own process, chokidar on real files, stopped with SIGINT.
const bin = path.join(import.meta.dirname, '..', '..', '..', 'bin', 'atlas.js');
const BOUND_MS = 2000;
let dir: string;
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-watch-cli-'));
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for a lease of sixty seconds.'));
  await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function search(query: string): Promise<string[]> {
  const io = recordingIO({ cwd: dir });
  expect(await runCli(['search', query, '--db', 'index.db', '--json'], io)).toBe(0);
  return (JSON.parse(io.out.join('')) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId);
}

/** Milliseconds until `query` finds `expected` (polling every 25 ms), or Infinity after 5 s. */
async function msUntil(query: string, expected: string[]): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < 5000) {
    if (JSON.stringify(await search(query)) === JSON.stringify(expected)) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return Number.POSITIVE_INFINITY;
}

describe('atlas ingest --watch (spawned)', () => {
  it(`shows an edit, an addition and a removal in search within ${BOUND_MS} ms, and stops cleanly on SIGINT`, async () => {
    const child = spawn(process.execPath, [bin, 'ingest', 'docs', '--watch', '--db', 'index.db'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    let stderr = '';
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (text: string) => {
        stderr += text;
        if (stderr.includes('atlas: watching docs for changes')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`atlas ingest --watch exited ${code}:\n${stderr}`)));
    });
    expect(await search('sixty')).toEqual(['leases#0']);

    await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for a lease of ninety seconds.'));
    expect(await msUntil('ninety', ['leases#0'])).toBeLessThan(BOUND_MS);
    expect(await search('sixty')).toEqual([]);

    await writeFile(path.join(dir, 'docs', 'queues.md'), page('queues', 'Queues run jobs in order.'));
    expect(await msUntil('queues order', ['queues#0'])).toBeLessThan(BOUND_MS);

    await unlink(path.join(dir, 'docs', 'retries.md'));
    expect(await msUntil('exponential backoff', [])).toBeLessThan(BOUND_MS);

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain('atlas ingest: SIGINT: stopping\natlas ingest: stopped watching\n');
    expect(stdout.split('\n')[0]).toBe('Indexed 2 docs (2 chunks) into index.db: 2 added, 0 updated, 0 unchanged, 0 removed.');
    expect(stdout).toMatch(/into index\.db: 0 added, 0 updated, 2 unchanged, 1 removed \(0 pages parsed, \d+ ms\)\.\n$/);
  }, 30_000);
});
