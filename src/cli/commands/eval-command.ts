import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { compareCases } from '../../eval/cases.ts';
import { runCompare } from '../../eval/compare.ts';
import { loadDataset, requireFile, type Dataset } from '../../eval/dataset/dataset.ts';
import { everyNth } from '../../eval/dataset/sample.ts';
import { runDecisionEval } from '../../eval/decisions.ts';
import { formatCompareReport, formatDecisionReport, formatRetrievalReport } from '../../eval/reports/format.ts';
import type { Sleep } from '../../eval/pool.ts';
import { createProgress, type Progress } from '../../eval/progress.ts';
import { compareReport, compareSummary } from '../../eval/reports/report-json.ts';
import { writeReports } from '../../eval/reports/write-reports.ts';
import { retrievalRunCount, runRetrievalEval, type RetrievalArmGroup } from '../../eval/retrieval.ts';
import { createPostgresIndex } from '../../index/postgres/postgres.ts';
import { isPostgresUrl } from '../../index/postgres/postgres-url.ts';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../../index/types.ts';
import { failedRuns } from '../../eval/cases.ts';
import { reportFailures } from './eval-failures.ts';
import { MODEL_SPEC_HELP } from './ask-command.ts';
import { cliFilter, groupsOption, labelOption } from '../options/access-options.ts';
import type { CliIO } from '../io.ts';
import { cliModel, type CliModel } from '../options/model-option.ts';
import { nonEmpty } from '../options/option-values.ts';
import { dbPath, positiveInt } from '../options/options.ts';
import { embedOption, modeOption, rerankOption, withCliRetrieval, type RetrievalCliOptions } from '../options/embed-option.ts';
import { commandConfig, configOption } from '../options/config-option.ts';
import { commandPolicy } from '../options/policy-option.ts';
import { deadlineOption, resolveRunLimits, timeoutOption } from '../options/run-limits.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

/** What the eval commands take from outside besides the IO; tests inject a scripted model and a fake sleep. */
export interface EvalCommandDeps {
  /** Resolves `--model` (default: {@link cliModel}, which picks no model by itself for an eval: `ATLAS_MODEL`, else offline). */
  resolveModel?: (spec: string | undefined) => CliModel | Promise<CliModel>;
  /** Backoff sleep before a failed case is retried (default: a real timer). */
  sleep?: Sleep;
}

interface CommonOptions extends RetrievalCliOptions {
  data: string;
  model?: string;
  json?: boolean;
  db?: string;
  concurrency?: number;
  skipInvalid?: boolean;
  /** ms, from `--timeout <seconds>`. */
  timeout?: number;
  /** ms, from `--deadline <seconds>`. */
  deadline?: number;
  label?: Record<string, string[]>;
  groups?: string[];
  config?: string;
  every?: number;
}

/** The config of an eval: `--config`, `ATLAS_CONFIG`, the dataset folder's atlas.config.yaml, then the cwd's. */
function evalConfig(io: CliIO, options: CommonOptions) {
  return commandConfig(io, options, path.resolve(io.cwd, options.data));
}

/** The run options a config gives every agentic run: its model labels (its policy goes through {@link commandPolicy}). */
function configRunOptions(config: Awaited<ReturnType<typeof evalConfig>>) {
  return config && config.modelLabels.length > 0 ? { modelLabels: config.modelLabels } : {};
}

/** Loads `--data` (every `--every`-th case), listing on stderr the pages `--skip-invalid` left out. */
async function loadData(io: CliIO, options: CommonOptions): Promise<Dataset> {
  const dataset = await loadDataset(path.resolve(io.cwd, options.data), { skipInvalidPages: options.skipInvalid === true });
  for (const problem of dataset.skippedPages) {
    io.stderr(`skipped ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.field}: ${problem.message}\n`);
  }
  return options.every === undefined ? dataset : everyNth(dataset, options.every);
}

