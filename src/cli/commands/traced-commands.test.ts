// `atlas ask`, `atlas serve` (its HTTP API and its MCP endpoint) export their spans when the
// environment names an OTLP endpoint: here a loopback server that records the exports.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../../testing/loopback-server.ts';
import { otlpSpans, type ExportedSpan } from '../../testing/otlp-spans.ts';
import { runCli } from '../main.ts';
import { recordingIO } from '../test-cli.ts';
import { registerServeCommand } from './serve-command.ts';

let dir: string;
let db: string;
let collector: LoopbackServer;
const QUESTION = 'What does ORB-1202 mean?';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-traced-'));
  db = path.join(dir, 'index.db');
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'errors.md'), '---\nid: errors\n---\n# Errors\n\n## ORB-1202\n\nORB-1202 means PayloadTooLarge: a step result exceeded max_payload_kb.\n');
  expect(await runCli(['ingest', path.join(dir, 'docs'), '--db', db], recordingIO({ cwd: dir }))).toBe(0);
  collector = await startLoopbackServer(() => jsonResponse({}));
});
afterAll(async () => {
  await collector.close();
  await rm(dir, { recursive: true, force: true });
});

const otelEnv = () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_SERVICE_NAME: 'atlas-traced' });
const exported = (from: number) => otlpSpans(collector.requests().slice(from).map((request) => request.rawBody));
/** The spans of the trace that holds a span named `name`. */
function traceOf(spans: ExportedSpan[], name: string): ExportedSpan[] {
  const traceId = spans.find((span) => span.name === name)?.traceId;
  return spans.filter((span) => span.traceId === traceId);
}
/** The run (offline model, answered) under the spans `root` lists; its searches, reads and model calls under it. */
function expectRunTree(spans: ExportedSpan[], root: string[]): void {
  const under = (span: ExportedSpan) => `${span.name} <- ${span.parent}`;
  const runs = spans.filter((span) => span.name === 'atlas.run');
  expect(runs.map((span) => [span.attributes['atlas.run.kind'], span.attributes['gen_ai.request.model'], span.attributes['atlas.run.outcome'], span.attributes['atlas.run.question']])).toEqual([['agentic', 'offline', 'answered', QUESTION]]);
  expect(spans.filter((span) => !['atlas.search', 'atlas.read', 'ai.generateText', 'ai.generateText.doGenerate'].includes(span.name)).map(under).sort()).toEqual([...root].sort());
  for (const span of spans.filter((span) => span.name === 'atlas.search' || span.name === 'atlas.read' || span.name === 'ai.generateText')) expect(under(span)).toBe(`${span.name} <- atlas.run`);
  for (const span of spans.filter((span) => span.name === 'ai.generateText.doGenerate')) expect(span.parent).toBe('ai.generateText');
  expect(spans.filter((span) => span.name === 'atlas.search').length).toBeGreaterThanOrEqual(1);
  expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['atlas-traced']));
}

