import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { recordingIO } from './test-cli.ts';
import { createProgram, runCli } from './main.ts';

const src = path.join(import.meta.dirname, '..');
const packageVersion = (JSON.parse(readFileSync(path.join(src, '..', 'package.json'), 'utf8')) as { version: string }).version;

describe('atlas --version', () => {
  it.each([['--version'], ['-V']])('%s prints the package version and exits 0', async (flag) => {
    const io = recordingIO();
    expect(await runCli([flag], io)).toBe(0);
    expect(io.out.join('')).toBe(`${packageVersion}\n`);
  });

  it.each([['--version'], ['-V']])('%s first registers no command (it loads none of their modules)', async (flag) => {
    expect((await createProgram(recordingIO(), flag)).commands).toEqual([]);
  });

  it('after a command, --version stays that command\'s release-line filter', async () => {
    const io = recordingIO({ cwd: path.join(src, 'no-such-folder') });
    expect(await runCli(['search', 'lease', '--version', '3.x'], io)).toBe(1);
    expect(io.out.join('')).toBe('');
    expect(io.err.join('')).toContain('Atlas: no index at');
  });
});

describe('atlas --help', () => {
  it('lists every command as its own help describes it, without loading any', async () => {
    const listed = await createProgram(recordingIO(), '--help');
    expect(listed.helpInformation()).toBe((await createProgram(recordingIO())).helpInformation());
    expect(listed.commands.map((command) => [command.name(), command.options.length])).toEqual([
      ['ingest', 0], ['search', 0], ['ask', 0], ['chat', 0], ['eval', 0], ['mcp', 0], ['serve', 0],
    ]);
  });

  it('prints the list for --help, help and a typo, and a command\'s own help for help <command>', async () => {
    const help = recordingIO();
    expect(await runCli(['--help'], help)).toBe(0);
    expect(help.out.join('')).toContain('  search [options] <query>  Search the index once (no model).\n');
    const typo = recordingIO();
    expect(await runCli(['serch', 'x'], typo)).toBe(2);
    expect(typo.err.join('')).toBe("error: unknown command 'serch'\n(Did you mean search?)\n(run atlas --help for usage)\n");
    const search = recordingIO();
    expect(await runCli(['help', 'search'], search)).toBe(0);
    expect(search.out.join('')).toContain('Usage: atlas search [options] <query>');
    expect(search.out.join('')).toContain('--k <n>');
  });
});

describe('blank query or question', () => {
  it.each([
    [['search', ''], 'Atlas: the query is empty. Pass the text to use, e.g. atlas search "lease timeout"\n'],
    [['search', ' \t '], 'Atlas: the query is empty (only whitespace). Pass the text to use, e.g. atlas search "lease timeout"\n'],
    [['ask', ''], 'Atlas: the question is empty. Pass the text to use, e.g. atlas ask "How do I set the lease duration?"\n'],
    [['ask', '   '], 'Atlas: the question is empty (only whitespace). Pass the text to use, e.g. atlas ask "How do I set the lease duration?"\n'],
  ])('%j is a usage error (exit 2), checked before the index is opened', async (argv, message) => {
    const io = recordingIO({ cwd: path.join(src, 'no-such-folder') });
    expect(await runCli(argv, io)).toBe(2);
    expect(io.err.join('')).toBe(message);
  });
});

/**
 * Which commands print the messages of a source file that name a flag without the command
 * (`pass --skip-invalid`). A message that spells the command out (`atlas ingest ... --rebuild`)
 * is checked against that command instead. A new file with such messages must be added here.
 */