/**
 * Runs in flight: `--concurrency`, else 4 for remote providers and 1 for the offline planner,
 * which runs in this process (parallel runs would only interleave and inflate its latencies).
 */
function concurrencyFor(options: CommonOptions, spec: string | undefined): number {
  return options.concurrency ?? (spec === undefined || spec === 'offline' ? 1 : 4);
}

/**
 * `atlas eval retrieval|compare|decisions --data <dataset-dir>`: the evaluation harness. Each
 * command ingests the dataset's docs into a temporary index (or `--db PATH`), prints a table or
 * one JSON object on stdout, and shows progress on stderr.
 *
 * @example
 * registerEvalCommands(program, io);
 * // atlas eval compare --data datasets/orbit --out reports/
 */
export function registerEvalCommands(program: Command, io: CliIO, deps: EvalCommandDeps = {}): void {
  const context: EvalContext = { io, deps, resolve: deps.resolveModel ?? ((spec: string | undefined) => cliModel(io, spec, { pickAvailable: false })) };
  const evalCommand = program.command('eval').description(COMMAND_SUMMARIES.eval!.description);
  registerRetrieval(evalCommand, context);
  registerCompare(evalCommand, context);
  registerDecisions(evalCommand, context);
}

interface EvalContext {
  io: CliIO;
  deps: EvalCommandDeps;
  resolve: (spec: string | undefined) => CliModel | Promise<CliModel>;
}

/** The options every eval command takes. */
function withCommonOptions(command: Command): Command {
  return command
    .requiredOption('--data <dir>', 'dataset folder: docs/*.md and eval/*.jsonl', nonEmpty('--data', 'datasets/orbit'))
    .option('--model <spec>', MODEL_SPEC_HELP, nonEmpty('--model', 'offline'))
    .option('--json', 'print one JSON object on stdout')
    .option('--db <path>', 'index file or postgres:// URL to ingest into (default: a temporary in-memory index)', nonEmpty('--db', '.atlas/eval.db'))
    .addOption(timeoutOption())
    .addOption(deadlineOption())
    .addOption(labelOption())
    .addOption(groupsOption())
    .addOption(configOption())
    .addOption(embedOption())
    .addOption(modeOption())
    .addOption(rerankOption())
    .option('--concurrency <n>', 'runs in flight at once (default 4; 1 for the in-process offline model)', positiveInt('--concurrency'))
    .option('--skip-invalid', 'leave invalid pages of docs/ out (listed on stderr) instead of failing')
    .option('--every <n>', 'run every n-th case of each eval file (the 1st, the n+1-th, ...), a quick measure of a large set; the report names the sample', positiveInt('--every'));
}

function registerRetrieval(evalCommand: Command, { io, deps, resolve }: EvalContext): void {
  withCommonOptions(evalCommand.command('retrieval').description('Evidence and read recall per query kind: classic one-shot search at k=5 and k=15, and the agent; MRR@10 of identifier queries.'))
    .option('--arms <list>', 'arms to run: classic, agentic or both', parseArms, ['classic', 'agentic'])
    .option('--max-searches <n>', 'search budget of the agentic arm', positiveInt('--max-searches'))
    .option('--max-chunks <n>', 'cap on chunks the agentic arm may see', positiveInt('--max-chunks'))
    .action(async (options: CommonOptions & { arms: RetrievalArmGroup[]; maxSearches?: number; maxChunks?: number }) => {
      const config = await evalConfig(io, options);
      const dataset = await loadData(io, options);
      const queries = requireFile(dataset, 'retrievalQueries');
      const chosen = options.arms.includes('agentic') ? await resolve(options.model) : undefined;
      const bar = { label: 'eval retrieval', total: retrievalRunCount(queries, options.arms) };
      const filter = cliFilter(io.env, options);
      const result = await withDatasetIndex(io, dataset, options, bar, (index, progress) =>
        runRetrievalEval({
          queries,
          index,
          arms: options.arms,
          concurrency: concurrencyFor(options, chosen?.spec),
          now: io.now,
          limits: resolveRunLimits(io.env, options),
          ...(filter ? { filter } : {}),
          ...(chosen ? { model: chosen.model, price: chosen.price } : {}),
          ...(options.maxSearches ? { maxSearches: options.maxSearches } : {}),
          ...(options.maxChunks ? { maxChunks: options.maxChunks } : {}),
          ...(config?.policy ? { policy: config.policy } : {}),
          ...configRunOptions(config),
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
          onQueryDone: () => progress.tick(),
        }),
      );
      io.stdout(options.json ? `${JSON.stringify({ dataset: dataset.name, ...result })}\n` : formatRetrievalReport(dataset.name, result));
      if (result.failedRuns && chosen) reportFailures(io, result.failedRuns, chosen.spec, 'agentic runs', 'counted as finding nothing');
    });
}