describe('traced commands', () => {
  it('atlas ask: one trace, the command span over the run', async () => {
    const from = collector.requests().length;
    const io = { ...recordingIO({ cwd: dir }), env: otelEnv() };
    expect(await runCli(['ask', QUESTION, '--db', db, '--model', 'offline'], io)).toBe(0);
    const spans = exported(from);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expectRunTree(spans, ['atlas ask <- root', 'atlas.run <- atlas ask']);
    expect(spans.find((span) => span.name === 'atlas ask')?.attributes).toEqual({ 'atlas.route': 'agentic' });
  });

  it('atlas chat: a trace per turn, the conversation turn over its run', async () => {
    const from = collector.requests().length;
    const io = { ...recordingIO({ cwd: dir }), env: otelEnv(), stdin: Readable.from([`${QUESTION}\n`, `${QUESTION}\n`]) };
    expect(await runCli(['chat', '--db', db, '--model', 'offline', '--route', 'agentic'], io)).toBe(0);
    const spans = exported(from);
    const turns = spans.filter((span) => span.name === 'atlas.conversation.turn');
    expect(turns.map((span) => [span.parent, span.attributes['atlas.conversation.earlier_turns'], span.attributes['atlas.conversation.turn_saved']])).toEqual([['root', 0, true], ['root', 1, true]]);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(2);
    expect(spans.filter((span) => span.name === 'atlas.run').map((span) => span.parent)).toEqual(['atlas.conversation.turn', 'atlas.conversation.turn']);
  });

  it('atlas ask without an endpoint exports nothing', async () => {
    const from = collector.requests().length;
    expect(await runCli(['ask', QUESTION, '--db', db, '--model', 'offline'], recordingIO({ cwd: dir }))).toBe(0);
    expect(collector.requests().length).toBe(from);
  });

  it('refuses a bad tracing variable before any run, and the console exporter for atlas mcp, whose stdout is the protocol', async () => {
    const ask = { ...recordingIO({ cwd: dir }), env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' } };
    expect(await runCli(['ask', QUESTION, '--db', db, '--model', 'offline'], ask)).toBe(2);
    expect(ask.err.join('')).toBe('Atlas: OTEL_EXPORTER_OTLP_PROTOCOL "grpc" is not supported: Atlas sends OTLP over HTTP (JSON bodies). Set it to http/json, or unset it, and point the endpoint at the collector\'s HTTP port (4318).\n');
    expect(ask.out).toEqual([]);
    const mcp = { ...recordingIO({ cwd: dir }), env: { OTEL_TRACES_EXPORTER: 'console' } };
    expect(await runCli(['mcp', '--db', db], mcp)).toBe(2);
    expect(mcp.err.join('')).toBe('Atlas: OTEL_TRACES_EXPORTER "console" prints spans on stdout, which atlas mcp keeps for the MCP protocol. Use otlp with OTEL_EXPORTER_OTLP_ENDPOINT, or unset OTEL_TRACES_EXPORTER.\n');
  });

  it('atlas serve: a server span per request over its run, for /v1/ask, /v1/ask/stream and the MCP ask tool', async () => {
    const from = collector.requests().length;
    const io = { ...recordingIO({ cwd: dir }), env: otelEnv() };
    let port = 0;
    const program = new Command('atlas').exitOverride();
    registerServeCommand(program, io, {
      stopRequested: async () => {
        const url = /listening on (http:\/\/127\.0\.0\.1:(\d+))\n/.exec(io.err.join(''))!;
        port = Number(url[2]);
        const ask = await fetch(`${url[1]}/v1/ask`, { method: 'POST', body: JSON.stringify({ question: QUESTION }) });
        expect(ask.status).toBe(200);
        await ask.json();
        const stream = await fetch(`${url[1]}/v1/ask/stream`, { method: 'POST', body: JSON.stringify({ question: QUESTION }) });
        expect(await stream.text()).toContain('event: run\n');
        const mcp = new Client({ name: 'traced-test', version: '0.0.0' });
        await mcp.connect(new StreamableHTTPClientTransport(new URL(`${url[1]}/mcp`)));
        expect((await mcp.callTool({ name: 'ask', arguments: { question: QUESTION } })).isError).toBeFalsy();
        await mcp.close();
        return 'test stop';
      },
    });
    await program.parseAsync(['serve', '--port', '0', '--db', db, '--model', 'offline'], { from: 'user' });
    const spans = exported(from);

    const asked = traceOf(spans, 'POST /v1/ask');
    expectRunTree(asked, ['POST /v1/ask <- root', 'atlas.run <- POST /v1/ask']);
    const server = asked.find((span) => span.name === 'POST /v1/ask')!;
    expect(server.kind).toBe(2);
    expect(server.attributes).toEqual({
      'http.request.method': 'POST',
      'url.path': '/v1/ask',
      'url.scheme': 'http',
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.route': '/v1/ask',
      'client.address': '127.0.0.1',
      'user_agent.original': 'node',
      'http.response.status_code': 200,
    });
    expectRunTree(traceOf(spans, 'POST /v1/ask/stream'), ['POST /v1/ask/stream <- root', 'atlas.run <- POST /v1/ask/stream']);
    expectRunTree(traceOf(spans, 'tools/call ask'), ['POST /mcp <- root', 'tools/call ask <- POST /mcp', 'atlas.run <- tools/call ask']);
  });
});
