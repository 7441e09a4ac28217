import type { Command } from 'commander';
import { routedAsk, type Route } from '../../agent/policy/route.ts';
import type { AgentRun } from '../../agent/run-types.ts';
import type { RunEvent } from '../../agent/events.ts';
import { parseAllowedDomains } from '../../agent/web/web.ts';
import { AtlasError } from '../../errors.ts';
import type { createWebSearch } from '../../models/web-tools.ts';
import type { CliIO } from '../io.ts';
import { cliModel } from '../options/model-option.ts';
import { checkAskChoices, nonEmpty } from '../options/option-values.ts';
import { cliFilter, groupsOption, labelOption } from '../options/access-options.ts';
import { commandConfig, configOption, indexDocsRoot, modelLabelNotes } from '../options/config-option.ts';
import { commandPolicy } from '../options/policy-option.ts';
import { cliConversationTurn, conversationOption, openCliStore, resolveConversation, stateLocation, stateOption } from './conversation-cli.ts';
import { dbOption, positiveInt, versionOption } from '../options/options.ts';
import { readDbOption } from '../options/read-db.ts';
import { releaseLineNotes } from '../options/release-lines.ts';
import { requireIndex } from '../require-index.ts';
import { deadlineOption, resolveRunLimits, timeoutOption } from '../options/run-limits.ts';
import { modelFailed } from '../../agent/stop-conditions.ts';
import { embedOption, modeOption, rerankOption, openSearchIndex, type RetrievalCliOptions } from '../options/embed-option.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { answerLine, citationLines, closestLines } from './answer-text.ts';
import { commandTracing } from '../options/tracing-option.ts';
import { inSpan, type RunTracing } from '../../telemetry/tracing.ts';

interface AskOptions extends RetrievalCliOptions {
  model?: string;
  maxSearches: number;
  version?: string;
  label?: Record<string, string[]>;
  groups?: string[];
  firstTurn: string;
  route: string;
  db: string;
  json?: boolean;
  /** ms, from `--timeout <seconds>`. */
  timeout?: number;
  /** ms, from `--deadline <seconds>`. */
  deadline?: number;
  policy?: string;
  strict?: boolean;
  strictClaims?: boolean;
  config?: string;
  conversation?: string;
  state?: string;
  /** `--web a.org,b.com`: the allow-list of the provider's web search. */
  web?: string;
  webFallback?: boolean;
}

/** The model specs as the help of ask and eval lists them. */
export const MODEL_SPEC_HELP = 'offline | openai:<id> | anthropic:<id> | ollama:<id> | openai-compatible:<baseURL>#<id>';

/**
 * `atlas ask "<question>"`: the agentic loop (or `--route classic|auto`, see `routedAsk`), with live progress on stderr. Exits 1 when the run
 * ended without an answer because the model failed (stopReason `error`, `timeout` or
 * `deadline`), with the cause on stderr; the run is still printed (text or `--json`).
 */