function registerCompare(evalCommand: Command, { io, deps, resolve }: EvalContext): void {
  withCommonOptions(
    evalCommand
      .command('compare')
      .description("Classic (k=5 and k = the agent's mean chunks) vs agentic vs auto (classic first, escalating to the agent) on the same cases: recall, pass, correct, facts, abstain, cost, failure buckets, auto routing."),
  )
    .option('--out <dir>', 'write report.json (every case with its trace) and report.html there', nonEmpty('--out', 'reports/'))
    .option('--budgets <list>', 'search budgets of the agentic budget sweep, e.g. 1,2,6', parseBudgets)
    .option('--repeat <n>', 'agentic passes, to report the spread between runs', positiveInt('--repeat'), 1)
    .option('--max-searches <n>', 'search budget of the agentic arm', positiveInt('--max-searches'), 6)
    .option('--policy <file>', 'a policy file every run applies (docs/policy.md)', nonEmpty('--policy', 'examples/allergy/policy.yaml'))
    .option('--strict', 'with a policy (--policy, or policy: in the config): a run whose answer cites no required page abstains')
    .option('--strict-claims', 'every run removes the claims no verified quote supports, and abstains when none is left')
    .action(async (options: CommonOptions & { out?: string; budgets?: number[]; repeat: number; maxSearches: number; policy?: string; strict?: boolean; strictClaims?: boolean }) => {
      const config = await evalConfig(io, options);
      const policy = commandPolicy(io, options, config);
      const filter = cliFilter(io.env, options);
      const dataset = await loadData(io, options);
      const cases = compareCases(dataset);
      if (cases.length === 0) requireFile(dataset, 'retrievalQueries');
      const limits = resolveRunLimits(io.env, options);
      const { model, spec, price, closestModel } = await resolve(options.model);
      const concurrency = concurrencyFor(options, spec);
      const result = await withDatasetIndex(io, dataset, options, { label: 'eval compare', total: cases.length * 3 }, (index, progress) =>
        runCompare({
          cases,
          docs: dataset.docs,
          index,
          model,
          ...(closestModel ? { closestModel } : {}),
          price,
          now: io.now,
          limits,
          ...(filter ? { filter } : {}),
          ...policy,
          ...(options.strictClaims ? { strictClaims: true } : {}),
          ...configRunOptions(config),
          maxSearches: options.maxSearches,
          repeat: options.repeat,
          concurrency,
          ...(options.budgets ? { budgets: options.budgets } : {}),
          ...(deps.sleep ? { sleep: deps.sleep } : {}),
          onPlan: (runs) => progress.setTotal(runs),
          onRunDone: () => progress.tick(),
          onRetry: (caseId, reason) => io.stderr(`\nretrying ${caseId} once: ${reason}\n`),
        }),
      );
      const report = compareReport(result, { dataset: dataset.name, model: spec, maxSearches: options.maxSearches, concurrency });
      const files = options.out ? await writeReports(path.resolve(io.cwd, options.out), report) : undefined;
      const summary = compareSummary(report);
      if (options.json) io.stdout(`${JSON.stringify({ ...summary, ...(files ? { reports: files } : {}) })}\n`);
      else io.stdout(`${formatCompareReport(summary)}${files ? `\nWrote ${files.json} and ${files.html}\n` : ''}`);
      // Compare's runs are named with their arm: a case runs in several.
      reportFailures(io, failedRuns(result.cases.map((item) => ({ id: `${item.caseId} (${item.arm})`, run: item.run }))), spec, 'runs', 'counted in the "error" bucket');
    });
}

