import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { Route } from '../../agent/policy/route.ts';
import { AtlasError } from '../../errors.ts';
import type { ConversationStore } from '../../conversations/store.ts';
import { createMcpHttpHandler, type McpHttpHandler } from '../../mcp/http.ts';
import { createSharedMcpHttpHandler } from '../../mcp/shared-http.ts';
import { createApp } from '../../server/app.ts';
import { commandTracing } from '../options/tracing-option.ts';
import { conversationsApp } from '../../server/conversations.ts';
import type { ServerDeps } from '../../server/types.ts';
import { parseAuthFile, singleTokenAuth, type AuthConfig } from '../../server/auth.ts';
import { createConcurrencyLimiter, DEFAULT_SERVER_LIMITS, type ConcurrencyLimiter } from '../../server/limits.ts';
import { withRequestLeases } from '../../server/request-lease.ts';
import { parseTrustedProxies } from '../../server/front/client-address.ts';
import { createNodeServer } from '../../server/front/node-server.ts';
import { bodyTimeoutOption, headerTimeoutOption, maxQueuedOption, queueWaitOption, trustProxyOption, type HttpFrontFlags } from '../options/http-front-options.ts';
import { cliFilter, labelOption } from '../options/access-options.ts';
import type { CliIO } from '../io.ts';
import { MODEL_SPEC_HELP } from './ask-command.ts';
import { cliModel, type CliModel } from '../options/model-option.ts';
import { checkAskChoices, nonEmpty, readOptionFile } from '../options/option-values.ts';
import { commandConfig, configOption, indexDocsRoot, modelLabelNotes } from '../options/config-option.ts';
import { commandPolicy } from '../options/policy-option.ts';
import { openCliState, stateOption } from './conversation-cli.ts';
import { dbOption, positiveInt, versionOption } from '../options/options.ts';
import { readDbOption } from '../options/read-db.ts';
import { releaseLineNotes } from '../options/release-lines.ts';
import { requireIndex } from '../require-index.ts';
import { deadlineOption, resolveRunLimits, timeoutOption } from '../options/run-limits.ts';
import { embedOption, modeOption, rerankOption, openSearchIndex, type RetrievalCliOptions } from '../options/embed-option.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { processStopSignal } from '../stop-signal.ts';
import type { WatchDeps } from '../watch/watch-ingest.ts';
import type { IngestWatcher } from '../watch/ingest-watcher.ts';
import type { IngestOutcome, IngestPlan } from './ingest-run.ts';

interface ServeOptions extends RetrievalCliOptions, HttpFrontFlags {
  port: number;
  host: string;
  db: string;
  model?: string;
  maxSearches: number;
  version?: string;
  label?: Record<string, string[]>;
  firstTurn: string;
  route: string;
  timeout?: number;
  deadline?: number;
  policy?: string;
  strict?: boolean;
  config?: string;
  state?: string;
  auth?: string;
  cors?: string[];
  maxConcurrent: number;
  maxConcurrentPerClient: number;
  maxBody: number;
  watch?: string;
}

/** How long a stopping server waits for requests in flight before it closes their connections. */
export const SHUTDOWN_GRACE_MS = 5_000;

/** What `atlas serve` waits on besides the network; tests pass their own. */
export interface ServeCommandDeps {
  /** Resolves with a name (`SIGTERM`) when the server should stop (default: the first SIGINT or SIGTERM of the process). */
  stopRequested?: () => Promise<string>;
  /** How long requests in flight may finish once stopping (default {@link SHUTDOWN_GRACE_MS}). */
  shutdownGraceMs?: number;
  /** Resolves `--model` (default: `cliModel`, as `atlas ask`). */
  resolveModel?: (io: CliIO, spec: string | undefined) => CliModel | Promise<CliModel>;
  /** The file watcher and timers of `--watch` (default: chokidar and the process's timers). */
  watch?: WatchDeps;
}

/**
 * `atlas serve`: the JSON and streaming API of docs/server.md over the index at `--db`, on
 * `--host`:`--port` (`--port 0` picks a free port), with the ask options of `atlas ask` as the
 * defaults and bounds of every request. Prints `listening on http://HOST:PORT` on stderr; on
 * SIGINT or SIGTERM it stops accepting, lets requests in flight finish (up to 5 s), closes the
 * connections left (which aborts their runs), waits for those runs, then closes the index.
 */
