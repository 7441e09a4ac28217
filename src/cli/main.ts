import { Command, CommanderError } from 'commander';
import { AtlasError } from '../errors.ts';
import { registerAskCommand } from './ask-command.ts';
import { registerEvalCommands } from './eval-command.ts';
import { registerIngestCommand } from './ingest-command.ts';
import type { CliIO } from './io.ts';
import { registerSearchCommand } from './search-command.ts';

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
  registerIngestCommand(program, io);
  registerSearchCommand(program, io);
  registerAskCommand(program, io);
  registerEvalCommands(program, io);
  try {
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

