import type { CallToolResult, ResourceLink } from '@modelcontextprotocol/sdk/types.js';
import { chunkUri } from './uris.ts';

/** A chunk a result points at, for its `resource_link`. */
export interface LinkedChunk {
  chunk_id: string;
  heading_path: string;
}

/**
 * A successful tool result: the structured value as JSON text (for clients that read only
 * text) and as `structuredContent`, then `texts` (what a reader should see as prose, e.g. the
 * closest passages of an `ask`), then one `resource_link` per chunk it names.
 *
 * @example
 * toolResult({ results: [], budget: 'search 1 of 6, 5 left' }, []);
 */
export function toolResult(structured: Record<string, unknown>, chunks: LinkedChunk[], texts: string[] = []): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured) }, ...texts.map((text) => ({ type: 'text' as const, text })), ...chunks.map(resourceLink)],
    structuredContent: structured,
  };
}

/**
 * A tool error the calling model can read and act on: a result with `isError: true`, never a
 * protocol error.
 *
 * @example
 * toolError('chunk not found: nope#1. Use a chunk_id returned by search_docs.');
 */
export function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * The `resource_link` content of a chunk: its `atlas://chunk/<chunkId>` URI, named by its id.
 *
 * @example
 * resourceLink({ chunk_id: 'flows#3', heading_path: 'Flows > Retries' }); // { type: 'resource_link', uri: 'atlas://chunk/flows%233', ... }
 */
export function resourceLink(chunk: LinkedChunk): ResourceLink {
  return { type: 'resource_link', uri: chunkUri(chunk.chunk_id), name: chunk.chunk_id, title: chunk.heading_path, mimeType: 'text/markdown' };
}

/** Receives one line per tool call (the CLI writes them to stderr). */
export type CallLog = (line: string) => void;

/** The longest text of one argument, and of an outcome, a log line keeps (the rest is cut, with a marker). */
export const LOGGED_TEXT_CHARS = 200;

/**
 * `text` cut to `max` characters, with a marker saying how much was left out.
 *
 * @example
 * clipped('x'.repeat(250), 200); // 'xxx...x... [50 more characters]' (200 x's, then the marker)
 */
export function clipped(text: string, max = LOGGED_TEXT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}... [${text.length - max} more characters]`;
}

/**
 * Wraps a tool handler so each call is logged in one line: the tool, its arguments, and the
 * outcome (`ok`, with the budget of a search, or the error text). Each text argument and the
 * error text are cut to {@link LOGGED_TEXT_CHARS} characters with a marker: a 100 KB query is
 * not a 100 KB log line.
 *
 * @example
 * logged(io.stderr, 'search_docs', handler); // 'atlas mcp: search_docs {"query":"lease"} -> ok (search 1 of 6, 5 left)\n'
 */
export function logged<P extends [args: unknown, ...rest: unknown[]]>(
  log: CallLog | undefined,
  tool: string,
  handler: (...params: P) => Promise<CallToolResult>,
): (...params: P) => Promise<CallToolResult> {
  if (log === undefined) return handler;
  return async (...params) => {
    const result = await handler(...params);
    const budget = (result.structuredContent as { budget?: unknown } | undefined)?.budget;
    const first = result.content[0];
    const outcome = result.isError ? `error: ${first?.type === 'text' ? clipped(first.text) : 'no text'}` : `ok${typeof budget === 'string' ? ` (${budget})` : ''}`;
    const args = JSON.stringify(params[0], (_key, value: unknown) => (typeof value === 'string' ? clipped(value) : value));
    log(`atlas mcp: ${tool} ${args} -> ${outcome}\n`);
    return result;
  };
}
