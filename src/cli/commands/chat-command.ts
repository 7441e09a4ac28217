import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { AgentRun } from '../../agent/run-types.ts';
import type { Route } from '../../agent/policy/route.ts';
import { AtlasError } from '../../errors.ts';
import { cliFilter, groupsOption, labelOption } from '../options/access-options.ts';
import { MODEL_SPEC_HELP, printProgress } from './ask-command.ts';
import { cliConversationTurn, conversationOption, openCliStore, resolveConversation, stateLocation, stateOption } from './conversation-cli.ts';
import type { CliIO } from '../io.ts';
import { commandTracing } from '../options/tracing-option.ts';
import { cliModel } from '../options/model-option.ts';
import { checkAskChoices, nonEmpty } from '../options/option-values.ts';
import { dbOption, positiveInt, versionOption } from '../options/options.ts';
import { readDbOption } from '../options/read-db.ts';
import { requireIndex } from '../require-index.ts';
import { deadlineOption, resolveRunLimits, timeoutOption } from '../options/run-limits.ts';
import { embedOption, modeOption, rerankOption, openSearchIndex, type RetrievalCliOptions } from '../options/embed-option.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { answerLine, citationLines, closestLines } from './answer-text.ts';

interface ChatOptions extends RetrievalCliOptions {
  model?: string;
  maxSearches: number;
  version?: string;
  label?: Record<string, string[]>;
  groups?: string[];
  route: string;
  db: string;
  state?: string;
  conversation: string;
  timeout?: number;
  deadline?: number;
}

/** What ends a chat besides the end of input. */
const EXIT = /^\/(?:exit|quit)$/i;

/**
 * `atlas chat`: an interactive conversation in the terminal. Each line read from stdin is a
 * turn of one stored conversation (`--conversation new` by default, or an id to continue): the
 * run sees the earlier turns and skips the passages they were shown; its searches and reads
 * stream to stderr as `atlas ask` prints them, the answer and its citations go to stdout. `/exit` or the end of input (Ctrl-D) ends it; the conversation id is
 * printed at the start and the end, so `atlas ask --conversation ID` can continue it.
 */
export function registerChatCommand(program: Command, io: CliIO): void {
  program
    .command('chat')
    .description(COMMAND_SUMMARIES.chat!.description)
    .option('--model <spec>', MODEL_SPEC_HELP, nonEmpty('--model', 'offline'))
    .option('--max-searches <n>', 'search budget of each turn', positiveInt('--max-searches'), 6)
    .addOption(versionOption())
    .addOption(labelOption())
    .addOption(groupsOption())
    .option('--route <route>', 'agentic, classic or auto (see atlas ask)', 'agentic')
    .addOption(conversationOption().default('new'))
    .addOption(stateOption())
    .addOption(timeoutOption())
    .addOption(deadlineOption())
    .addOption(dbOption())
    .addOption(readDbOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .action(async (options: ChatOptions) => {
      checkAskChoices(options);
      if (!io.stdin) throw new AtlasError('usage', 'Atlas: atlas chat reads questions from stdin, and this process has none. Use atlas ask --conversation new "..." instead.');
      const limits = resolveRunLimits(io.env, options);
      const filter = cliFilter(io.env, options);
      await requireIndex(io, options.db);
      const { model, price, closestModel } = await cliModel(io, options.model);
      // With an OTel exporter configured: each turn is a trace (docs/observability.md), flushed when the chat ends.
      const tracing = await commandTracing(io);
      const index = await openSearchIndex(io, options);
      const store = await openCliStore(io, options);
      try {
        const id = await resolveConversation(io, store, options.conversation, filter, stateLocation(io, options));
        io.stderr(`atlas chat: conversation ${id}. Ask a question; /exit or Ctrl-D ends.\n`);
        const lines = createInterface({ input: io.stdin, terminal: false, crlfDelay: Number.POSITIVE_INFINITY });
        // A prompt only where someone types (stderr is a terminal); piped input gets none.
        const prompt = () => (io.isTTY ? io.stderr('> ') : undefined);
        prompt();
        for await (const line of lines) {
          const question = line.trim();
          if (question === '') {
            prompt();
            continue;
          }
          if (EXIT.test(question)) break;
          const run = await cliConversationTurn(store, id, question, filter, {
            route: options.route as Route,
            model,
            ...(closestModel ? { closestModel } : {}),
            index,
            price,
            maxSearches: options.maxSearches,
            now: io.now,
            ...limits,
            ...(tracing ? { tracing } : {}),
            onEvent: (event) => printProgress(io, event),
          });
          io.stdout(formatTurn(run));
          prompt();
        }
        lines.close();
        io.stderr(`atlas chat: conversation ${id} saved; continue it with atlas ask --conversation ${id} "..."\n`);
      } finally {
        await store.close();
        await index.close();
        await tracing?.shutdown();
      }
    });
}

/**
 * One turn as the chat prints it: the answer with its `[n]` markers (claims no verified quote
 * supports carry "[unsupported]"), its citations numbered as the markers (heading path,
 * file:lines, quote), the closest passages of an abstention that found no direct answer, and one
 * line of trace.
 *
 * @example
 * formatTurn(run); // 'Call client.cancel(job_id). [1]\n  [1] Client API > Looking up and cancelling jobs — api-client.md:40-52\n ...'
 */
export function formatTurn(run: AgentRun): string {
  const lines = [answerLine(run), ...citationLines(run.answer.citations), ...closestLines(run.answer)];
  const searches = run.trace.steps.map((step) => `"${step.query}"`).join(', ') || 'none';
  lines.push(`  (searches: ${searches}; stop: ${run.trace.stopReason}${run.trace.abstainReason ? `; abstained: ${run.trace.abstainReason}` : ''})`, '');
  return `${lines.join('\n')}\n`;
}
