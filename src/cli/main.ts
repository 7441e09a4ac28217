import { Command, CommanderError, Help } from 'commander';
import { AtlasError } from '../errors.ts';
import { failureText } from '../stack-trace.ts';
import type { CliIO } from './io.ts';
import { COMMAND_SUMMARIES } from './command-summaries.ts';
import { requireText } from './options/options.ts';
import { ATLAS_VERSION } from './version.ts';

type Register = (program: Command, io: CliIO) => void;

/**
 * The commands by name, each loaded only when needed: `atlas search` need not load the AI SDK
 * (ask, eval) nor the markdown parser (ingest), which is most of a short command's start-up.
 */
const COMMANDS: Record<string, () => Promise<Register>> = {
  ingest: async () => (await import('./commands/ingest-command.ts')).registerIngestCommand,
  search: async () => (await import('./commands/search-command.ts')).registerSearchCommand,
  ask: async () => (await import('./commands/ask-command.ts')).registerAskCommand,
  chat: async () => (await import('./commands/chat-command.ts')).registerChatCommand,
  eval: async () => (await import('./commands/eval-command.ts')).registerEvalCommands,
  mcp: async () => (await import('./commands/mcp-command.ts')).registerMcpCommand,
  serve: async () => (await import('./commands/serve-command.ts')).registerServeCommand,
};

export { ATLAS_VERSION };

/**
 * Runs the `atlas` command line and returns the exit code: 0 ok, 1 runtime failure, 2 usage error.
 *
 * @example
 * const code = await runCli(['search', 'ORB-1202', '--json'], io);
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    // `atlas help search` is search's help: search is the command to load.
    const program = await createProgram(io, (argv[0] === 'help' ? argv[1] : argv[0]) ?? '');
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    return exitCodeOf(error, io);
  }
}

/**
 * The `atlas` program (not run) for a command line starting with `command`: that command
 * registered when it is one; none for `--version`/`-V`; for anything else (`--help`, a typo,
 * nothing) every command listed by its summary only, enough for the help and for commander's
 * "did you mean". Without `command`, every command registered in full. `--version`/`-V` prints
 * the version only before a command (`atlas --version`); after one, `--version` is that
 * command's release-line filter.
 *
 * @example
 * const names = (await createProgram(io)).commands.map((command) => command.name()); // ['ingest', 'search', ...]
 */
export async function createProgram(io: CliIO, command?: string): Promise<Command> {
  const program = new Command('atlas')
    .description('Agentic RAG over your markdown docs: search, read, search again, answer with verified citations.')
    .version(ATLAS_VERSION, '-V, --version', 'print the version of Atlas')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run atlas --help for usage)');
  // The command named first is the only one loaded; `--version` first needs none (loading every
  // command, the AI SDK and the MCP SDK among them, took it from about 120 to 560 ms).
  if (command === undefined) {
    for (const register of Object.values(COMMANDS)) (await register())(program, io);
  } else if (Object.hasOwn(COMMANDS, command)) {
    (await COMMANDS[command]!())(program, io);
  } else if (command !== '--version' && command !== '-V') {
    listCommands(program);
  }
  program.hook('preAction', (_program, action) => {
    // A blank query or question would search for nothing: a usage error, whichever command.
    if (action.name() === 'search') requireText(action.args[0], 'query', 'atlas search "lease timeout"');
    if (action.name() === 'ask') requireText(action.args[0], 'question', 'atlas ask "How do I set the lease duration?"');
  });
  return program;
}

/** Every command on `program` as a name and a description, its help term from {@link COMMAND_SUMMARIES}. */
function listCommands(program: Command): void {
  for (const [name, summary] of Object.entries(COMMAND_SUMMARIES)) program.command(name).description(summary.description);
  const terms = new Help();
  program.configureHelp({ subcommandTerm: (command) => COMMAND_SUMMARIES[command.name()]?.term ?? terms.subcommandTerm(command) });
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
  io.stderr(`atlas: unexpected failure: ${failureText(error)}\nPlease report it with the command you ran.\n`);
  return 1;
}