export function registerAskCommand(program: Command, io: CliIO): void {
  program
    .command('ask')
    .description(COMMAND_SUMMARIES.ask!.description)
    .argument('<question>')
    .option('--model <spec>', MODEL_SPEC_HELP, nonEmpty('--model', 'offline'))
    .option('--max-searches <n>', 'search budget', positiveInt('--max-searches'), 6)
    .addOption(versionOption())
    .addOption(labelOption())
    .addOption(groupsOption())
    .option('--first-turn <policy>', 'required (always search first) or auto (may answer directly)', 'required')
    .option('--route <route>', 'agentic (the loop), classic (one retrieval, one call) or auto (classic, escalating to the agent when its answer fails a check)', 'agentic')
    .addOption(timeoutOption())
    .addOption(deadlineOption())
    .addOption(dbOption())
    .addOption(readDbOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .option('--policy <file>', 'policy file of mandatory retrievals (YAML, see docs/policy.md)', nonEmpty('--policy', 'examples/allergy/policy.yaml'))
    .option('--strict', 'with a policy (--policy, or policy: in the config): abstain when the answer cites none of the pages a fired rule requires')
    .option('--strict-claims', 'remove the claims no verified quote supports from the answer, and abstain when none is left (with --strict: the policy check first)')
    .addOption(configOption())
    .addOption(conversationOption())
    .addOption(stateOption())
    .option('--web <domains>', 'let the model search the web on these comma-separated domains (and subdomains) with its provider\'s web search: openai:<id> or anthropic:<id> models only (docs/web-search.md)')
    .option('--web-fallback', 'with --web: answer from the docs first, and add the web only when that run abstains')
    .option('--json', 'print the whole run as JSON')
    .action(async (question: string, options: AskOptions) => {
      checkAskChoices(options);
      // With an OTel exporter configured, the command is one trace: `atlas ask` and its run's spans.
      const tracing = await commandTracing(io);
      try {
        await (tracing ? inSpan(tracing.tracer, 'atlas ask', { 'atlas.route': options.route }, () => ask(io, question, options, tracing)) : ask(io, question, options, undefined));
      } finally {
        await tracing?.shutdown();
      }
    });
}

/** One `atlas ask`: the run (or a turn of a stored conversation), printed; throws when the model failed. */
async function ask(io: CliIO, question: string, options: AskOptions, tracing: RunTracing | undefined): Promise<void> {
  const config = await commandConfig(io, options, await indexDocsRoot(io, options.db));
  const policy = commandPolicy(io, options, config);
  const limits = resolveRunLimits(io.env, options);
  const filter = cliFilter(io.env, options);
  await requireIndex(io, options.db);
  const { model, spec, price, closestModel } = await cliModel(io, options.model);
  const web = await cliWeb(model, options);
  const index = await openSearchIndex(io, options);
  let run: AgentRun;
  let conversationId: string | undefined;
  try {
    const notes = [...(await releaseLineNotes(index, options.version)), ...(await modelLabelNotes(index, config, filter))];
    for (const note of notes) io.stderr(`atlas: note: ${note}\n`);
    const askOptions = {
      route: options.route as Route,
      model,
      ...(closestModel ? { closestModel } : {}),
      index,
      price,
      maxSearches: options.maxSearches,
      firstTurn: options.firstTurn as 'required' | 'auto',
      now: io.now,
      ...limits,
      ...policy,
      ...(options.strictClaims ? { strictClaims: true } : {}),
      ...(config && config.modelLabels.length > 0 ? { modelLabels: config.modelLabels } : {}),
      ...web,
      ...(tracing ? { tracing } : {}),
      onEvent: (event: RunEvent) => printProgress(io, event),
    };
    if (options.conversation === undefined) {
      run = await routedAsk(question, { ...askOptions, ...(filter ? { filter } : {}) });
    } else {
      // A turn of a stored conversation: it sees the earlier turns and skips what they were shown (docs/conversations.md).
      const store = await openCliStore(io, options);
      try {
        conversationId = await resolveConversation(io, store, options.conversation, filter, stateLocation(io, options));
        run = await cliConversationTurn(store, conversationId, question, filter, askOptions);
      } finally {
        await store.close();
      }
    }
    io.stdout(options.json ? `${JSON.stringify({ model: spec, ...(config ? { config: config.source } : {}), ...(conversationId ? { conversationId } : {}), ...run, notes })}\n` : formatRun(run, spec));
  } finally {
    await index.close();
  }
  const failure = runFailure(run, spec);
  if (failure) throw new AtlasError('model-call', failure);
}

/** The `web` and `webFallback` options of `--web` / `--web-fallback`, checked before any run starts. */
async function cliWeb(model: Parameters<typeof createWebSearch>[0], options: AskOptions): Promise<{ web?: ReturnType<typeof createWebSearch>; webFallback?: boolean }> {
  if (options.web === undefined) {
    if (options.webFallback) throw new AtlasError('usage', 'Atlas: --web-fallback needs --web <domains>, the allow-list the fallback may search (e.g. --web docs.python.org --web-fallback).');
    return {};
  }
  if (options.route === 'classic') {
    throw new AtlasError('usage', 'Atlas: --web needs the agent, and --route classic makes one docs retrieval without it. Use --route agentic (the default) or auto, or drop --web.');
  }
  // The providers' web tools (and their clients) are loaded only for --web.
  const { createWebSearch } = await import('../../models/web-tools.ts');
  const web = createWebSearch(model, { allowedDomains: parseAllowedDomains(options.web, '--web'), flag: '--web' });
  return { web, ...(options.webFallback ? { webFallback: true } : {}) };
}

/**
 * The stderr message of a run that ended without an answer because the model failed, naming
 * the cause and the fix; undefined for any other run (an abstention from the docs is an answer).
 *
 * @example
 * runFailure(run, 'openai:gpt-5-mini'); // 'Atlas: the run of model "openai:gpt-5-mini" failed: model call 1 timed out after 60 s ... Raise --timeout ...'
 */
export function runFailure(run: AgentRun, modelSpec: string): string | undefined {
  const { stopReason, errors } = run.trace;
  if (!modelFailed(stopReason)) return undefined;
  const cause = (errors.at(-1) ?? 'unknown error').replace(/\.$/, '');
  const fix =
    stopReason === 'timeout'
      ? 'Raise --timeout (or ATLAS_TIMEOUT, in seconds), or check that the model server answers.'
      : stopReason === 'deadline'
        ? 'Raise --deadline (or ATLAS_DEADLINE, in seconds), or lower --max-searches.'
        : 'Check the model spec, its key and its server; --model offline needs neither.';
  return `Atlas: the run of model "${modelSpec}" failed (stop: ${stopReason}): ${cause}. ${fix}`;
}

/**
 * The live progress of a run on stderr, one line per search, its results and each read (what
 * `atlas ask` and `atlas chat` print while a run works).
 *
 * @example
 * await routedAsk(question, { ...options, onEvent: (event) => printProgress(io, event) }); // stderr: 'searching: What is ORB-1202?\n  5 passages, new docs: ...'
 */
export function printProgress(io: CliIO, event: RunEvent): void {
  if (event.type === 'search-start') {
    const page = event.page === undefined ? '' : ` (page ${event.page})`;
    io.stderr(`searching: ${event.query}${event.version ? ` (version ${event.version})` : ''}${page}\n`);
  }
  if (event.type === 'search-end') {
    const { step } = event;
    io.stderr(`  ${step.chunkIds.length} passages, new docs: ${step.newDocIds.join(', ') || 'none'}${step.note ? ` [${step.note}]` : ''}\n`);
  }
  if (event.type === 'read') io.stderr(`reading: ${event.read.chunkId}${event.read.found ? '' : ' (not found)'}\n`);
}

/**
 * The human-readable rendering of a run: the answer text with its `[n]` markers (or, for a run
 * the model failed, a line saying there is no answer), the citations numbered as the markers
 * (`[1] heading path — file:lines` and the quote), the closest passages of an abstention that
 * found no direct answer, then the trace.
 *
 * @example
 * io.stdout(formatRun(run, 'offline')); // 'The step fails ... [1]\n\nClaims: ...\n\nCitations:\n  [1] Results API > ... — api-results.md:69-70\n ...'
 */
export function formatRun(run: AgentRun, modelSpec: string): string {
  const { answer, trace, usage } = run;
  const lines = [answerLine(run), ''];
  const claims = answer.claims ?? [];
  if (claims.length > 0) {
    const unsupported = claims.filter((claim) => !claim.supported).length;
    lines.push(`Claims: ${claims.length - unsupported} of ${claims.length} supported by a verified quote${unsupported > 0 ? ` (${unsupported} marked [unsupported]; --strict-claims removes them)` : ''}`, '');
  }
  if (answer.citations.length > 0) lines.push('Citations:', ...citationLines(answer.citations), '');
  const closest = closestLines(answer);
  if (closest.length > 0) lines.push(...closest, '');
  if (answer.webCitations && answer.webCitations.length > 0) {
    lines.push('Web citations:');
    answer.webCitations.forEach((citation, position) => {
      lines.push(`  [w${position + 1}] ${citation.url}${citation.title ? ` (${citation.title})` : ''}`);
      if (citation.quote) lines.push(`      "${citation.quote.replace(/\s+/g, ' ')}" (quote not checked: the provider returns no page text)`);
    });
    lines.push('');
  }
  lines.push('Trace:');
  if (trace.web) {
    lines.push(`  web: ${trace.web.offered ? `offered on ${trace.web.allowedDomains.join(', ')}` : 'not offered'} (${trace.web.reason}); searches: ${trace.web.searches}, sources returned: ${trace.web.sources.length}`);
  }
  if (run.webFallbackFrom) lines.push(`  docs-only run set aside: searches ${run.webFallbackFrom.trace.steps.length}, calls ${run.webFallbackFrom.usage.modelCalls} (counted below)`);
  if (run.route) lines.push(`  route: ${run.route} (${run.routeReason ?? 'no reason recorded'})`);
  if (run.escalatedFrom) lines.push(`  classic pass set aside: searches ${run.escalatedFrom.trace.steps.length}, calls ${run.escalatedFrom.usage.modelCalls}, ${(run.escalatedFrom.latencyMs / 1000).toFixed(2)} s (counted below)`);
  for (const firing of trace.policy?.fired ?? []) {
    const required = 'search' in firing.require ? `search "${firing.require.search}"` : `docs ${firing.require.docs.join(', ')}`;
    const missing = firing.missingDocIds.length > 0 ? `, not found: ${firing.missingDocIds.join(', ')}` : '';
    lines.push(`  policy rule "${firing.rule}" fired on "${firing.matched}": ${required} -> required: ${firing.requiredDocIds.join(', ') || 'none found'}${missing}; cited: ${firing.cited ? 'yes' : 'no'}`);
  }
  if (trace.policy && trace.policy.flags.length > 0) lines.push(`  policy flags: ${trace.policy.flags.join(', ')}`);
  trace.steps.forEach((step, position) => {
    const version = step.filter.version ? ` [version ${step.filter.version}]` : '';
    const labels = Object.entries(step.filter.labels ?? {}).map(([name, values]) => ` [label ${name}=${[values].flat().join(',')}]`).join('');
    const groups = step.filter.principal ? ` [groups ${step.filter.principal.groups.join(',') || 'none'}]` : '';
    const page = step.page === undefined || step.page === 1 ? '' : ` [page ${step.page}]`;
    lines.push(`  search ${position + 1}: "${step.query}"${version}${labels}${groups}${page} -> new docs: ${step.newDocIds.join(', ') || 'none'}${step.note ? ` (${step.note})` : ''}`);
  });
  for (const read of trace.reads) lines.push(`  ${read.tool}: ${read.chunkId}${read.found ? '' : ' (not found)'}`);
  if (trace.droppedCitations.length > 0) {
    lines.push(`  dropped citations: ${trace.droppedCitations.map((dropped) => `${dropped.docId} (${dropped.reason})`).join('; ')}`);
  }
  if (trace.abstainReason) lines.push(`  abstained: ${trace.abstainReason}`);
  const cost = usage.costUsd === null ? 'unknown' : `$${usage.costUsd.toFixed(4)}`;
  lines.push(
    `  stop: ${trace.stopReason} | model: ${modelSpec} | calls: ${usage.modelCalls} | tokens: ${usage.inputTokens} in / ${usage.outputTokens} out | cost: ${cost} | ${(run.latencyMs / 1000).toFixed(2)} s`,
  );
  return `${lines.join('\n')}\n`;
}
