// The conversations of the CLI: `atlas ask --conversation ID`, `atlas chat` and `atlas serve` share one store:
// the state database beside the index, or the state tables of a `postgres://` index.
import path from 'node:path';
import { Option } from 'commander';
import type { RoutedAskOptions, RoutedRun } from '../../agent/policy/route.ts';
import { askInConversation } from '../../conversations/ask.ts';
import { stateDbPath } from '../../conversations/state-db.ts';
import { openConversationStore } from '../../conversations/sqlite-store.ts';
import type { ConversationStore } from '../../conversations/store.ts';
import type { McpSessionStore } from '../../conversations/mcp-sessions.ts';
import { AtlasError } from '../../errors.ts';
import type { IndexBackend, SearchFilter } from '../../index/types.ts';
import type { CliIO } from '../io.ts';
import { isPostgresUrl, parsePostgresUrl } from '../../index/postgres/postgres-url.ts';
import { dbPath } from '../options/options.ts';
import { nonEmpty } from '../options/option-values.ts';

/** `--conversation ID`: continue a stored conversation, or `new` to start one. */
export function conversationOption(): Option {
  return new Option('--conversation <id>', 'continue this conversation (new: start one and print its id)').argParser(nonEmpty('--conversation', 'new'));
}

/** `--state PATH`: the conversations state database (default: the index file + ".state.db"; with a postgres:// index, its database). */
export function stateOption(): Option {
  return new Option('--state <path>', 'conversations state database, an SQLite file (default: <db>.state.db; with --db postgres://..., tables in that database)').argParser(
    nonEmpty('--state', '.atlas/index.db.state.db'),
  );
}

/**
 * The SQLite state database of a command: `--state`, else beside `--db` (a `postgres://` index
 * without `--state` keeps its conversations in its own database: {@link openCliStore}).
 *
 * @example
 * statePath(io, { db: '.atlas/index.db' }); // '<cwd>/.atlas/index.db.state.db'
 * statePath(io, { db: 'postgres://atlas@db:5432/docs', state: 'state.db' }); // '<cwd>/state.db'
 */
function statePath(io: CliIO, options: { db?: string; state?: string }): string {
  if (options.state !== undefined) return path.resolve(io.cwd, options.state);
  return stateDbPath(dbPath(io, options.db));
}

/**
 * Opens the store of a command (its wall clock is the real one: the CLI is the edge): with
 * `--db postgres://...` and no `--state`, the state tables of that database (every `atlas serve`
 * replica on it shares them); else the SQLite file of {@link statePath}.
 *
 * @example
 * const store = await openCliStore(io, { db: 'postgres://atlas@db/docs' }); // the database's state tables
 */
export async function openCliStore(io: CliIO, options: { db?: string; state?: string }): Promise<ConversationStore> {
  return (await openCliState(io, options)).store;
}

/**
 * The state of a command: the conversation store of {@link openCliStore} and, with the
 * database's state tables, the shared MCP sessions (`atlas serve` replicas share both; with an
 * SQLite state file, MCP sessions stay in the process).
 *
 * @example
 * const { store, mcpSessions } = await openCliState(io, { db: 'postgres://atlas@db/docs' });
 */
export async function openCliState(io: CliIO, options: { db?: string; state?: string }): Promise<{ store: ConversationStore; mcpSessions?: McpSessionStore }> {
  if (options.state === undefined && isPostgresUrl(options.db)) {
    // Loaded only for a PostgreSQL index, like the index's own driver.
    const { openPostgresState } = await import('../../conversations/postgres-state.ts');
    const { createPostgresConversationStore } = await import('../../conversations/postgres-store.ts');
    const { createPostgresMcpSessions } = await import('../../conversations/mcp-sessions.ts');
    const state = await openPostgresState({ url: options.db });
    return { store: createPostgresConversationStore(state), mcpSessions: createPostgresMcpSessions(state) };
  }
  return { store: openConversationStore({ path: statePath(io, options) }) };
}

/**
 * Where a command's conversations are, as messages name it: the SQLite file, or the PostgreSQL
 * database (without its password).
 *
 * @example
 * stateLocation(io, { db: 'postgres://atlas:pw@db/docs' }); // 'the state tables of postgres://atlas:***@db/docs'
 */
export function stateLocation(io: CliIO, options: { db?: string; state?: string }): string {
  if (options.state === undefined && isPostgresUrl(options.db)) return `the state tables of ${parsePostgresUrl(options.db).shown}`;
  return statePath(io, options);
}

/**
 * The conversation a command works in: `new` creates one for the asker's groups and filter
 * (announced on stderr with how to continue it); an id must be one of the asker's, and keeps the
 * filter it was created with (a different `--version` or `--label` is noted on stderr as ignored).
 *
 * @example
 * const id = await resolveConversation(io, store, 'new', filter, stateLocation(io, options)); // stderr: "atlas: conversation … started ..."
 */
export async function resolveConversation(io: CliIO, store: ConversationStore, id: string, filter: SearchFilter | undefined, file: string): Promise<string> {
  const principal = filter?.principal;
  if (id === 'new') {
    const { principal: _principal, ...rest } = filter ?? {};
    const created = await store.create({ ...(principal ? { principal } : {}), filter: rest });
    io.stderr(`atlas: conversation ${created.id} started (continue it with atlas ask --conversation ${created.id} "...", or atlas chat --conversation ${created.id})\n`);
    return created.id;
  }
  const found = await store.get(id, principal);
  if (!found) {
    throw new AtlasError(
      'usage',
      `Atlas: no conversation "${id}" in ${file} for these access groups. Pass an id printed by atlas ask --conversation new (with the same --groups), or start one with --conversation new.`,
    );
  }
  if (filter?.version !== undefined && found.filter.version !== filter.version) {
    io.stderr(`atlas: note: conversation ${id} searches version ${found.filter.version ?? 'any'} (as it was created); --version ${filter.version} is ignored.\n`);
  }
  if (filter?.labels !== undefined && labelsText(found.filter.labels) !== labelsText(filter.labels)) {
    io.stderr(`atlas: note: conversation ${id} searches ${found.filter.labels === undefined ? 'no labels' : `labels ${labelsText(found.filter.labels)}`} (as it was created); --label ${labelsText(filter.labels).split(' ').join(' --label ')} is ignored.\n`);
  }
  return id;
}

/** Label filters as --label flags write them, in name order: `section=api,guides store=Aundh`. */
function labelsText(labels: SearchFilter['labels']): string {
  return Object.entries(labels ?? {})
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([name, value]) => `${name}=${[value].flat().join(',')}`)
    .join(' ');
}

/**
 * One turn of conversation `id` with the command's options; the run, as `routedAsk` returns it.
 *
 * @example
 * const run = await cliConversationTurn(store, id, 'and how do I cancel it?', filter, { model, index });
 */
export async function cliConversationTurn(
  store: ConversationStore,
  id: string,
  question: string,
  filter: SearchFilter | undefined,
  options: Omit<RoutedAskOptions, 'history' | 'memory' | 'filter' | 'principal'> & { index: IndexBackend },
): Promise<RoutedRun> {
  const reply = await askInConversation(store, id, question, filter?.principal, options);
  if (!reply) throw new AtlasError('internal', `Atlas: conversation ${id} disappeared during the turn.`);
  return reply.run;
}
