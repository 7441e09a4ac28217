import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIO } from '../test-cli.ts';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { createGatedModel, parseSse } from '../../server/test-server.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { ORBIT_DOCS } from '../../testing/orbit-index.ts';
import { Command } from 'commander';
import { runCli } from '../main.ts';
import { registerServeCommand } from './serve-command.ts';
import { spawnServe, type ServeProcess } from '../test-serve.ts';

const TOKEN = 'serve-test-token-0123456789';
let dir: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-serve-'));
  db = path.join(dir, 'index.db');
  expect(await runCli(['ingest', ORBIT_DOCS, '--db', db], recordingIO({ cwd: dir }))).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('atlas serve: usage errors before listening', () => {
  it.each([
    [['--port', '70000'], {}, 'error: option \'--port <n>\' argument \'70000\' is invalid. --port must be a port number from 0 to 65535, got "70000" (e.g. --port 8787, or --port 0 for a free one).'],
    [['--cors', 'https://docs.example.com/page'], {}, 'argument \'https://docs.example.com/page\' is invalid. --cors must be an origin (scheme, host and port, no path), got "https://docs.example.com/page" (e.g. --cors https://docs.example.com).'],
    [['--route', 'fast'], {}, 'Atlas: --route must be "classic", "agentic" or "auto", got "fast".'],
    [['--auth', 'missing.yaml'], {}, 'Atlas: cannot read the auth file "missing.yaml": no such file (ENOENT). Pass a YAML file of tokens, e.g. atlas serve --auth auth.yaml (format in docs/server.md).'],
    [['--trust-proxy', '127.0.0.1,10.0.0.0/40'], {}, 'Atlas: --trust-proxy "10.0.0.0/40" is not an IP address or CIDR range; pass e.g. --trust-proxy 10.0.0.0/8, --trust-proxy 127.0.0.1 or --trust-proxy fd00::/8.'],
    [['--body-timeout', '0'], {}, 'argument \'0\' is invalid. --body-timeout must be a number of seconds above 0 and at most'],
    [[], { ATLAS_TOKEN: 'short' }, 'Atlas: ATLAS_TOKEN must be at least 16 characters long; make one with openssl rand -hex 24. Or unset it to serve without auth (loopback only).'],
  ])('%j (env %j) exits 2: %s', async (args, env, message) => {
    const io = { ...recordingIO({ cwd: dir }), env };
    expect(await runCli(['serve', '--db', db, ...args], io)).toBe(2);
    expect(io.err.join('')).toContain(message);
  });

  it('an invalid auth file names the file, the field and the fix', async () => {
    await writeFile(path.join(dir, 'auth.yaml'), 'tokens:\n  - name: ci\n    token: tiny\n');
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['serve', '--db', db, '--auth', 'auth.yaml'], io)).toBe(2);
    expect(io.err.join('')).toBe('Atlas: invalid auth file auth.yaml:\n  auth.yaml: tokens[0].token: must be at least 16 characters long; make one with openssl rand -hex 24\nSee docs/server.md for the format.\n');
  });

  it('a port in use is a usage error with the fix', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['serve', '--db', db, '--port', String(port)], io)).toBe(2);
    expect(io.err.join('')).toContain(`Atlas: cannot listen on 127.0.0.1:${port}: port ${port} is in use. Pass another --port (0 picks a free one) or --host.\n`);
    await new Promise((resolve) => taken.close(resolve));
  });
});

