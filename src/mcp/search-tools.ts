import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { SearchSession, ToolOutcome, ToolValue } from '../agent/session/search-session.ts';
import type { IndexBackend } from '../index/types.ts';
import { chunkInput, readSectionInput, searchDocsInput, toolDescriptions } from '../agent/session/tools.ts';
import { absentNulls, nullableOptionals } from './inputs.ts';
import { budgetFields, budgetRule } from './budget.ts';
import { readNeighborsOutput, readSectionOutput, searchDocsOutput } from './output-schemas.ts';
import { logged, toolError, toolResult, type CallLog, type LinkedChunk } from './results.ts';
import { chunkUri } from './uris.ts';
import { versionRefusal } from './version-argument.ts';

/** What the search tools of one MCP session share. */
export interface SearchToolsContext {
  session: SearchSession;
  /** The session's index (release lines a `version` argument must name). */
  index: IndexBackend;
  /** The version the server enforces, if any: a different `version` argument is refused. */
  fixedVersion?: string;
  /** Runs the session's calls one at a time. */
  serial: <T>(task: () => Promise<T>) => Promise<T>;
  /** Sentence naming the enforced filters, appended to each description ('' when none). */
  filterRule: string;
  /** One line per call (tool, arguments, outcome), e.g. to stderr. */
  log?: CallLog;
}

const READ_ONLY = { readOnlyHint: true, openWorldHint: false } as const;

/**
 * Registers `search_docs`, `read_section` and `read_neighbors` on `server`, answered by the
 * session of this MCP session with the agent's own input schemas.
 *
 * @example
 * registerSearchTools(server, { session, index, serial: createSerialQueue(), filterRule: '' });
 */
export function registerSearchTools(server: McpServer, context: SearchToolsContext): void {
  const { session, serial, filterRule, log } = context;
  server.registerTool(
    'search_docs',
    {
      title: 'Search the docs',
      description: `${toolDescriptions.search_docs} ${budgetRule(session.maxSearches)}${filterRule}`,
      inputSchema: nullableOptionals(searchDocsInput),
      outputSchema: searchDocsOutput,
      annotations: { ...READ_ONLY, idempotentHint: false },
    },
    logged(log, 'search_docs', (args: unknown) => serial(() => searchDocs(context, absentNulls(searchDocsInput, args)))),
  );
  server.registerTool(
    'read_section',
    {
      title: 'Read a section',
      description: `${toolDescriptions.read_section}${filterRule}`,
      inputSchema: nullableOptionals(readSectionInput),
      outputSchema: readSectionOutput,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    logged(log, 'read_section', (args: unknown) => serial(async () => passageResult(await session.readSection(absentNulls(readSectionInput, args))))),
  );
  server.registerTool(
    'read_neighbors',
    {
      title: 'Read the neighbouring sections',
      description: `${toolDescriptions.read_neighbors}${filterRule}`,
      inputSchema: chunkInput,
      outputSchema: readNeighborsOutput,
      annotations: { ...READ_ONLY, idempotentHint: true },
    },
    logged(log, 'read_neighbors', (args: z.infer<typeof chunkInput>) => serial(async () => neighborsResult(await session.readNeighbors(args)))),
  );
}

async function searchDocs(context: SearchToolsContext, args: z.infer<typeof searchDocsInput>): Promise<CallToolResult> {
  const { session, fixedVersion } = context;
  const refusal = await versionRefusal(context.index, args.version, fixedVersion);
  if (refusal !== undefined) return toolError(`${refusal} This search was not run and did not count (${budgetFields(session).budget}).`);
  const outcome = await session.searchDocs(args);
  if (!outcome.ok) return toolError(outcome.error);
  const budget = budgetFields(session);
  if (session.steps.at(-1)?.note === 'duplicate-query') {
    return toolError(`${String(outcome.value.note)} The refused search counted (${budget.budget}).`);
  }
  const results = (outcome.value.results as ToolValue[]).map(withUri);
  const note = outcome.value.note as string | undefined;
  return toolResult({ results, ...(note === undefined ? {} : { note }), ...budget }, results);
}

function passageResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return toolError(outcome.error);
  const passage = withUri(outcome.value);
  return toolResult(passage, [passage]);
}

function neighborsResult(outcome: ToolOutcome): CallToolResult {
  if (!outcome.ok) return toolError(outcome.error);
  const chunks = (outcome.value.chunks as ToolValue[]).map(withUri);
  return toolResult({ chunks }, chunks);
}

/** A passage of the session with the URI of its chunk resource. */
function withUri(passage: ToolValue): ToolValue & LinkedChunk {
  return { ...passage, chunk_id: String(passage.chunk_id), heading_path: String(passage.heading_path), uri: chunkUri(String(passage.chunk_id)) };
}
