import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** An official MCP client connected to `server` over an in-memory linked pair. */
export interface LinkedClient {
  client: Client;
  /** Calls a tool and returns its result (a CallToolResult: content, structuredContent, isError). */
  call: (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;
  close: () => Promise<void>;
}

/**
 * Connects the official MCP client to `server` in process (for tests).
 *
 * @example
 * const { call, close } = await connectInMemory(createAtlasMcpServer({ index }));
 * const result = await call('search_docs', { query: 'ORB-1202' });
 */
export async function connectInMemory(server: McpServer): Promise<LinkedClient> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'atlas-test', version: '0.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}
