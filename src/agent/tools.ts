import { jsonSchema, tool, zodSchema, type Schema } from 'ai';
import { z } from 'zod';
import type { SearchSession, ToolOutcome } from './search-session.ts';

const pageMessage = 'page must be a whole number from 1: use 1 for the best results, 2 for the next ones';

/** Arguments of `search_docs`. `k` is deliberately absent: the session fixes it. */
export const searchDocsInput = z.object({
  query: z.string().min(1).describe('Keywords or a question. Use exact identifiers (error codes, setting names) when you know them.'),
  version: z
    .string()
    .optional()
    .describe('Release line to restrict to, e.g. "3.x". Omit to search every version.'),
  page: z
    .number({ error: pageMessage })
    .int({ error: pageMessage })
    .min(1, { error: pageMessage })
    .optional()
    .describe('1 (default) for the best results; 2, 3, ... for the next results of the same query.'),
});

const chunkId = z.string().min(1).describe('A chunk_id returned by search_docs, e.g. "flows#3".');

/** Arguments of `read_neighbors`. */
export const chunkInput = z.object({ chunk_id: chunkId });

const offsetMessage = 'offset must be a whole number of characters from 0: use 0 for the start, or the next_offset of the page you read last';

/** Arguments of `read_section`: the chunk, where to start reading, and what to look for in it. */
export const readSectionInput = z.object({
  chunk_id: chunkId,
  offset: z
    .number({ error: offsetMessage })
    .int({ error: offsetMessage })
    .min(0, { error: offsetMessage })
    .optional()
    .describe('Where to start: 0 (default) or the next_offset of the last page.'),
  query: z
    .string()
    .optional()
    .describe('Words to locate in a long section (default: your last search).'),
});

/**
 * A zod schema as an AI SDK schema whose JSON Schema is computed once, not on every model call
 * (the conversion dominated the loop's own overhead); values are still validated by zod.
 */
export function precomputedSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const converted = zodSchema(schema).jsonSchema;
  return jsonSchema<T>(converted as Parameters<typeof jsonSchema>[0], {
    validate: (value) => {
      const parsed = schema.safeParse(value);
      return parsed.success ? { success: true, value: parsed.data } : { success: false, error: parsed.error };
    },
  });
}

/**
 * The tool set the model sees (descriptions and JSON schemas only: the loop executes calls
 * itself so that every call, even a malformed one, is answered).
 */
export const agentTools = {
  search_docs: tool({
    description:
      'Search the documentation. Returns up to 5 passages not shown before (chunk_id, doc_id, heading, heading_path, applies_to, score, snippet). Repeating a query is refused; ask for its next results with page: 2, 3, ...',
    inputSchema: precomputedSchema(searchDocsInput),
  }),
  read_section: tool({
    description:
      'Read a section by chunk_id, one page at a time. While complete is false, call again with offset = next_offset; query_matches gives the offsets of the lines matching query (default: your last search).',
    inputSchema: precomputedSchema(readSectionInput),
  }),
  read_neighbors: tool({
    description:
      'Read the previous and next sections of the same document around a chunk_id (first page of each; see complete and note).',
    inputSchema: precomputedSchema(chunkInput),
  }),
};

/** Names of the tools the loop answers. */
export type AgentToolName = keyof typeof agentTools;

/**
 * Runs one tool call against the session. Unknown tools and invalid arguments come back as
 * error outcomes the model can read; nothing here throws for bad model input.
 *
 * @example
 * await executeToolCall(session, 'search_docs', { query: 'ORB-1202' });
 */
export async function executeToolCall(session: SearchSession, toolName: string, input: unknown): Promise<ToolOutcome> {
  switch (toolName) {
    case 'search_docs': {
      const parsed = searchDocsInput.safeParse(input);
      if (!parsed.success) return invalidArguments(toolName, parsed.error);
      return session.searchDocs(parsed.data);
    }
    case 'read_section': {
      const parsed = readSectionInput.safeParse(input);
      if (!parsed.success) return invalidArguments(toolName, parsed.error);
      return session.readSection(parsed.data);
    }
    case 'read_neighbors': {
      const parsed = chunkInput.safeParse(input);
      if (!parsed.success) return invalidArguments(toolName, parsed.error);
      return session.readNeighbors(parsed.data);
    }
    default:
      return {
        ok: false,
        error: `unknown tool "${toolName}". Available tools: ${Object.keys(agentTools).join(', ')}.`,
      };
  }
}

function invalidArguments(toolName: string, error: z.ZodError): ToolOutcome {
  const issues = error.issues.map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`).join('; ');
  return { ok: false, error: `invalid arguments for ${toolName}: ${issues}. Send a JSON object matching the tool schema.` };
}
