import { InvalidArgumentError } from 'commander';

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
