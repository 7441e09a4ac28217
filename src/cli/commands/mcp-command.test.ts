import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIO } from '../test-cli.ts';
import { runCli } from '../main.ts';

const BIN = path.join(import.meta.dirname, '..', '..', '..', 'bin', 'atlas.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-mcp-'));
  await mkdir(path.join(dir, 'docs'));
  await writeFile(
    path.join(dir, 'docs', 'leases.md'),
    '---\nid: leases\napplies_to: "3.x"\n---\n# Leases\n\nA worker holds a job for the lease.\n\n## Setting\n\nSet `[worker] lease_seconds` in orbit.toml (default 60).\n',
  );
  await writeFile(path.join(dir, 'docs', 'env.md'), '---\nid: env\napplies_to: "2.x"\n---\n# Environment\n\n## Lease\n\nORBIT_LEASE_TIMEOUT sets the lease in seconds.\n');
  const io = recordingIO({ cwd: dir });
  expect(await runCli(['ingest', 'docs'], io)).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('atlas mcp over stdio', () => {
  it('serves the index to the official client from a spawned `atlas mcp`, logging on stderr only', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--version', '3.x', '--max-searches', '2', '--model', 'offline'],
      cwd: dir,
      env: getDefaultEnvironment(),
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const client = new Client({ name: 'atlas-stdio-test', version: '0.0.0' });
    const errors: Error[] = [];
    client.onerror = (error) => errors.push(error);
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('atlas');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['search_docs', 'read_section', 'read_neighbors', 'ask']);

    const search = (await client.callTool({ name: 'search_docs', arguments: { query: 'lease' } })) as CallToolResult;
    expect(search.structuredContent).toMatchObject({ results: [{ chunk_id: 'leases#0' }, { chunk_id: 'leases#1' }], budget: 'search 1 of 2, 1 left' });
    const hidden = (await client.callTool({ name: 'read_section', arguments: { chunk_id: 'env#0' } })) as CallToolResult;
    expect(hidden).toEqual({ content: [{ type: 'text', text: 'chunk not found: env#0. Use a chunk_id returned by search_docs.' }], isError: true });
    const doc = await client.readResource({ uri: 'atlas://doc/leases' });
    expect(doc.contents[0]).toMatchObject({ text: '# Leases\n\nA worker holds a job for the lease.\n\n## Setting\n\nSet `[worker] lease_seconds` in orbit.toml (default 60).\n' });
    const ask = (await client.callTool({ name: 'ask', arguments: { question: 'Where do I set lease_seconds?' } })) as CallToolResult;
    expect(ask.isError).toBeUndefined();
    expect((ask.structuredContent as { citations: Array<{ doc_id: string }> }).citations.map((citation) => citation.doc_id)).toContain('leases');

    await client.close();
    expect(errors).toEqual([]);
    expect(stderr.join('')).toContain('atlas mcp: search_docs {"query":"lease"} -> ok (search 1 of 2, 1 left)\n');
    expect(stderr.join('')).toContain('atlas mcp: read_section {"chunk_id":"env#0"} -> error: chunk not found: env#0. Use a chunk_id returned by search_docs.\n');
    expect(stderr.join('')).toContain('atlas mcp: serving 2 docs (3 chunks) over stdio; 2 searches per session; ask model: offline. Fixed by the server: version 3.x (and pages for all versions); public pages only.\n');
  }, 60_000);

  it('issue 38: serves the new index once atlas ingest --rebuild replaces the file (search_docs, resources)', async () => {
    const docs = path.join(dir, 'rebuilt-docs');
    await mkdir(docs);
    const plan = (front: string) => `---\nid: plan\n${front}---\n# Plan\n\n## Roadmap\n\nThe zephyrine migration ships next quarter.\n`;
    await writeFile(path.join(docs, 'plan.md'), plan(''));
    await writeFile(path.join(docs, 'lease.md'), '---\nid: lease\n---\n# Lease\n\n## Renewal\n\nWorkers renew the quillwort lease before it runs out.\n');
    expect(await runCli(['ingest', 'rebuilt-docs', '--db', 'rebuilt.db'], recordingIO({ cwd: dir }))).toBe(0);
    const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--db', 'rebuilt.db', '--max-searches', '6', '--model', 'offline'], cwd: dir, env: getDefaultEnvironment(), stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
    const client = new Client({ name: 'atlas-rebuild-test', version: '0.0.0' });
    await client.connect(transport);
    const search = async (query: string) => ((await client.callTool({ name: 'search_docs', arguments: { query } })) as CallToolResult).structuredContent as { results: Array<{ chunk_id: string }> };
    const resource = (uri: string) => client.readResource({ uri }).then((read) => (read.contents[0] as { text: string }).text, (error: Error) => error.message);
    expect((await search('zephyrine')).results.map((result) => result.chunk_id)).toEqual(['plan#0']);
    expect(await resource('atlas://chunk/lease%230')).toBe('## Renewal\n\nWorkers renew the quillwort lease before it runs out.');

    await writeFile(path.join(docs, 'plan.md'), plan('labels: {acl: [admins]}\n'));
    await rm(path.join(docs, 'lease.md'));
    expect(await runCli(['ingest', 'rebuilt-docs', '--db', 'rebuilt.db', '--rebuild'], recordingIO({ cwd: dir }))).toBe(0);
    expect((await search('zephyrine migration')).results).toEqual([]);
    expect((await search('quillwort')).results).toEqual([]);
    expect(await resource('atlas://chunk/plan%230')).toBe('MCP error -32002: chunk not found: plan#0. Use a chunk_id returned by search_docs.');
    expect(await resource('atlas://doc/lease')).toBe('MCP error -32002: document not found: lease. Use a doc_id returned by search_docs.');
    await client.close();
    expect(stderr.join('')).not.toContain('warning');
  }, 60_000);

  it('fails before serving when the index is missing or a flag is bad', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['mcp', '--db', 'missing.db'], io)).toBe(1);
    expect(io.err.join('')).toBe(`Atlas: no index at ${path.join(dir, 'missing.db')}. Build it first: atlas ingest <docs-dir> --db missing.db (e.g. atlas ingest datasets/orbit).\n`);
    const usage = recordingIO({ cwd: dir });
    expect(await runCli(['mcp', '--max-searches', '0'], usage)).toBe(2);
    expect(usage.err.join('')).toContain('--max-searches must be a positive integer, got "0" (e.g. --max-searches 5).');
    expect(usage.out).toEqual([]);
  });
});
