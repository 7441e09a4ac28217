import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../eval/test-cli.ts';
import { runCli } from './main.ts';

let dir: string;
let io: RecordingIO;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-cli-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  await writeFile(
    path.join(dir, 'docs', 'leases.md'),
    '---\nid: leases\napplies_to: "3.x"\n---\n# Leases\n\nA worker holds a job for the lease.\n\n## Setting\n\nSet `[worker] lease_seconds` in orbit.toml (default 60).\n',
  );
  await writeFile(
    path.join(dir, 'docs', 'env.md'),
    '---\nid: env\napplies_to: "2.x"\n---\n# Environment\n\n## Lease\n\nORBIT_LEASE_TIMEOUT sets the lease in seconds.\n',
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stdout = () => io.out.join('');
const stderr = () => io.err.join('');

describe('atlas ingest', () => {
  it('indexes a folder, then reports nothing changed on a second run', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 2 docs (3 chunks) into .atlas/index.db: 2 added, 0 updated, 0 unchanged, 0 removed.\n');
    io.out.length = 0;
    expect(await runCli(['ingest', 'docs', '--json'], io)).toBe(0);
    const report = JSON.parse(stdout());
    expect([report.added, report.unchanged, report.chunks]).toEqual([[], ['env', 'leases'], 3]);
  });

  it('fails with every problem and writes nothing, unless --skip-invalid', async () => {
    await writeFile(path.join(dir, 'docs', 'bad.md'), '---\napplies_to: 3\n---\n# Bad\n\nText.\n');
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(stderr()).toContain('bad.md:2: applies_to:');
    expect(stderr()).toContain('nothing was written to the index');
    expect(await runCli(['search', 'lease'], io)).toBe(1);
    expect(await runCli(['ingest', 'docs', '--skip-invalid'], io)).toBe(0);
    expect(stdout()).toContain('Indexed 2 docs');
  });

  it('exits 2 with the fix when the folder does not exist', async () => {
    expect(await runCli(['ingest', 'nope'], io)).toBe(2);
    expect(stderr()).toBe(`Atlas: docs folder not found: nope. Pass a folder of .md files, e.g. atlas ingest datasets/orbit.\n`);
  });
});

describe('atlas search', () => {
  it('says how to build the index when there is none', async () => {
    expect(await runCli(['search', 'lease'], io)).toBe(1);
    expect(stderr()).toBe(
      `Atlas: no index at ${path.join(dir, '.atlas/index.db')}. Build it first: atlas ingest <docs-dir> (e.g. atlas ingest datasets/orbit).\n`,
    );
  });

  it('prints one JSON object, filtered by version before the top-k cut', async () => {
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    expect(await runCli(['search', 'lease', '--version', '2.x', '--k', '5', '--json'], io)).toBe(0);
    const result = JSON.parse(stdout());
    expect(result.hits.map((hit: { chunkId: string }) => hit.chunkId)).toEqual(['env#0']);
  });

  it('rejects a bad --k with exit code 2', async () => {
    expect(await runCli(['search', 'lease', '--k', '0'], io)).toBe(2);
    expect(stderr()).toContain('--k must be a positive integer, got "0" (e.g. --k 5).');
  });
});

describe('atlas ask', () => {
  it('answers offline with verified citations, announces the offline model and streams progress', async () => {
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    expect(await runCli(['ask', 'Which setting holds the lease seconds on 3.x?', '--json'], io)).toBe(0);
    const run = JSON.parse(stdout());
    expect(run.model).toBe('offline');
    expect(run.answer.abstained).toBe(false);
    expect([...new Set(run.answer.citations.map((citation: { docId: string }) => citation.docId))]).toEqual(['leases']);
    expect(run.trace.steps[0].filter).toEqual({ version: '3.x' });
    expect(stderr()).toContain('using the offline planner (no key, no network)');
    expect(stderr()).toContain('searching: Which setting holds the lease seconds on 3.x? (version 3.x)');
  });

  it('names the missing key and the offline alternative', async () => {
    await runCli(['ingest', 'docs'], io);
    expect(await runCli(['ask', 'lease?', '--model', 'openai:gpt-5-mini'], io)).toBe(1);
    expect(stderr()).toBe(
      'Atlas: OPENAI_API_KEY is not set, needed for model "openai:gpt-5-mini". Set it, or use --model offline (no key needed).\n',
    );
  });
});
