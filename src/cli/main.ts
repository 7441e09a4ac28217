import { Command, CommanderError } from 'commander';
import { AtlasError } from '../errors.ts';
import type { CliIO } from './io.ts';

type Register = (program: Command, io: CliIO) => void;

/**
 * The commands by name, each loaded only when needed: `atlas search` need not load the AI SDK
 * (ask, eval) nor the markdown parser (ingest), which is most of a short command's start-up.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  ingest: async () => (await import('./ingest-command.ts')).registerIngestCommand,
  search: async () => (await import('./search-command.ts')).registerSearchCommand,
  ask: async () => (await import('./ask-command.ts')).registerAskCommand,
  eval: async () => (await import('./eval-command.ts')).registerEvalCommands,
};

/**
 * Runs the `atlas` command line and returns the exit code: 0 ok, 1 runtime failure, 2 usage error.
 *
 * @example
 * const code = await runCli(['search', 'ORB-1202', '--json'], io);
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const program = new Command('atlas')
    .description('Agentic RAG over your markdown docs: search, read, search again, answer with verified citations.')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run atlas --help for usage)');
  try {
    // The command named first is the only one registered; anything else (--help, a typo) gets all.
    const named = Object.hasOwn(COMMANDS, argv[0] ?? '') ? [argv[0]!] : Object.keys(COMMANDS);
    for (const name of named) (await COMMANDS[name]!())(program, io);
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return exitCodeOf(error, io);
  }
}

function exitCodeOf(error: unknown, io: CliIO): number {
  if (error instanceof CommanderError) {
    // commander already printed its message; help and version are successes.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.exitCode === 0) return 0;
    return 2;
  }
  if (error instanceof AtlasError) {
    io.stderr(`${error.message}\n`);
    return error.code === 'usage' ? 2 : 1;
  }
  io.stderr(`atlas: unexpected failure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\nPlease report it with the command you ran.\n`);
  return 1;
}

