import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, runEval, TINY, type RecordingIO } from './test-cli.ts';
import { AtlasError } from '../errors.ts';
import { hangResponse, jsonResponse, serverErrorResponse, startLoopbackServer, type LoopbackServer, type ScriptedResponse } from '../testing/loopback-server.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
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

  it('fails on an access label under a key it does not read; --skip-invalid skips the page instead of indexing it public', async () => {
    await mkdir(path.join(dir, 'docs', 'guide'));
    await writeFile(path.join(dir, 'docs', 'guide', 'plan.md'), '---\nacl: [admins]\n---\n# Plan\n\nThe SECRETPLAN lease rollout.\n');
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(stderr()).toContain('  guide/plan.md:2: acl: front matter key "acl" is not read, so it restricts nothing; access groups go under labels: {acl: [admins]}.');
    expect(await runCli(['ingest', 'docs', '--skip-invalid'], io)).toBe(0);
    expect(stdout()).toContain('Indexed 2 docs');
    io.out.length = 0;
    expect(await runCli(['search', 'SECRETPLAN', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).hits).toEqual([]);
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
    // A question the planner answers directly: its one sentence, cited from the 3.x page (the 2.x
    // page's ORBIT_LEASE_TIMEOUT sentence is about lease seconds too, and the version filter keeps it out).
    expect(await runCli(['ask', 'Which setting sets the lease seconds on 3.x?', '--json'], io)).toBe(0);
    const run = JSON.parse(stdout());
    expect(run.model).toBe('offline');
    expect([run.answer.abstained, run.answer.text]).toEqual([false, 'Set `[worker] lease_seconds` in orbit.toml (default 60). [1]']);
    expect(run.answer.citations.map((citation: { chunkId: string; quote: string }) => [citation.chunkId, citation.quote])).toEqual([
      ['leases#1', 'Set `[worker] lease_seconds` in orbit.toml (default 60).'],
    ]);
    expect(run.trace.steps[0].filter).toEqual({ version: '3.x' });
    expect(stderr()).toContain('using the offline planner (no key, no network)');
    expect(stderr()).toContain('searching: Which setting sets the lease seconds on 3.x? (version 3.x)');
  });

  it('names the page of a search that asks for a query\'s next results, in the progress and the trace, and stops paging a spent ranking', async () => {
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    expect(await runCli(['ask', 'Which setting holds the lease seconds on 3.x?'], io)).toBe(0);
    const trace = stdout().split('\n').filter((line) => line.startsWith('  search '));
    expect(trace).toEqual([
      '  search 1: "Which setting holds the lease seconds on 3.x?" [version 3.x] -> new docs: leases (weak-matches)',
      '  search 2: "Which setting holds the lease seconds on 3.x?" [version 3.x] [page 2] -> new docs: none (no-new-results)',
    ]);
    expect(stderr()).toContain('searching: Which setting holds the lease seconds on 3.x? (version 3.x) (page 2)');
  });

  it('names the missing key and the offline alternative', async () => {
    await runCli(['ingest', 'docs'], io);
    expect(await runCli(['ask', 'lease?', '--model', 'openai:gpt-5-mini'], io)).toBe(1);
    expect(stderr()).toBe(
      'Atlas: OPENAI_API_KEY is not set, needed for model "openai:gpt-5-mini". Set it, or use --model offline (no key needed).\n',
    );
  });
});

