import path from 'node:path';
import { Command } from 'commander';
import { registerEvalCommands, type EvalCommandDeps } from './commands/eval-command.ts';
import type { CliIO } from './io.ts';
import type { CliModel } from './options/model-option.ts';
import type { ScriptedModel } from '../testing/scripted-model.ts';
import type { QuestionScript } from '../eval/test-model.ts';

/** A CliIO that records stdout and stderr, with a fixed clock. */
export interface RecordingIO extends CliIO {
  out: string[];
  err: string[];
}

/** A fake IO for eval command tests: not a TTY, clock fixed at 0 unless given. */
export function recordingIO(options: { now?: () => number; isTTY?: boolean; cwd?: string } = {}): RecordingIO {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    env: {},
    cwd: options.cwd ?? process.cwd(),
    isTTY: options.isTTY ?? false,
    now: options.now ?? (() => 0),
  };
}

/** The tiny fixture dataset of the eval tests. */
export const TINY = path.join(import.meta.dirname, '..', 'eval', '__fixtures__', 'tiny');

/**
 * Runs `atlas eval ...` through commander with a scripted model (price $1/$2 per million
 * tokens) and injected deps; returns stdout.
 *
 * @example
 * const out = await runEval(['eval', 'decisions', '--data', TINY, '--json'], io, model);
 */
export async function runEval(argv: string[], io: RecordingIO, model: ScriptedModel, deps: EvalCommandDeps = {}): Promise<string> {
  const program = new Command('atlas').exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
  const resolved: CliModel = { model, spec: 'scripted', price: { input: 1, output: 2 } };
  registerEvalCommands(program, io, { resolveModel: () => resolved, sleep: async () => {}, ...deps });
  await program.parseAsync(argv, { from: 'user' });
  return io.out.join('');
}

/**
 * How the scripted model behaves on the tiny dataset: one agentic case per failure bucket
 * (hop-1 planning, version-1 ranking, none-1 generation, qa-2 retrieval), passing cases (exact-1
 * and qa-3 ask the same question; qa-1 reads a section, cites a gold page yet lacks its facts;
 * qa-4 abstains on an unanswerable question), and the decision
 * questions (one wrong each way).
 */
export const TINY_SCRIPTS: Record<string, QuestionScript> = {
  'ORB-1202': { searches: ['ORB-1202'], cite: ['error-codes'] },
  'A step that returns a big result fails after finishing: which error is it and which setting limits it?': { searches: ['ORB-1202'], cite: [] },
  'How do I set the lease duration?': { searches: ['lease duration'], cite: [] },
  'How do I configure Kafka brokers?': { searches: ['brokers schedules'], cite: ['scheduling'] },
  'What is the default of max_payload_kb?': { searches: ['limit', { read: 'limits' }], cite: ['limits'] },
  'Where do I set lease_seconds?': { searches: [{ query: 'leases', version: '2.x' }], cite: ['leases-3x'] },
  'What does ORB-1202 mean?': { searches: ['ORB-1202'], cite: ['error-codes'] },
  'How do I reverse a list in Python?': { searches: ['reverse list'], cite: [] },
  'Which Kafka topic does Orbit use?': { searches: ['kafka topic'], cite: [] },
};