function registerDecisions(evalCommand: Command, { io, deps, resolve }: EvalContext): void {
  withCommonOptions(
    evalCommand.command('decisions').description('Does the agent search when it should and answer directly when it should? (firstTurn auto)'),
  ).action(async (options: CommonOptions) => {
    // The decision is whether to search at all: checked like every command's config, but model labels and policy play no part.
    await evalConfig(io, options);
    const dataset = await loadData(io, options);
    const cases = requireFile(dataset, 'decisions');
    const limits = resolveRunLimits(io.env, options);
    const filter = cliFilter(io.env, options);
    const { model, spec, price } = await resolve(options.model);
    const report = await withDatasetIndex(io, dataset, options, { label: 'eval decisions', total: cases.length }, (index, progress) =>
      runDecisionEval({
        cases,
        index,
        model,
        price,
        now: io.now,
        limits,
        ...(filter ? { filter } : {}),
        concurrency: concurrencyFor(options, spec),
        ...(deps.sleep ? { sleep: deps.sleep } : {}),
        onCaseDone: () => progress.tick(),
      }),
    );
    io.stdout(options.json ? `${JSON.stringify({ dataset: dataset.name, model: spec, ...report })}\n` : formatDecisionReport(dataset.name, report));
    reportFailures(io, report.failedRuns, spec, 'runs', 'counted as finding nothing');
  });
}


/**
 * Runs `work` on the dataset's index with a progress bar on stderr; the bar is finished and the
 * index closed afterwards, also on failure, before the caller prints its result.
 */
async function withDatasetIndex<T>(
  io: CliIO,
  dataset: Dataset,
  options: CommonOptions,
  progress: { label: string; total: number },
  work: (index: IndexBackend, progress: Progress) => Promise<T>,
): Promise<T> {
  const index = await datasetIndex(io, dataset, options);
  const bar = createProgress({ ...progress, write: io.stderr, isTTY: io.isTTY, now: io.now });
  try {
    return await work(index, bar);
  } finally {
    bar.done();
    await index.close();
  }
}

/** Ingests the dataset's docs into `--db` (incremental) or a temporary in-memory index; with `--embed`, vectors too (SQLite only). */
async function datasetIndex(io: CliIO, dataset: Dataset, options: CommonOptions): Promise<IndexBackend> {
  const opened = isPostgresUrl(options.db) ? createPostgresIndex({ url: options.db }) : createSqliteIndex({ path: options.db === undefined ? ':memory:' : dbPath(io, options.db) });
  const index = await withCliRetrieval(io, options, opened);
  try {
    await index.ingest(dataset.docs);
  } catch (error) {
    await index.close();
    throw error;
  }
  return index;
}

function parseArms(value: string): RetrievalArmGroup[] {
  const arms = value.split(',').map((arm) => arm.trim());
  const unknown = arms.filter((arm) => arm !== 'classic' && arm !== 'agentic');
  if (unknown.length > 0 || arms.length === 0) {
    throw new InvalidArgumentError(`--arms takes classic, agentic or both, got "${value}" (e.g. --arms classic,agentic).`);
  }
  return [...new Set(arms)] as RetrievalArmGroup[];
}

function parseBudgets(value: string): number[] {
  const budgets = value.split(',').map((part) => Number(part.trim()));
  if (budgets.length === 0 || budgets.some((budget) => !Number.isInteger(budget) || budget <= 0)) {
    throw new InvalidArgumentError(`--budgets takes positive integers separated by commas, got "${value}" (e.g. --budgets 1,2,6).`);
  }
  return budgets;
}
