import { Option } from 'commander';
import { DEFAULT_CALL_TIMEOUT_MS, DEFAULT_RUN_DEADLINE_MS, type RunLimits } from '../../agent/run-types.ts';
import { AtlasError } from '../../errors.ts';
import { parseSeconds, secondsOption } from './option-values.ts';

/** The environment variables of the run limits; a flag wins over its variable. */
export const TIMEOUT_ENV = 'ATLAS_TIMEOUT';
export const DEADLINE_ENV = 'ATLAS_DEADLINE';

/** `--timeout <seconds>`: per model call, retries included (ask, eval, and later serve). Parsed to ms. */
export function timeoutOption(): Option {
  return new Option(
    '--timeout <seconds>',
    `abort a model call (retries included) after this many seconds (default ${DEFAULT_CALL_TIMEOUT_MS / 1000}, env ${TIMEOUT_ENV})`,
  ).argParser(secondsOption('--timeout'));
}

/** `--deadline <seconds>`: the whole run (every call, search and read). Parsed to ms. */
export function deadlineOption(): Option {
  return new Option(
    '--deadline <seconds>',
    `end a run without an answer after this many seconds (default ${DEFAULT_RUN_DEADLINE_MS / 1000}, env ${DEADLINE_ENV})`,
  ).argParser(secondsOption('--deadline'));
}

/**
 * The run limits of a command: the flag (already in ms), else the environment variable (seconds),
 * else the default. A bad variable is a usage error naming it, its value and the fix.
 *
 * @example
 * resolveRunLimits({ ATLAS_TIMEOUT: '30' }, { deadline: 120_000 }); // { callTimeoutMs: 30000, deadlineMs: 120000 }
 */
export function resolveRunLimits(env: Record<string, string | undefined>, flags: { timeout?: number; deadline?: number }): Required<RunLimits> {
  return {
    callTimeoutMs: flags.timeout ?? fromEnv(env, TIMEOUT_ENV) ?? DEFAULT_CALL_TIMEOUT_MS,
    deadlineMs: flags.deadline ?? fromEnv(env, DEADLINE_ENV) ?? DEFAULT_RUN_DEADLINE_MS,
  };
}

function fromEnv(env: Record<string, string | undefined>, name: string): number | undefined {
  const value = env[name];
  if (value === undefined || value.trim() === '') return undefined;
  const parsed = parseSeconds(name, value);
  if (!parsed.ok) throw new AtlasError('usage', `Atlas: ${parsed.error.replace(`(e.g. ${name} 60)`, `(e.g. ${name}=60)`)} Fix it, or unset it for the default.`);
  return parsed.ms;
}
