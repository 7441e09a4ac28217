import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { SearchMemory } from '../agent/session/search-memory.ts';
import { SearchSession } from '../agent/session/search-session.ts';
import { principalGroups } from '../index/filter.ts';
import { withIndexLease } from '../index/index-lease.ts';
import type { IndexBackend, Principal, SearchFilter } from '../index/types.ts';
import { registerAskTool, type AskToolOptions } from './ask-tool.ts';
import { budgetRule } from './budget.ts';
import { registerResources } from './resources.ts';
import { registerSearchTools } from './search-tools.ts';
import type { CallLog } from './results.ts';
import { createSerialQueue } from './serial.ts';

/** The version of this Atlas (package.json), announced as the MCP server's version. */
const ATLAS_PACKAGE_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** Options of {@link createAtlasMcpServer}: one MCP session's index, enforced filters and budget. */
export interface AtlasMcpServerOptions {
  index: IndexBackend;
  /** Enforced on every tool and resource (version, labels, principal); no argument can widen it. */
  filter?: SearchFilter;
  /** Who is asking (e.g. from an HTTP token); with `filter.principal` too, only groups in both count. */
  principal?: Principal;
  /** search_docs calls allowed in this MCP session, duplicates included (default 6). */
  maxSearches?: number;
  /** Tokens per page of read_section (default 800, see SearchSessionOptions). */
  readTokens?: number;
  /** The model of the `ask` tool; without it there is no `ask` tool. */
  ask?: AskToolOptions;
  /** Receives one line per tool call (tool, arguments, outcome); `atlas mcp` writes them to stderr. */
  log?: CallLog;
}

/**
 * An MCP server for ONE MCP session: the tools `search_docs`, `read_section`, `read_neighbors`
 * (and `ask` with a model) over one {@link SearchSession}, so passages already shown are
 * skipped, repeated queries are refused and the budget holds for the whole session; and the
 * resources `atlas://chunk/{chunkId}` and `atlas://doc/{docId}`. Connect it to one transport;
 * make a new one per session.
 *
 * @example
 * const server = createAtlasMcpServer({ index, filter: { version: '3.x' }, maxSearches: 6 });
 * await server.connect(new StdioServerTransport());
 */
export function createAtlasMcpServer(options: AtlasMcpServerOptions): McpServer {
  return createAtlasMcpSession(options).server;
}

/** What an MCP session restored on another replica carries (shared-http.ts): the passages shown and the searches used. */
export interface RestoredMcpSession {
  memory: SearchMemory;
  searchesBefore: number;
}

/**
 * {@link createAtlasMcpServer}, plus its search session (what a shared MCP session stores after
 * each request), optionally continuing a `restored` one: its passages are skipped and citable,
 * its searches count toward the budget.
 *
 * @example
 * const { server, session } = createAtlasMcpSession({ index }, { memory, searchesBefore: 2 });
 */
export function createAtlasMcpSession(options: AtlasMcpServerOptions, restored?: RestoredMcpSession): { server: McpServer; session: SearchSession } {
  const filter = enforcedFilter(options.filter, options.principal);
  const session = new SearchSession({
    index: options.index,
    ...(filter ? { filter } : {}),
    maxSearches: options.maxSearches ?? 6,
    ...(options.readTokens === undefined ? {} : { readTokens: options.readTokens }),
    ...(restored ? { memory: restored.memory, searchesBefore: restored.searchesBefore } : {}),
  });
  const rule = filterRule(filter);
  const server = new McpServer(
    { name: 'atlas', title: 'Atlas docs search', version: ATLAS_PACKAGE_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions: instructions(session.maxSearches, rule, options.ask !== undefined),
    },
  );
  // One tool call at a time, each on one version of the index (a --rebuild meanwhile is seen by the next call).
  const queue = createSerialQueue();
  const serial = <T>(task: () => Promise<T>): Promise<T> => queue(() => withIndexLease(options.index, task));
  registerSearchTools(server, { session, index: options.index, serial, filterRule: rule, ...(filter?.version ? { fixedVersion: filter.version } : {}), ...(options.log ? { log: options.log } : {}) });
  if (options.ask) registerAskTool(server, { index: options.index, filter, filterRule: rule, ...(options.log ? { log: options.log } : {}) }, options.ask);
  registerResources(server, { index: options.index, ...(filter ? { filter } : {}) });
  return { server, session };
}

/**
 * `filter` with `principal` enforced: its groups, or only those also in `filter.principal`
 * (the same rule as SearchSession's `principal` option).
 *
 * @example
 * enforcedFilter({ version: '3.x' }, { groups: ['staff'] }); // { version: '3.x', principal: { groups: ['staff'] } }
 */
export function enforcedFilter(filter: SearchFilter | undefined, principal: Principal | undefined): SearchFilter | undefined {
  if (principal === undefined) return filter;
  const groups = principalGroups(principal);
  const fixed = filter?.principal === undefined ? undefined : principalGroups(filter.principal);
  return { ...filter, principal: { groups: fixed === undefined ? [...groups] : groups.filter((group) => fixed.includes(group)) } };
}

/**
 * The sentence naming the filters a server enforces, appended to each tool description; ''
 * when none (anonymous, no version or labels: public pages of every version).
 *
 * @example
 * filterRule({ version: '3.x' }); // ' Fixed by the server: version 3.x (and pages for all versions); public pages only.'
 */
export function filterRule(filter: SearchFilter | undefined): string {
  const parts: string[] = [];
  if (filter?.version !== undefined) parts.push(`version ${filter.version} (and pages for all versions)`);
  for (const [name, values] of Object.entries(filter?.labels ?? {})) parts.push(`label ${name} = ${[values].flat().join(' or ')}`);
  const groups = filter?.principal === undefined ? [] : principalGroups(filter.principal);
  if (groups.length > 0) parts.push(`restricted pages of groups ${groups.join(', ')} and public pages`);
  if (parts.length === 0) return '';
  if (groups.length === 0) parts.push('public pages only');
  return ` Fixed by the server: ${parts.join('; ')}.`;
}

function instructions(maxSearches: number, rule: string, hasAsk: boolean): string {
  return [
    'Atlas searches a team\'s markdown docs. Use search_docs with keywords or exact identifiers, then read_section (paged: follow next_offset) or read_neighbors on the chunk_ids it returns; cite the doc_id and quote the text you were shown.',
    budgetRule(maxSearches),
    hasAsk ? 'ask runs a whole search-and-answer run itself and returns verified citations.' : '',
    'Resources: atlas://chunk/{chunkId} (a section in full) and atlas://doc/{docId} (a whole page).',
    rule.trim(),
  ]
    .filter((line) => line !== '')
    .join(' ');
}
