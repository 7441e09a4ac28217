// `atlas serve` as a team uses it across a restart: a conversation started before the restart is
// continued after it (the state database beside the index), and /mcp sits behind the token.
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recordingIO } from './test-cli.ts';
import { ORBIT_DOCS } from '../testing/orbit-index.ts';
import { runCli } from './main.ts';
import { spawnServe } from './test-serve.ts';

const TOKEN = 'serve-restart-token-0123456789';
const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
let dir: string;
let db: string;
let running: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-serve-restart-'));
  db = path.join(dir, 'index.db');
  expect(await runCli(['ingest', ORBIT_DOCS, '--db', db], recordingIO({ cwd: dir }))).toBe(0);
});
afterEach(async () => {
  if (running && running.exitCode === null) running.kill('SIGKILL');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Starts `atlas serve --port 0` on the test index; `stop` sends SIGTERM and resolves with the exit code. */
async function startServer(): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const server = await spawnServe(['--db', db, '--model', 'offline'], { ATLAS_TOKEN: TOKEN });
  running = server.child;
  return { url: server.url, stop: () => (server.child.kill('SIGTERM'), server.exited) };
}

describe('atlas serve across a restart', () => {
  it('a follow-up after the restart sees the earlier turn and skips what it was shown', async () => {
    const first = await startServer();
    const created = await fetch(`${first.url}/v1/conversations`, { method: 'POST', headers, body: '{}' });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const turn1 = await fetch(`${first.url}/v1/conversations/${id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'How do I enqueue a job in Orbit 3.x?' }) });
    expect(turn1.status).toBe(200);
    const firstRun = (await turn1.json()) as { trace: { evidence: Array<{ chunkId: string }> } };
    expect(await first.stop()).toBe(0);

    const second = await startServer();
    const turn2 = await fetch(`${second.url}/v1/conversations/${id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'and how do I cancel it?' }) });
    expect(turn2.status).toBe(200);
    const run = (await turn2.json()) as { conversationId: string; trace: { steps: Array<{ query: string; filter: { version?: string } }>; evidence: Array<{ chunkId: string }> } };
    expect(run.conversationId).toBe(id);
    expect(run.trace.steps[0]!.query).toBe('and how do I cancel it? Orbit enqueue job');
    expect(run.trace.steps[0]!.filter.version).toBe('3.x');
    // The follow-up finds the page that says how to cancel a queued job first. (Whether the offline
    // planner then answers it or shows it among the closest passages is the planner's business.)
    expect(run.trace.evidence[0]!.chunkId).toBe('api-client#4');
    const seenBefore = new Set(firstRun.trace.evidence.map((item) => item.chunkId));
    expect(run.trace.evidence.filter((item) => seenBefore.has(item.chunkId))).toEqual([]);
    const stored = (await (await fetch(`${second.url}/v1/conversations/${id}`, { headers })).json()) as { turns: Array<{ question: string }> };
    expect(stored.turns.map((turn) => turn.question)).toEqual(['How do I enqueue a job in Orbit 3.x?', 'and how do I cancel it?']);
    expect(await second.stop()).toBe(0);
  });

  it('/mcp needs the token, then serves the search session tools', async () => {
    const server = await startServer();
    expect((await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' })).status).toBe(401);
    const client = new Client({ name: 'serve-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['ask', 'read_neighbors', 'read_section', 'search_docs']);
    const result = await client.callTool({ name: 'search_docs', arguments: { query: 'ORB-1202' } });
    expect(result.isError).not.toBe(true);
    expect((result.structuredContent as { results: Array<{ heading_path: string }> }).results[0]!.heading_path).toMatch(/> ORB-1202 PayloadTooLarge$/);
    await client.close();
    expect(await server.stop()).toBe(0);
  });
});