describe('atlas serve in process (stop injected)', () => {
  it('listens with the server filter and limits of its flags, then closes the server and the index', async () => {
    const io = { ...recordingIO({ cwd: dir }), env: { ATLAS_GROUPS: 'admins' } };
    let seen: { health: unknown; search: { hits: Array<{ appliesTo: string }>; notes: string[] } } | undefined;
    let url = '';
    const program = new Command('atlas').exitOverride();
    registerServeCommand(program, io, {
      stopRequested: async () => {
        url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(io.err.join(''))![1]!;
        const health = await (await fetch(`${url}/healthz`)).json();
        const search = await (await fetch(`${url}/v1/search?q=lease&k=8&version=2.x`)).json();
        seen = { health, search };
        return 'test stop';
      },
    });
    await program.parseAsync(['serve', '--port', '0', '--db', db, '--version', '3.x', '--model', 'offline'], { from: 'user' });
    expect(seen!.health).toMatchObject({ ok: true, docs: 46, chunks: 359 });
    expect(new Set(seen!.search.hits.map((hit) => hit.appliesTo))).toEqual(new Set(['all']));
    expect(seen!.search.notes).toEqual(['version "2.x" is outside the server\'s release line "3.x"; only pages for all versions match.']);
    expect(io.err.join('')).toBe(
      `atlas: note: ATLAS_GROUPS is ignored by serve: the groups of a request come from its token (map tokens to groups with --auth FILE).\natlas serve: no auth, model offline\nlistening on ${url}\natlas serve: test stop: stopping\natlas serve: stopped\n`,
    );
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});

describe('atlas serve stopping with a stream in flight', () => {
  it('waits the grace, drops the connection (the run\'s model call is aborted), then closes', async () => {
    const io = recordingIO({ cwd: dir });
    const model = createGatedModel();
    let reading: Promise<string> | undefined;
    const program = new Command('atlas').exitOverride();
    registerServeCommand(program, io, {
      resolveModel: () => ({ model, spec: 'gated', price: null }),
      shutdownGraceMs: 50,
      stopRequested: async () => {
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(io.err.join(''))![1]!;
        const response = await fetch(`${url}/v1/ask/stream`, { method: 'POST', body: JSON.stringify({ question: 'What does ORB-1202 mean?' }) });
        reading = response.text().catch((error: Error) => `stream cut: ${error.message}`);
        await model.started(1);
        return 'test stop';
      },
    });
    await program.parseAsync(['serve', '--port', '0', '--db', db], { from: 'user' });
    expect(model.signals[0]!.aborted).toBe(true);
    expect(await reading).toMatch(/^stream cut: /);
    // The dropped stream is an info line, never a failure with a stack.
    expect(io.err.join('')).toMatch(
      /listening on http:\/\/127\.0\.0\.1:\d+\natlas serve: test stop: stopping\natlas serve: info: POST \/v1\/ask\/stream: the connection closed before the answer was complete \(the client went away, or the server stopped\)\.\natlas serve: stopped\n$/,
    );
  });
});

describe('atlas serve --port 0: the real process on an ingested Orbit index', () => {
  let server: ServeProcess;
  let url = '';

  beforeAll(async () => {
    server = await spawnServe(['--db', db, '--model', 'offline'], { ATLAS_TOKEN: TOKEN });
    url = server.url;
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  const auth = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

  it('health needs no token', async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, docs: 46, chunks: 359 });
  });

  it('/v1 without the token is a 401', async () => {
    const response = await fetch(`${url}/v1/ask`, { method: 'POST', body: JSON.stringify({ question: 'What does ORB-1202 mean?' }) });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('unauthorized');
  });

  // A question the offline planner answers directly, with one sentence of the client API page.
  const question = 'Which error is raised when a job\'s arguments are larger than the payload limit?';
  const quote = 'Arguments larger than the payload limit raise `orbit.errors.PayloadTooLarge` (`ORB-1202`).';
  const answered = (run: { answer: { abstained: boolean; text: string; citations: Array<{ chunkId: string; quote: string }> } }) => [
    run.answer.abstained,
    run.answer.text,
    run.answer.citations.map((citation) => [citation.chunkId, citation.quote]),
  ];
  const expected = [false, 'Arguments larger than the payload limit raise `orbit.errors.PayloadTooLarge` (`ORB-1202`). [1]', [['api-client#3', quote]]];

  it('ask answers the run with verified citations', async () => {
    const response = await fetch(`${url}/v1/ask`, { method: 'POST', headers: auth, body: JSON.stringify({ question }) });
    expect(response.status).toBe(200);
    const run = await response.json();
    expect(run.model).toBe('offline');
    expect(answered(run)).toEqual(expected);
  });

  it('the stream sends the run events, then the run', async () => {
    const response = await fetch(`${url}/v1/ask/stream`, { method: 'POST', headers: auth, body: JSON.stringify({ question }) });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await response.text());
    const types = [...new Set(events.map((event) => event.event))];
    // The passage that answers is short, so the search shows it whole and no read is needed.
    expect(types).toEqual(['run-start', 'search-start', 'search-end', 'answer', 'run-end', 'run']);
    expect(answered(events.at(-1)!.data as Parameters<typeof answered>[0])).toEqual(expected);
  });

  it('SIGTERM closes the server and the index, exit code 0', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stderr()).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+\natlas serve: SIGTERM: stopping\natlas serve: stopped\n$/);
  });
});

