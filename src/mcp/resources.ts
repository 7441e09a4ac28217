import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Chunk } from '../corpus/types.ts';
import { headingPathText } from '../agent/session/tool-values.ts';
import { withIndexLease } from '../index/index-lease.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { CHUNK_URI_TEMPLATE, chunkUri, decodeVariable, DOC_URI_TEMPLATE } from './uris.ts';

/** JSON-RPC code of an unknown resource (MCP specification, resources: error handling). */
export const RESOURCE_NOT_FOUND = -32002;

/** What the resources read through: the index and the filter the server enforces. */
export interface ResourceContext {
  index: IndexBackend;
  filter?: SearchFilter;
}

/**
 * Registers the resource templates `atlas://chunk/{chunkId}` (one section, in full) and
 * `atlas://doc/{docId}` (a whole document, its sections in order). Both read through the
 * server's filter and principal: a chunk or page it hides is "not found", exactly like an
 * unknown id. Reading a resource does not use the search budget.
 *
 * @example
 * registerResources(server, { index, filter: { version: '3.x' } });
 * await client.readResource({ uri: 'atlas://doc/error-codes' });
 */
export function registerResources(server: McpServer, context: ResourceContext): void {
  server.registerResource(
    'chunk',
    new ResourceTemplate(CHUNK_URI_TEMPLATE, { list: undefined }),
    { title: 'A section of the docs', description: 'One chunk (section) in full, by the chunk_id search_docs returned.', mimeType: 'text/markdown' },
    // Each read on one version of the index (the chunk and its neighbours, a page's sections).
    async (uri, variables) =>
      withIndexLease(context.index, async () => {
        const chunkId = decodeVariable(variables.chunkId);
        const chunk = await context.index.getChunk(chunkId, context.filter);
        if (!chunk) throw notFound(`chunk not found: ${chunkId}. Use a chunk_id returned by search_docs.`);
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: `${headingLine(chunk)}\n\n${chunk.text}`, _meta: await chunkMeta(context, chunk) }] };
      }),
  );
  server.registerResource(
    'doc',
    new ResourceTemplate(DOC_URI_TEMPLATE, { list: undefined }),
    { title: 'A whole document', description: 'Every section of one page of the docs, in order, by its doc_id.', mimeType: 'text/markdown' },
    async (uri, variables) => {
      const docId = decodeVariable(variables.docId);
      const chunks = await withIndexLease(context.index, () => documentChunks(context, docId));
      if (chunks.length === 0) throw notFound(`document not found: ${docId}. Use a doc_id returned by search_docs.`);
      const first = chunks[0]!;
      return {
        contents: [
          {
            uri: uri.href,
            mimeType: 'text/markdown',
            text: documentMarkdown(chunks),
            _meta: { doc_id: docId, title: first.title, applies_to: first.appliesTo, source_path: first.sourcePath, chunk_ids: chunks.map((chunk) => chunk.chunkId) },
          },
        ],
      };
    },
  );
}

/** Hidden sections probed past at most, in a row, before a document is taken to end (ids are `<docId>#<ord>`, consecutive). */
const MAX_HIDDEN_RUN = 64;

/**
 * The chunks of a document the filter lets through, in order: from `<docId>#0` along the next
 * links, stepping over sections the filter hides (their ids are the next ords). Empty for an
 * unknown or hidden document.
 *
 * @example
 * (await documentChunks({ index }, 'leases')).map((chunk) => chunk.chunkId); // ['leases#0', 'leases#1']
 */
export async function documentChunks(context: ResourceContext, docId: string): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  let ord = 0;
  let hiddenRun = 0;
  // A visible chunk's own next link says whether the page goes on; hidden ones are stepped over by ord.
  while (hiddenRun < MAX_HIDDEN_RUN) {
    const chunk = await context.index.getChunk(`${docId}#${ord}`, context.filter);
    ord += 1;
    if (chunk === undefined || chunk.docId !== docId) {
      hiddenRun += 1;
      continue;
    }
    hiddenRun = 0;
    chunks.push(chunk);
    if (chunk.nextChunkId === undefined) return chunks;
  }
  return chunks;
}

/**
 * A document's chunks as one markdown text: before each chunk, the headings of its heading path
 * that differ from the previous chunk's (each at its depth: the title `#`, its sections `##`,
 * ...), so a chunk that continues a section adds no heading and a subsection first met adds its
 * parents; then the chunk's text.
 *
 * @example
 * documentMarkdown(chunks); // '# Leases\n\nA worker holds a job...\n\n## Setting\n\nSet `lease_seconds`...\n'
 */
export function documentMarkdown(chunks: Chunk[]): string {
  let previous: string[] = [];
  const parts: string[] = [];
  for (const chunk of chunks) {
    const path = chunk.headingPath;
    const same = path.length === previous.length && path.every((heading, depth) => heading === previous[depth]);
    if (!same) {
      let depth = 0;
      while (depth < path.length - 1 && path[depth] === previous[depth]) depth += 1;
      for (; depth < path.length; depth += 1) parts.push(`${'#'.repeat(Math.min(6, depth + 1))} ${path[depth]}`);
    }
    previous = path;
    if (chunk.text.trim() !== '') parts.push(chunk.text.trim());
  }
  return `${parts.join('\n\n')}\n`;
}

/** The error a resource read answers with: JSON-RPC code -32002 and the message as written (McpError would prefix it). */
function notFound(message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code: RESOURCE_NOT_FOUND });
}

function headingLine(chunk: Chunk): string {
  return `${'#'.repeat(Math.min(6, Math.max(1, chunk.headingPath.length)))} ${chunk.heading}`;
}

async function chunkMeta(context: ResourceContext, chunk: Chunk): Promise<Record<string, unknown>> {
  // Links only to neighbours the filter lets through, as read_section does.
  const linked = new Set((await context.index.neighbors(chunk.chunkId, context.filter)).map((neighbor) => neighbor.chunkId));
  const link = (chunkId: string | undefined) => (chunkId !== undefined && linked.has(chunkId) ? chunkUri(chunkId) : null);
  return {
    chunk_id: chunk.chunkId,
    doc_id: chunk.docId,
    heading_path: headingPathText(chunk),
    applies_to: chunk.appliesTo,
    source_path: chunk.sourcePath,
    start_line: chunk.startLine,
    end_line: chunk.endLine,
    prev: link(chunk.prevChunkId),
    next: link(chunk.nextChunkId),
  };
}