const PRINTED_BY: Record<string, string[]> = {
  'cli/commands/ingest-command.ts': ['ingest'],
  // The ingest itself: serve --watch runs it too, but its flag suggestions (--allow-empty, --embed) are atlas ingest's.
  'cli/commands/ingest-run.ts': ['ingest'],
  'cli/commands/ask-command.ts': ['ask'],
  'cli/commands/eval-command.ts': ['eval retrieval|eval compare'],
  'cli/commands/eval-failures.ts': ['eval retrieval', 'eval compare', 'eval decisions'],
  'cli/options/options.ts': ['ask', 'eval retrieval', 'eval compare', 'eval decisions'],
  'cli/options/read-db.ts': ['search', 'ask', 'chat', 'serve', 'mcp'],
  'conversations/postgres-state.ts': ['serve', 'ask', 'chat'],
  'models/ollama-probe.ts': ['ask', 'chat', 'serve', 'mcp'],
  'cli/main.ts': [''],
  'cli/require-index.ts': ['search', 'ask'],
  'errors.ts': ['ingest'],
  'eval/dataset/dataset.ts': ['eval retrieval', 'eval compare', 'eval decisions'],
  'models/resolve-model.ts': ['ask', 'eval retrieval', 'eval compare', 'eval decisions'],
  'index/sqlite/sqlite-open.ts': ['ingest', 'search', 'ask'],
  'index/sqlite/sqlite-errors.ts': ['ingest', 'search', 'ask'],
  'index/sqlite/schema.ts': ['ingest', 'search', 'ask'],
  // The PostgreSQL index's URL and connection messages: every command that takes --db.
  'index/postgres/postgres-url.ts': ['ingest', 'search', 'ask', 'chat', 'serve', 'mcp', 'eval retrieval', 'eval compare', 'eval decisions'],
  // Vectors (docs/vectors.md): --embed on every command that searches or ingests, --mode and --rerank where a search happens.
  'index/vectors/vector-errors.ts': ['ingest', 'search', 'ask'],
  'index/vectors/vector-retrieval.ts': ['search', 'ask'],
  'index/sqlite/vector-store.ts': ['ingest', 'search', 'ask'],
  'index/vectors/vector-sync.ts': ['ingest'],
  'index/sqlite/sqlite.ts': ['search', 'ask'],
  // A postings row its skip entries name is missing: met by the ingest that writes (both backends).
  'index/engine/postings-writer.ts': ['ingest'],
  // The HTTP front's flags (docs/server.md).
  'cli/options/http-front-options.ts': ['serve'],
  'server/front/client-address.ts': ['serve'],
  // A page of another format that cannot be read (docs/formats.md): met by the ingest.
  'corpus/formats/pdf.ts': ['ingest'],
  'corpus/formats/word.ts': ['ingest'],
  'corpus/page-body.ts': ['ingest'],
  'corpus/read-source.ts': ['ingest'],
  // pgvector (docs/postgres.md): the missing extension is met by the ingest that embeds; the query-vector check and the mode refusal by searches.
  'index/postgres/postgres-vectors-extension.ts': ['ingest'],
  'index/postgres/postgres-vectors.ts': ['search', 'ask'],
  'index/postgres/postgres.ts': ['search', 'ask'],
  'embed/embed-spec.ts': ['search', 'ask'],
  'embed/resolve.ts': ['search', 'ask'],
  'cli/options/embed-option.ts': ['search', 'ask'],
  'cli/options/release-lines.ts': ['search', 'ask'],
  'cli/options/access-options.ts': ['search', 'ask'],
  'corpus/parse-document.ts': ['ingest'],
  'cli/options/model-option.ts': ['ask', 'eval retrieval', 'eval compare', 'eval decisions'],
  'cli/options/policy-option.ts': ['ask', 'eval compare'],
  'cli/options/run-limits.ts': ['ask', 'chat', 'eval retrieval', 'eval compare', 'eval decisions'],
  'cli/options/config-option.ts': ['ingest', 'search', 'ask', 'eval retrieval', 'eval compare', 'eval decisions'],
  'config/load.ts': ['ingest', 'search', 'ask', 'eval retrieval', 'eval compare', 'eval decisions'],
  // Names where access comes from, in a config error any command may print: the commands that take --groups.
  'agent/policy/model-labels.ts': ['search|ask'],
  'cli/commands/serve-command.ts': ['serve'],
  // checkAskChoices: --first-turn and --route (chat passes no --first-turn, so its messages name only --route).
  'cli/options/option-values.ts': ['ask', 'serve'],
  'cli/commands/conversation-cli.ts': ['ask', 'chat'],
  'cli/commands/chat-command.ts': ['chat'],
  // Web search (docs/web-search.md): only `atlas ask` takes --web and --web-fallback.
  'agent/policy/route.ts': ['ask'],
  'agent/run.ts': ['ask'],
  'agent/web/web.ts': ['ask'],
  'models/web-tools.ts': ['ask'],
};
/** Files whose `--words` are data, not suggestions (a docs sample of a CLI help text, a test helper's argv). */
const NOT_MESSAGES = new Set(['index/contract/backend-suite-definitions.ts', 'index/contract/vector-suite.ts', 'cli/test-serve.ts']);

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every `--flag` inside a string literal outside option declarations and comments, with the command it names. */
function suggestedFlags(): Array<{ file: string; line: number; flag: string; named?: string[] }> {
  const found: Array<{ file: string; line: number; flag: string; named?: string[] }> = [];
  for (const full of sourceFiles(src)) {
    const file = path.relative(src, full).split(path.sep).join('/');
    if (NOT_MESSAGES.has(file) || file.startsWith('testing/')) continue;
    readFileSync(full, 'utf8').split('\n').forEach((text, index) => {
      if (/^\s*(\*|\/\/|\/\*)/.test(text) || /\.(option|requiredOption|version)\(|new Option\(/.test(text)) return;
      // Not a decrement of a property (`--table.depth`).
      for (const match of text.matchAll(/(?<![\w-])--([a-z][a-z-]*)(?![\w-]*\.\w)/g)) {
        const before = text.slice(0, match.index);
        if (!/['"`]/.test(before)) continue;
        const command = [...before.matchAll(/atlas (eval )?([a-z|]+)/g)].at(-1);
        const named = command ? command[2]!.split('|').map((name) => `${command[1] ?? ''}${name}`) : undefined;
        found.push({ file, line: index + 1, flag: `--${match[1]}`, ...(named ? { named } : {}) });
      }
    });
  }
  return found;
}

function commandAt(program: Command, name: string): Command | undefined {
  if (name === '') return program;
  return name.split(' ').reduce<Command | undefined>((command, part) => command?.commands.find((child) => child.name() === part), program);
}

describe('item 10: every flag an error message suggests exists', () => {
  it('is accepted by the command that prints it', async () => {
    const program = await createProgram(recordingIO());
    const accepts = (name: string, flag: string) => {
      const command = commandAt(program, name);
      if (command === undefined) return false;
      return flag === '--help' || command.options.some((option) => option.long === flag);
    };
    const suggestions = suggestedFlags();
    // The scan sees the messages this test is about (guards against a scan that finds nothing).
    expect(suggestions.filter((found) => found.flag === '--rebuild').map((found) => found.file)).toEqual([
      'index/engine/postings-writer.ts',
      'index/postgres/postgres-schema.ts',
      'index/sqlite/schema.ts',
      'index/sqlite/schema.ts',
      'index/sqlite/sqlite-errors.ts',
      'index/vectors/vector-errors.ts',
      'index/vectors/vector-retrieval.ts',
      'index/vectors/vector-sync.ts',
    ]);
    const refused = suggestions.flatMap((found) => {
      const commands = found.named ?? PRINTED_BY[found.file];
      if (commands === undefined) return [`${found.file}:${found.line}: ${found.flag}: add the file to PRINTED_BY`];
      // "a|b": one of them prints it (an argument parser of one command); otherwise every one does.
      const missing = commands.filter((names) => !names.split('|').some((name) => accepts(name, found.flag)));
      return missing.map((name) => `${found.file}:${found.line}: ${found.flag} is not an option of "atlas ${name}"`);
    });
    expect(refused).toEqual([]);
  });
});
