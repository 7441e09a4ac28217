// GET /v1/docs/:docId: a page's text as its chunks in order, with their source lines, read through
// the same filter and access as GET /v1/chunks/:chunkId (a hidden page is an unknown page).
import { Hono } from 'hono';
import { z } from 'zod';
import type { Chunk } from '../corpus/types.ts';
import type { IndexBackend, SearchFilter } from '../index/types.ts';
import { ApiError, fieldPath } from './http.ts';
import { narrowFilter, refuseAccessParameters, requestedFilterFields } from './request-filter.ts';
import type { ServerDeps, ServerEnv } from './types.ts';

/** The most chunks one page is read in (a guard against a broken next-chunk chain). */
export const MAX_DOC_CHUNKS = 10_000;

/** A chunk of a page as `GET /v1/docs/:docId` answers it. */
export interface DocChunkJson {
  chunkId: string;
  heading: string;
  headingPath: string[];
  startLine: number;
  endLine: number;
  text: string;
}

/** The body of `GET /v1/docs/:docId`. */
export interface DocJson {
  doc: { docId: string; title: string; sourcePath: string; appliesTo: string; startLine: number; endLine: number };
  /** The page's chunks in order; with `lines`, only those whose lines overlap them. */
  chunks: DocChunkJson[];
  /** The lines asked for (`?lines=a-b`), when asked. */
  lines?: { start: number; end: number };
}

const linesPattern = /^(\d+)(?:-(\d+))?$/;

const docQuerySchema = z.strictObject(
  {
    version: requestedFilterFields.version,
    lines: z
      .string()
      .regex(linesPattern, { error: 'must be a line or a range of source lines, e.g. lines=69-92' })
      .transform((text) => {
        const [, start, end] = linesPattern.exec(text)!;
        return { start: Number(start), end: Number(end ?? start) };
      })
      .refine((lines) => lines.start >= 1 && lines.end >= lines.start, { error: 'must run from a first line (at least 1) to a last line not before it, e.g. lines=69-92' })
      .optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown parameter ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; a page read takes version and lines` : 'must be a query string') },
);

/**
 * The page route: `GET /v1/docs/:docId[?version=&lines=a-b]` answers {@link DocJson}, the page's
 * chunks in order (each with its heading path, source lines and text), or with `lines` only the
 * chunks holding those lines. Each chunk is read with `index.getChunk` under the server's filter
 * narrowed by `version` and the token's principal, exactly as `GET /v1/chunks/:chunkId`: a page
 * the filter or the principal hides is a 404 with the message of an unknown page. A parameter it
 * does not take is a 400, and one claiming access groups (`?groups=admins`) the 400 of every read route.
 *
 * @example
 * app.route('/', createDocsRoutes(deps));
 * await app.request('/v1/docs/api-results?lines=69-92'); // { doc: { docId: 'api-results', ... }, chunks: [{ chunkId: 'api-results#3', ... }], lines: { start: 69, end: 92 } }
 */
export function createDocsRoutes(deps: ServerDeps): Hono<ServerEnv> {
  const routes = new Hono<ServerEnv>();

  // {.+}: the id of a nested page holds slashes (`guides/setup`), encoded or not.
  routes.get('/v1/docs/:docId{.+}', async (c) => {
    const docId = c.req.param('docId');
    // As a chunk read: parameters it does not take are refused, a claim of groups first.
    const parameters = c.req.queries();
    refuseAccessParameters(Object.keys(parameters));
    const query = parseDocQuery(Object.fromEntries(Object.entries(parameters).map(([name, values]) => [name, values.at(-1)])));
    const { filter } = narrowFilter(deps.filter, query.version ? { version: query.version } : {}, c.get('principal'));
    const chunks = await readDoc(deps.index, docId, filter);
    const first = chunks[0];
    // Unknown and hidden are the same answer: the response must not tell that a page exists.
    if (first === undefined) throw new ApiError(404, 'not-found', `Atlas: no doc ${JSON.stringify(docId)} (the id is unknown or outside what this request may read). Doc ids are the docId of /v1/search hits, e.g. "error-codes".`);
    const doc = { docId: first.docId, title: first.title, sourcePath: first.sourcePath, appliesTo: first.appliesTo, startLine: first.startLine, endLine: chunks.at(-1)!.endLine };
    const { lines } = query;
    if (lines === undefined) return c.json({ doc, chunks: chunks.map(chunkJson) } satisfies DocJson);
    const held = chunks.filter((chunk) => chunk.startLine <= lines.end && chunk.endLine >= lines.start);
    if (held.length === 0) {
      throw new ApiError(404, 'not-found', `Atlas: no lines ${lines.start}-${lines.end} in doc ${JSON.stringify(docId)}: its chunks hold lines ${doc.startLine}-${doc.endLine} of ${doc.sourcePath}. Ask for lines in that range, or leave lines out for the whole page.`);
    }
    return c.json({ doc, chunks: held.map(chunkJson), lines } satisfies DocJson);
  });

  return routes;
}

/**
 * A page's chunks in order, from `<docId>#0` along `nextChunkId`, each read under `filter`; empty
 * when the first is unknown or hidden. Filters hold per page (version and labels come from the
 * front matter), so a page is read whole or not at all.
 *
 * @example
 * (await readDoc(index, 'error-codes', { version: '3.x' })).map((chunk) => chunk.chunkId); // ['error-codes#0', 'error-codes#1', ...]
 */
export async function readDoc(index: IndexBackend, docId: string, filter: SearchFilter | undefined): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  if (docId.includes('#')) return chunks;
  const seen = new Set<string>();
  let next: string | undefined = `${docId}#0`;
  while (next !== undefined && !seen.has(next) && chunks.length < MAX_DOC_CHUNKS) {
    seen.add(next);
    const chunk = await index.getChunk(next, filter);
    if (chunk === undefined || chunk.docId !== docId) break;
    chunks.push(chunk);
    next = chunk.nextChunkId;
  }
  return chunks;
}

function chunkJson(chunk: Chunk): DocChunkJson {
  return { chunkId: chunk.chunkId, heading: chunk.heading, headingPath: chunk.headingPath, startLine: chunk.startLine, endLine: chunk.endLine, text: chunk.text };
}

function parseDocQuery(data: unknown): z.infer<typeof docQuerySchema> {
  const parsed = docQuerySchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${fieldPath(issue.path) || 'query'}: ${issue.message}`);
  throw new ApiError(400, 'invalid-request', `Atlas: invalid page read: ${problems.join('; ')}.`);
}
