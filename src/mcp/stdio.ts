import type { Readable, Writable } from 'node:stream';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/**
 * Serves `server` over stdio (newline-delimited JSON-RPC on `input`/`output`) until the client
 * closes `input` or the server is closed. `output` carries the protocol only: log to stderr.
 *
 * @example
 * await serveStdio(createAtlasMcpServer({ index }), { input: process.stdin, output: process.stdout });
 */
export async function serveStdio(server: McpServer, streams: { input: Readable; output: Writable }): Promise<void> {
  const transport = new StdioServerTransport(streams.input, streams.output);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  await server.connect(transport);
  const close = () => void server.close();
  streams.input.once('end', close);
  streams.input.once('close', close);
  try {
    await closed;
  } finally {
    streams.input.off('end', close);
    streams.input.off('close', close);
  }
}