export function registerServeCommand(program: Command, io: CliIO, deps: ServeCommandDeps = {}): void {
  program
    .command('serve')
    .description(COMMAND_SUMMARIES.serve!.description)
    .option('--port <n>', 'port to listen on (0 picks a free one)', portNumber, 8787)
    .option('--host <address>', 'address to listen on (127.0.0.1 is this machine only)', nonEmpty('--host', '127.0.0.1'), '127.0.0.1')
    .addOption(dbOption())
    .addOption(readDbOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .option('--model <spec>', MODEL_SPEC_HELP, nonEmpty('--model', 'offline'))
    .option('--max-searches <n>', 'search budget of an ask (a request may ask for fewer)', positiveInt('--max-searches'), 6)
    .addOption(versionOption())
    .addOption(labelOption())
    .option('--first-turn <policy>', 'required (always search first) or auto (may answer directly)', 'required')
    .option('--route <route>', 'route of an ask that names none: agentic, classic or auto', 'agentic')
    .addOption(timeoutOption())
    .addOption(deadlineOption())
    .option('--policy <file>', 'policy file of mandatory retrievals (YAML, see docs/policy.md)', nonEmpty('--policy', 'examples/allergy/policy.yaml'))
    .option('--strict', 'with a policy (--policy, or policy: in the config): abstain when the answer cites none of the pages a fired rule requires')
    .addOption(configOption())
    .addOption(stateOption())
    .option('--auth <file>', 'YAML/JSON file mapping bearer tokens to access groups (default: ATLAS_TOKEN, one token, public pages)', nonEmpty('--auth', 'auth.yaml'))
    .addOption(new Option('--cors <origin>', 'allow browser requests from this origin (repeatable); default: none').argParser(collectOrigins))
    .option('--max-concurrent <n>', 'requests in flight at once, all clients', positiveInt('--max-concurrent'), DEFAULT_SERVER_LIMITS.maxConcurrent)
    .option('--max-concurrent-per-client <n>', 'requests in flight at once per token (or address)', positiveInt('--max-concurrent-per-client'), DEFAULT_SERVER_LIMITS.maxConcurrentPerClient)
    .option('--max-body <bytes>', 'largest request body', positiveInt('--max-body'), DEFAULT_SERVER_LIMITS.maxBodyBytes)
    .addOption(trustProxyOption())
    .addOption(headerTimeoutOption())
    .addOption(bodyTimeoutOption())
    .addOption(queueWaitOption())
    .addOption(maxQueuedOption())
    .option('--watch <dir>', 'index this docs folder first, then again whenever a file changes, is added or removed (as atlas ingest --watch)', nonEmpty('--watch', 'docs'))
    .action(async (options: ServeOptions) => {
      checkAskChoices(options);
      // With an OTel exporter configured: a server span per request, the parent of its run's spans.
      const tracing = await commandTracing(io);
      // --watch: the folder is indexed before anything reads the index (it may create it).
      const watchPlan = options.watch === undefined ? undefined : await firstWatchIngest(io, options.watch, options);
      const config = await commandConfig(io, options, await indexDocsRoot(io, options.db));
      const policy = commandPolicy(io, options, config);
      const limits = resolveRunLimits(io.env, options);
      // The principal of a request comes from its token: ATLAS_GROUPS is not the server's.
      const filter = cliFilter({}, { ...(options.version ? { version: options.version } : {}), ...(options.label ? { label: options.label } : {}) });
      if (io.env.ATLAS_GROUPS?.trim()) io.stderr('atlas: note: ATLAS_GROUPS is ignored by serve: the groups of a request come from its token (map tokens to groups with --auth FILE).\n');
      const auth = serverAuth(io, options.auth);
      const trustProxy = options.trustProxy ? parseTrustedProxies(options.trustProxy) : undefined;
      await requireIndex(io, options.db);
      const { model, spec, price, closestModel } = await (deps.resolveModel ?? cliModel)(io, options.model);
      // A long-lived reader: an `atlas ingest --rebuild` that replaces the file is served from the next request on.
      const index = await openSearchIndex(io, options, { follow: true });
      const limiter = createConcurrencyLimiter({ maxConcurrent: options.maxConcurrent, maxConcurrentPerClient: options.maxConcurrentPerClient, queueMs: options.queueWait, maxQueued: options.maxQueued }, io.now);
      let server: Server | undefined;
      let store: ConversationStore | undefined;
      let mcp: McpHttpHandler | undefined;
      let watcher: IngestWatcher | undefined;
      try {
        const notes = [...(await releaseLineNotes(index, options.version)), ...(await modelLabelNotes(index, config, filter))];
        for (const note of notes) io.stderr(`atlas: note: ${note}\n`);
        const state = await openCliState(io, options);
        store = state.store;
        const serverDeps: ServerDeps = { index, model, ...(closestModel ? { closestModel } : {}), modelSpec: spec, price, now: io.now, maxSearches: options.maxSearches, limits, route: options.route as Route, firstTurn: options.firstTurn as 'required' | 'auto', log: (line: string) => io.stderr(`${line}\n`), ...(filter ? { filter } : {}), ...policy, ...(config && config.modelLabels.length > 0 ? { modelLabels: config.modelLabels } : {}), ...(tracing ? { tracing } : {}) };
        // The MCP endpoint: the search session of docs/mcp.md per MCP session, under the server's filter and the token's principal;
        // with a postgres:// --db its sessions live in the database, so every replica serves them (mcp/shared-http.ts).
        const mcpOptions = { index, maxSearches: options.maxSearches, now: io.now, maxBodyBytes: options.maxBody, ask: { model, ...(closestModel ? { closestModel } : {}), modelSpec: spec, price, maxSearches: options.maxSearches, now: io.now, ...limits, ...policy, ...(serverDeps.modelLabels ? { modelLabels: serverDeps.modelLabels } : {}), ...(tracing ? { tracing } : {}) }, ...(filter ? { filter } : {}) };
        // Shared sessions keep wall-clock times (compared across replicas), not this process's monotonic io.now.
        mcp = state.mcpSessions ? createSharedMcpHttpHandler({ ...mcpOptions, now: Date.now, sessions: state.mcpSessions }) : createMcpHttpHandler(mcpOptions);
        const app = createApp(serverDeps, {
          ...(auth ? { auth } : {}),
          routes: [conversationsApp(serverDeps, store)],
          mounts: { '/mcp': mcp },
          limits: { maxBodyBytes: options.maxBody },
          limiter,
          ...(options.cors ? { corsOrigins: options.cors } : {}),
          ...(trustProxy ? { trustProxy } : {}),
        });
        // Each request reads one version of the index, start to end (a rebuild meanwhile is seen by the next one).
        const leased = withRequestLeases(app.fetch, index);
        const routes = app.routes.map((route) => route.path);
        const handler = tracing ? (await import('../../telemetry/http-spans.ts')).withRequestSpans(leased, { tracer: tracing.tracer, routes }) : leased;
        server = createNodeServer(handler, { headerTimeoutMs: options.headerTimeout, bodyTimeoutMs: options.bodyTimeout });
        const address = await listen(server, options.port, options.host);
        if (!auth && !isLoopback(options.host)) io.stderr(`atlas: warning: no ATLAS_TOKEN or --auth FILE: anyone who reaches ${options.host} can ask and read the public pages.\n`);
        io.stderr(`atlas serve: ${auth ? `${auth.tokens.length} token${auth.tokens.length === 1 ? '' : 's'} from ${auth.source}` : 'no auth'}, model ${spec}\n`);
        io.stderr(`listening on ${serverUrl(address)}\n`);
        // Each re-ingest commits in one transaction; requests go on reading the last committed version meanwhile.
        if (watchPlan) watcher = await (await import('../watch/watch-ingest.ts')).startIngestWatch(watchPlan, { onIngested: (outcome, changes, ms) => io.stderr(`atlas serve: ${changes.join(', ')} changed: ${ingestSummary(outcome)} (${Math.round(ms)} ms)\n`), ...(deps.watch ? { deps: deps.watch } : {}) });
        const signal = await (deps.stopRequested ?? processStopSignal)();
        io.stderr(`atlas serve: ${signal}: stopping\n`);
      } finally {
        await watcher?.close();
        if (server) await close(server, limiter, deps.shutdownGraceMs ?? SHUTDOWN_GRACE_MS);
        await mcp?.close();
        await store?.close();
        await index.close();
        await tracing?.shutdown();
      }
      io.stderr('atlas serve: stopped\n');
    });
}

/**
 * `serve --watch <dir>`: the first ingest of the folder, into `--db` (the same ingest as `atlas
 * ingest`). Invalid pages are reported and the server starts on the index as it was (saving the
 * fixed page indexes it); any other failure stops the command.
 */
async function firstWatchIngest(io: CliIO, dir: string, options: ServeOptions): Promise<IngestPlan> {
  // Loaded only with --watch: serve without it loads neither the corpus parser nor the file watcher.
  const { watchFailure } = await import('../watch/watch-ingest.ts');
  const { planIngest, runIngest } = await import('./ingest-run.ts');
  const plan = await planIngest(io, dir, { db: options.db, watch: true, ...(options.embed ? { embed: options.embed } : {}), ...(options.config ? { config: options.config } : {}) });
  try {
    io.stderr(`atlas serve: ${ingestSummary(await runIngest(plan))}\n`);
  } catch (error) {
    if ((error as { code?: string }).code !== 'invalid-corpus') throw error;
    io.stderr(`${watchFailure(error, `the first ingest of ${dir}`, plan.shown)}\n`);
  }
  return plan;
}

/** One ingest in a line of the server's log. */
function ingestSummary({ report }: IngestOutcome): string {
  const indexed = report.added.length + report.updated.length + report.unchanged.length;
  return `indexed ${indexed} docs (${report.chunks} chunks): ${report.added.length} added, ${report.updated.length} updated, ${report.unchanged.length} unchanged, ${report.removed.length} removed`;
}

/** The auth of the server: `--auth FILE` wins over `ATLAS_TOKEN`; neither is no auth. */
function serverAuth(io: CliIO, file: string | undefined): AuthConfig | undefined {
  if (file !== undefined) {
    const text = readOptionFile(io, file, 'auth file', 'Pass a YAML file of tokens, e.g. atlas serve --auth auth.yaml (format in docs/server.md).');
    if (io.env.ATLAS_TOKEN?.trim()) io.stderr('atlas: note: --auth FILE is used; ATLAS_TOKEN is ignored.\n');
    return parseAuthFile(text, file);
  }
  const token = io.env.ATLAS_TOKEN;
  return token === undefined || token === '' ? undefined : singleTokenAuth(token, 'ATLAS_TOKEN');
}

function portNumber(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || port > 65_535) throw new InvalidArgumentError(`--port must be a port number from 0 to 65535, got "${value}" (e.g. --port 8787, or --port 0 for a free one).`);
  return port;
}