describe('run limits and failed runs (issue 9 items 2 and 12)', () => {
  let server: LoopbackServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  /** `atlas ask` against a loopback OpenAI-compatible server replaying `script`. */
  async function askOverLoopback(script: ScriptedResponse[], extra: string[]) {
    server = await startLoopbackServer(script);
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    io.err.length = 0;
    const spec = `openai-compatible:${server.url}/v1#qwen3-8b`;
    return { spec, code: await runCli(['ask', 'How long is the lease?', '--model', spec, '--json', ...extra], io) };
  }

  it('--timeout cuts a server that never answers (one request, no retry), exits 1 and names the timeout', async () => {
    // The server never answers: without the timeout this test would run into vitest's own limit.
    // Half a second, so the request reaches the loopback server first even on a loaded machine
    // (at 0.05 s the call was cut before it was sent once in CI).
    const { spec, code } = await askOverLoopback([hangResponse()], ['--timeout', '0.5']);
    expect(code).toBe(1);
    const run = JSON.parse(stdout());
    expect([run.trace.stopReason, run.trace.errors, run.answer.abstained]).toEqual([
      'timeout',
      ['model call 1 timed out after 0.5 s (per-call timeout, retries included)'],
      true,
    ]);
    expect(server?.requests()).toHaveLength(1);
    expect(stderr().endsWith(
      `Atlas: the run of model "${spec}" failed (stop: timeout): model call 1 timed out after 0.5 s (per-call timeout, retries included). Raise --timeout (or ATLAS_TIMEOUT, in seconds), or check that the model server answers.\n`,
    )).toBe(true);
  });

  it('reads ATLAS_TIMEOUT and ATLAS_DEADLINE when no flag is given; a bad value is a usage error naming it', async () => {
    io.env.ATLAS_TIMEOUT = '30';
    io.env.ATLAS_DEADLINE = '0.05';
    const { code } = await askOverLoopback([hangResponse()], []);
    expect(code).toBe(1);
    const run = JSON.parse(stdout());
    expect([run.trace.stopReason, run.trace.errors]).toEqual(['deadline', ['run deadline of 0.05 s reached at model call 1']]);
    io.env.ATLAS_TIMEOUT = 'soon';
    expect(await runCli(['ask', 'How long is the lease?'], io)).toBe(2);
    expect(stderr().endsWith(
      'Atlas: ATLAS_TIMEOUT must be a number of seconds above 0 and at most 86400, got "soon" (e.g. ATLAS_TIMEOUT=60). Fix it, or unset it for the default.\n',
    )).toBe(true);
    expect(await runCli(['ask', 'How long is the lease?', '--timeout', '0'], io)).toBe(2);
    expect(stderr()).toContain('--timeout must be a number of seconds above 0 and at most 86400, got "0" (e.g. --timeout 60).');
  });

  it('exits 1 when every model call failed (500 after retries), with the cause on stderr and the run on stdout', async () => {
    const { spec, code } = await askOverLoopback([serverErrorResponse(), serverErrorResponse(), serverErrorResponse()], []);
    expect(code).toBe(1);
    expect(server?.requests()).toHaveLength(3);
    const run = JSON.parse(stdout());
    expect(run.trace.stopReason).toBe('error');
    expect(stderr().endsWith(
      `Atlas: the run of model "${spec}" failed (stop: error): model call failed: Failed after 3 attempts. Last error: Internal server error (loopback fault). Check the model spec, its key and its server; --model offline needs neither.\n`,
    )).toBe(true);
  });

  it('exits 1 on an HTML page instead of JSON, and prints the run as text without --json', async () => {
    server = await startLoopbackServer([{ type: 'text', status: 200, headers: { 'content-type': 'text/html' }, body: '<html>Login</html>' }]);
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    expect(await runCli(['ask', 'How long is the lease?', '--model', `openai-compatible:${server.url}/v1#m`], io)).toBe(1);
    expect(stdout()).toContain('stop: error');
    expect(stderr()).toContain('(stop: error): model call failed:');
  });

  it('eval exits 1 when every run failed (nothing measured), naming the first cause', async () => {
    const failing = createScriptedModel([]);
    const error = await runEval(['eval', 'compare', '--data', TINY, '--json'], io, failing).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(AtlasError);
    expect((error as AtlasError).code).toBe('model-call');
    expect((error as AtlasError).message).toMatch(
      /^Atlas: every run of model "scripted" failed \(\d+ runs\), so nothing was measured; first: \S+ \(agentic\): model call failed: scripted model: unexpected call \d+ \(only 0 turns scripted\)\. Check the model spec, its key and its server, or raise --timeout \/ --deadline\.$/,
    );
    expect(JSON.parse(stdout()).rows.length).toBeGreaterThan(0);
  });

  it('eval retrieval and eval decisions exit 1 too when every run failed, after printing the report', async () => {
    for (const argv of [
      ['eval', 'retrieval', '--data', TINY, '--arms', 'agentic', '--json'],
      ['eval', 'decisions', '--data', TINY, '--json'],
    ]) {
      io.out.length = 0;
      const error = await runEval(argv, io, createScriptedModel([])).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect((error as AtlasError).code, argv[1]).toBe('model-call');
      expect((error as AtlasError).message).toMatch(
        /^Atlas: every run of model "scripted" failed \(\d+ (agentic )?runs\), so nothing was measured; first: \S+: model call failed: scripted model: unexpected call \d+ \(only 0 turns scripted\)\. Check the model spec, its key and its server, or raise --timeout \/ --deadline\.$/,
      );
      const report = JSON.parse(stdout());
      expect(report.failedRuns.count).toBe(report.failedRuns.of);
    }
  });
});

describe('atlas eval --every', () => {
  it('runs every n-th case of each eval file, and the report names the sample', async () => {
    expect(await runCli(['eval', 'retrieval', '--data', TINY, '--arms', 'classic', '--every', '3', '--json'], io)).toBe(0);
    const report = JSON.parse(stdout());
    expect(report.dataset).toBe('tiny (every 3rd case)');
    expect(report.cases.map((item: { id: string }) => item.id)).toEqual(['exact-1', 'none-1']);
    io.err.length = 0;
    expect(await runCli(['eval', 'retrieval', '--data', TINY, '--every', '0'], io)).toBe(2);
    expect(stderr()).toContain('--every must be a positive integer, got "0" (e.g. --every 5).');
  });
});

describe('empty options and unknown release lines (issue 9 item 11)', () => {
  it('rejects an empty --version, --model, --db or --data with exit 2', async () => {
    await runCli(['ingest', 'docs'], io);
    for (const argv of [
      ['search', 'lease', '--version', ''],
      ['ask', 'lease?', '--version', ''],
      ['ask', 'lease?', '--model', ''],
      ['search', 'lease', '--db', ''],
      ['eval', 'compare', '--data', ''],
    ]) {
      io.err.length = 0;
      expect(await runCli(argv, io)).toBe(2);
      const name = argv.at(-2) ?? '';
      expect(stderr()).toContain(`${name} must not be empty (e.g. ${name} `);
    }
  });

  it('reports a release line the index does not know on stderr and in the JSON notes, and still searches', async () => {
    await runCli(['ingest', 'docs'], io);
    io.out.length = 0;
    io.err.length = 0;
    expect(await runCli(['search', 'lease', '--version', '3', '--json'], io)).toBe(0);
    const note = '--version "3" is not a release line of this index (known: 2.x, 3.x); only pages for all versions match.';
    expect(JSON.parse(stdout())).toEqual({ query: 'lease', hits: [], notes: [note] });
    expect(stderr()).toBe(`atlas: note: ${note}\n`);
    io.out.length = 0;
    expect(await runCli(['search', 'lease', '--version', '3.x', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).notes).toEqual([]);
    io.out.length = 0;
    expect(await runCli(['ask', 'Which setting holds the lease?', '--version', 'v3', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).notes).toEqual(['--version "v3" is not a release line of this index (known: 2.x, 3.x); only pages for all versions match.']);
  });
});
