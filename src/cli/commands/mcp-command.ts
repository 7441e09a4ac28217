import type { Command } from 'commander';
import { createAtlasMcpServer, filterRule } from '../../mcp/server.ts';
import { serveStdio } from '../../mcp/stdio.ts';
import type { CliIO } from '../io.ts';
import { commandTracing } from '../options/tracing-option.ts';
import { cliFilter, groupsOption, labelOption, type AccessOptions } from '../options/access-options.ts';
import { MODEL_SPEC_HELP } from './ask-command.ts';
import { commandConfig, configOption, indexDocsRoot } from '../options/config-option.ts';
import { cliModel } from '../options/model-option.ts';
import { commandPolicy } from '../options/policy-option.ts';
import { nonEmpty } from '../options/option-values.ts';
import { dbOption, positiveInt, versionOption } from '../options/options.ts';
import { readDbOption } from '../options/read-db.ts';
import { releaseLineNotes } from '../options/release-lines.ts';
import { requireIndex } from '../require-index.ts';
import { deadlineOption, resolveRunLimits, timeoutOption } from '../options/run-limits.ts';
import { embedOption, modeOption, rerankOption, openSearchIndex, type RetrievalCliOptions } from '../options/embed-option.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

interface McpOptions extends AccessOptions, RetrievalCliOptions {
  db: string;
  maxSearches: number;
  model?: string;
  /** ms, from `--timeout <seconds>`. */
  timeout?: number;
  /** ms, from `--deadline <seconds>`. */
  deadline?: number;
  policy?: string;
  strict?: boolean;
  config?: string;
}

/**
 * `atlas mcp`: the MCP server over stdio (for Claude Desktop, Claude Code, Cursor, ...). One
 * MCP session per process: one search session, its budget and seen passages, under the filters
 * of the command line. stdout carries the protocol only; every message goes to stderr.
 */
export function registerMcpCommand(program: Command, io: CliIO): void {
  program
    .command('mcp')
    .description(COMMAND_SUMMARIES.mcp!.description)
    .addOption(dbOption())
    .addOption(readDbOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .addOption(versionOption())
    .addOption(labelOption())
    .addOption(groupsOption())
    .option('--max-searches <n>', 'search_docs calls per MCP session (and per ask run)', positiveInt('--max-searches'), 6)
    .option('--model <spec>', `model of the ask tool: ${MODEL_SPEC_HELP}`, nonEmpty('--model', 'offline'))
    .addOption(timeoutOption())
    .addOption(deadlineOption())
    .option('--policy <file>', 'policy file of mandatory retrievals every ask runs (YAML, see docs/policy.md)', nonEmpty('--policy', 'examples/allergy/policy.yaml'))
    .option('--strict', 'with a policy (--policy, or policy: in the config): an ask citing none of the pages a fired rule requires abstains')
    .addOption(configOption())
    .action(async (options: McpOptions) => {
      // With an OTel exporter configured: a span per ask call, the parent of its run's spans.
      const tracing = await commandTracing(io, { stdoutIsProtocol: true });
      const config = await commandConfig(io, options, await indexDocsRoot(io, options.db));
      const policy = commandPolicy(io, options, config);
      const filter = cliFilter(io.env, options);
      const limits = resolveRunLimits(io.env, options);
      await requireIndex(io, options.db);
      const { model, spec, price, closestModel } = await cliModel(io, options.model);
      // A long-lived reader: an `atlas ingest --rebuild` that replaces the file is served from the next tool call on.
      const index = await openSearchIndex(io, options, { follow: true });
      try {
        for (const note of await releaseLineNotes(index, options.version)) io.stderr(`atlas: note: ${note}\n`);
        const stats = await index.stats();
        const server = createAtlasMcpServer({
          index,
          ...(filter ? { filter } : {}),
          maxSearches: options.maxSearches,
          ask: { model, ...(closestModel ? { closestModel } : {}), modelSpec: spec, price, maxSearches: options.maxSearches, now: io.now, ...limits, ...policy, ...(config && config.modelLabels.length > 0 ? { modelLabels: config.modelLabels } : {}), ...(tracing ? { tracing } : {}) },
          log: io.stderr,
        });
        io.stderr(
          `atlas mcp: serving ${stats.docs} docs (${stats.chunks} chunks) over stdio; ${options.maxSearches} searches per session; ask model: ${spec}.${filterRule(filter)}\n`,
        );
        // The protocol needs the process's own streams (CliIO carries text only).
        await serveStdio(server, { input: process.stdin, output: process.stdout });
      } finally {
        await index.close();
        await tracing?.shutdown();
      }
    });
}