function collectOrigins(value: string, previous: string[] | undefined): string[] {
  let origin: string;
  try {
    origin = new URL(value).origin;
  } catch {
    origin = 'null';
  }
  if (origin === 'null' || origin !== value.replace(/\/$/, '')) {
    throw new InvalidArgumentError(`--cors must be an origin (scheme, host and port, no path), got "${value}" (e.g. --cors https://docs.example.com).`);
  }
  return [...(previous ?? []), origin];
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      const why = error.code === 'EADDRINUSE' ? `port ${port} is in use` : error.code === 'EADDRNOTAVAIL' ? `${host} is not an address of this machine` : error.code === 'EACCES' ? `permission denied for port ${port}` : error.message;
      reject(new AtlasError('usage', `Atlas: cannot listen on ${host}:${port}: ${why}. Pass another --port (0 picks a free one) or --host.`));
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stops accepting, waits for the requests in flight (up to the grace), then drops the connections
 * left, which aborts their runs, and waits (up to the grace again) for those runs to end.
 */
async function close(server: Server, limiter: ConcurrencyLimiter, graceMs: number): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await within(limiter.idle(), graceMs);
  server.closeAllConnections();
  await within(limiter.idle(), graceMs);
  await closed;
}

/** `promise`, or nothing after `ms`. */
async function within(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

function serverUrl(address: AddressInfo): string {
  const host = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
