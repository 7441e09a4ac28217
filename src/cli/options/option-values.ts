import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import { ROUTES } from '../../agent/policy/route-names.ts';
import { AtlasError } from '../../errors.ts';

/**
 * commander parser for a string option that must not be empty: `--version ""` would otherwise
 * turn a filter off silently. Usage error (exit 2) naming the option and an example.
 *
 * @example
 * new Option('--version <v>').argParser(nonEmpty('--version', '3.x'));
 */
export function nonEmpty(name: string, example: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${name} must not be empty (e.g. ${name} ${example}); leave the option out instead.`);
    return value;
  };
}

/** Longest accepted duration: one day, far below the timer limit of Node (about 24.8 days). */
const MAX_SECONDS = 86_400;

/**
 * Reads a duration in seconds (fractions allowed, e.g. `0.5`), or explains what to pass.
 * Returns the milliseconds, or the error message.
 *
 * @example
 * parseSeconds('--timeout', '1.5'); // { ok: true, ms: 1500 }
 */
export function parseSeconds(name: string, value: string): { ok: true; ms: number } | { ok: false; error: string } {
  const seconds = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > MAX_SECONDS) {
    return { ok: false, error: `${name} must be a number of seconds above 0 and at most ${MAX_SECONDS}, got "${value}" (e.g. ${name} 60).` };
  }
  return { ok: true, ms: Math.round(seconds * 1000 * 1000) / 1000 };
}

/**
 * commander parser for seconds, returning milliseconds.
 *
 * @example
 * new Option('--timeout <seconds>').argParser(secondsOption('--timeout'));
 */
export function secondsOption(name: string) {
  return (value: string): number => {
    const parsed = parseSeconds(name, value);
    if (!parsed.ok) throw new InvalidArgumentError(parsed.error);
    return parsed.ms;
  };
}

/**
 * Checks `--first-turn` and `--route` of the commands that run asks (ask, chat, serve): usage
 * errors naming the option, the value and what it takes. Either may be absent.
 *
 * @example
 * checkAskChoices({ firstTurn: 'required', route: 'fast' }); // throws: --route must be "classic", "agentic" or "auto", got "fast".
 */
export function checkAskChoices(options: { firstTurn?: string; route?: string }): void {
  if (options.firstTurn !== undefined && options.firstTurn !== 'required' && options.firstTurn !== 'auto') {
    throw new AtlasError('usage', `Atlas: --first-turn must be "required" or "auto", got "${options.firstTurn}".`);
  }
  if (options.route !== undefined && !(ROUTES as readonly string[]).includes(options.route)) {
    throw new AtlasError('usage', `Atlas: --route must be "classic", "agentic" or "auto", got "${options.route}".`);
  }
}

/**
 * Reads a file an option names (relative to the cwd), or a usage error naming the option's
 * file, why it cannot be read and `fix` (what to pass instead).
 *
 * @example
 * readOptionFile(io, 'auth.yaml', 'auth file', 'Pass a YAML file of tokens, e.g. atlas serve --auth auth.yaml.');
 */
export function readOptionFile(io: { cwd: string }, file: string, what: string, fix: string): string {
  try {
    return readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'permission denied' : String((error as Error).message);
    throw new AtlasError('usage', `Atlas: cannot read the ${what} ${JSON.stringify(file)}: ${why}${code ? ` (${code})` : ''}. ${fix}`);
  }
}