describe('issue 38: atlas serve follows an index that atlas ingest --rebuild replaces', () => {
  const plan = (front: string) => `---\nid: plan\n${front}---\n# Plan\n\n## Roadmap\n\nThe zephyrine migration ships next quarter.\n`;
  const question = { question: 'When does the zephyrine migration ship?' };
  const reads = { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'plan#0' } }, { toolName: 'read_section', input: { chunk_id: 'lease#0' } }] };

  /** A scripted model whose calls wait until `release()`: two runs, each reading the page the rebuild restricts and the page it deletes. */
  function gatedScript() {
    const scripted = createScriptedModel([
      reads,
      { answer: { text: 'Next quarter.', citations: [{ doc_id: 'plan', quote: 'The zephyrine migration ships next quarter.' }] } },
      reads,
      { answer: { text: 'Not found.', citations: [], abstained: true } },
    ]);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = () => {};
    const first = new Promise<void>((resolve) => (started = resolve));
    const model: LanguageModelV3 = {
      ...scripted,
      doGenerate: async (call) => {
        started();
        await gate;
        return scripted.doGenerate(call);
      },
    };
    return { model, started: first, release };
  }

  it('serves the new index from the next request (search, chunks, ask, MCP, health), while an ask in flight finishes on the old one', async () => {
    const docs = path.join(dir, 'rebuilt-docs');
    const rebuilt = path.join(dir, 'rebuilt.db');
    await mkdir(docs);
    await writeFile(path.join(docs, 'plan.md'), plan(''));
    await writeFile(path.join(docs, 'lease.md'), '---\nid: lease\n---\n# Lease\n\n## Renewal\n\nWorkers renew the quillwort lease before it runs out.\n');
    expect(await runCli(['ingest', docs, '--db', rebuilt], recordingIO({ cwd: dir }))).toBe(0);
    const io = recordingIO({ cwd: dir });
    const gated = gatedScript();
    const seen: Record<string, unknown> = {};
    const program = new Command('atlas').exitOverride();
    registerServeCommand(program, io, {
      resolveModel: () => ({ model: gated.model, spec: 'scripted', price: null }),
      stopRequested: async () => {
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(io.err.join(''))![1]!;
        const get = async (route: string) => {
          const response = await fetch(`${url}${route}`);
          return { status: response.status, body: (await response.json()) as Record<string, unknown> };
        };
        const searchIds = async (q: string) => ((await get(`/v1/search?q=${q}`)).body.hits as Array<{ chunkId: string }>).map((hit) => hit.chunkId);
        const mcp = new Client({ name: 'rebuild-test', version: '0.0.0' });
        await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
        const mcpSearch = async (query: string) =>
          ((await mcp.callTool({ name: 'search_docs', arguments: { query } })).structuredContent as { results: Array<{ chunk_id: string }> }).results.map((result) => result.chunk_id);
        seen.before = { search: await searchIds('zephyrine'), deleted: await searchIds('quillwort'), mcp: await mcpSearch('zephyrine') };
        // An ask in flight: its first model call waits at the gate while the index is replaced.
        const streamed = fetch(`${url}/v1/ask/stream`, { method: 'POST', body: JSON.stringify(question) }).then((response) => response.text());
        await gated.started;
        await writeFile(path.join(docs, 'plan.md'), plan('labels: {acl: [admins]}\n'));
        await rm(path.join(docs, 'lease.md'));
        expect(await runCli(['ingest', docs, '--db', rebuilt, '--rebuild'], recordingIO({ cwd: dir }))).toBe(0);
        seen.after = {
          search: await searchIds('zephyrine'),
          deleted: await searchIds('quillwort'),
          chunk: (await get('/v1/chunks/plan%230')).status,
          health: (await get('/healthz')).body,
          mcp: await mcpSearch('zephyrine migration'),
          mcpChunk: await mcp.readResource({ uri: 'atlas://chunk/plan%230' }).then(() => 'read', (error: Error) => error.message),
        };
        gated.release();
        type Run = { answer: { abstained: boolean; citations: Array<{ chunkId: string }> }; trace: { reads: Array<{ chunkId: string; found: boolean }> } };
        const summary = (run: Run) => ({ reads: run.trace.reads.map((read) => [read.chunkId, read.found]), cited: run.answer.citations.map((citation) => citation.chunkId) });
        seen.inFlight = summary(parseSse(await streamed).at(-1)!.data as Run);
        seen.next = summary((await (await fetch(`${url}/v1/ask`, { method: 'POST', body: JSON.stringify(question) })).json()) as Run);
        await mcp.close();
        return 'test stop';
      },
    });
    await program.parseAsync(['serve', '--port', '0', '--db', rebuilt], { from: 'user' });
    expect(seen.before).toEqual({ search: ['plan#0'], deleted: ['lease#0'], mcp: ['plan#0'] });
    expect(seen.after).toEqual({
      search: [],
      deleted: [],
      chunk: 404,
      health: { ok: true, docs: 1, chunks: 1, indexVersion: expect.any(String) },
      mcp: [],
      mcpChunk: 'MCP error -32002: chunk not found: plan#0. Use a chunk_id returned by search_docs.',
    });
    // The run that started on the old index read it to the end, and its citation verified; the next run reads the new index.
    expect(seen.inFlight).toEqual({ reads: [['plan#0', true], ['lease#0', true]], cited: ['plan#0'] });
    expect(seen.next).toEqual({ reads: [['plan#0', false], ['lease#0', false]], cited: [] });
    expect(io.err.join('')).not.toContain('warning');
  }, 60_000);
});
