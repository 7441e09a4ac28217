// Cancelling an MCP `ask` stops its run: a client's notifications/cancelled, or a client that
// closes the connection of its tools/call, fires the run's abort signal (the model call in flight
// sees it) over a real Streamable HTTP endpoint on loopback.
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createOfflineModel } from '../models/offline/index.ts';
import { createGatedModel, type GatedModel } from '../server/test-server.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createMcpHttpHandler } from './http.ts';

let index: IndexBackend;
beforeAll(async () => {
  index = await createOrbitIndex();
});
afterAll(async () => {
  await index.close();
});

/** The MCP endpoint with `ask` on a gated model, on loopback; `stop` closes everything. */
async function startEndpoint(model: GatedModel | LanguageModelV3) {
  const handler = createMcpHttpHandler({ index, ask: { model, modelSpec: 'gated', price: null, maxSearches: 2, now: () => 0 } });
  const server = createAdaptorServer({ fetch: (request: Request) => handler(request) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const client = new Client({ name: 'atlas-cancel-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  return {
    url,
    client,
    sessionId: () => transport.sessionId!,
    stop: async () => {
      if ('release' in model) model.release();
      await client.close().catch(() => undefined);
      await handler.close();
      if ('closeAllConnections' in server) server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('cancelling an ask', () => {
  it('notifications/cancelled (the client aborting its request) aborts the model call in flight, and no further call starts', async () => {
    const model = createGatedModel();
    const endpoint = await startEndpoint(model);
    try {
      const abort = new AbortController();
      const call = endpoint.client.callTool({ name: 'ask', arguments: { question: 'What does ORB-1202 mean?' } }, CallToolResultSchema, { signal: abort.signal });
      await model.started(1);
      abort.abort('the user pressed stop');
      await expect(call).rejects.toThrow('the user pressed stop');
      await expect.poll(() => model.signals[0]?.aborted).toBe(true);
      // The run ended: released now, it makes no more calls.
      model.release();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(model.signals).toHaveLength(1);
    } finally {
      await endpoint.stop();
    }
  });

  it('a client that closes the connection of its tools/call aborts the run the same way', async () => {
    const model = createGatedModel();
    const endpoint = await startEndpoint(model);
    try {
      const abort = new AbortController();
      const body = { jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'ask', arguments: { question: 'What does ORB-1202 mean?' } } };
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': endpoint.sessionId(), 'mcp-protocol-version': '2025-06-18' };
      const response = await fetch(endpoint.url, { method: 'POST', headers, body: JSON.stringify(body), signal: abort.signal });
      expect(response.status).toBe(200);
      await model.started(1);
      abort.abort();
      await expect.poll(() => model.signals[0]?.aborted).toBe(true);
      model.release();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(model.signals).toHaveLength(1);
    } finally {
      await endpoint.stop();
    }
  });

  it('the synchronous offline planner sees the cancellation between its calls (it yields before each), and makes no more', async () => {
    const offline = createOfflineModel() as LanguageModelV3;
    const abort = new AbortController();
    let calls = 0;
    let cancelAtFirstCall = false;
    const model: LanguageModelV3 = {
      ...offline,
      doGenerate: async (options) => {
        calls += 1;
        if (cancelAtFirstCall && calls === 1) setTimeout(() => abort.abort('the user pressed stop'), 0);
        return offline.doGenerate(options);
      },
    };
    const endpoint = await startEndpoint(model);
    try {
      const question = 'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';
      await endpoint.client.callTool({ name: 'ask', arguments: { question } });
      // The whole run makes several calls (3 here); cancelled during the first, it makes no other.
      expect(calls).toBe(3);
      calls = 0;
      cancelAtFirstCall = true;
      await expect(endpoint.client.callTool({ name: 'ask', arguments: { question } }, CallToolResultSchema, { signal: abort.signal })).rejects.toThrow('the user pressed stop');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(calls).toBe(1);
    } finally {
      await endpoint.stop();
    }
  });
});
