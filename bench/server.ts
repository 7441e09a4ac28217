/**
 * `npm run bench:server` (`npx tsx bench/server.ts [--requests 60] [--concurrency 8] [--max-seconds 60] [--json]`)
 *
 * Load on the real `atlas serve` process: the Orbit docs ingested into a temporary index, the
 * server started with `--port 0` and the offline planner on loopback (with an ATLAS_TOKEN), then
 * `--requests` POST /v1/ask (the Orbit qa_gold questions in turn) from `--concurrency` clients
 * at once, after 3 untimed asks (module loading, caches). No request starts after `--max-seconds`. Prints the HTTP latency p50/p90/p99/max,
 * the runs' own latency, throughput and the errors by status; the server's concurrency limits
 * are set to the client count, so a 429 is a bug here.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runCli } from '../src/cli/main.ts';
import { summarize } from './measure.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));
const TOKEN = 'bench-server-token-0123456789';

interface Outcome {
  status: number | 'network';
  ms: number;
  runMs?: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '60' },
      concurrency: { type: 'string', default: '8' },
      'max-seconds': { type: 'string', default: '60' },
      json: { type: 'boolean', default: false },
    },
  });
  const requests = wholeNumber('--requests', values.requests);
  const concurrency = wholeNumber('--concurrency', values.concurrency);
  const maxMs = wholeNumber('--max-seconds', values['max-seconds']) * 1000;

  const dir = await mkdtemp(path.join(tmpdir(), 'atlas-bench-server-'));
  const db = path.join(dir, 'index.db');
  const quiet = { stdout: () => {}, stderr: () => {}, env: {}, cwd: repoRoot, isTTY: false, now: () => performance.now() };
  if ((await runCli(['ingest', 'datasets/orbit/docs', '--db', db], quiet)) !== 0) throw new Error('bench server: ingest of datasets/orbit/docs failed');
  const questions = (await readFile(path.join(repoRoot, 'datasets/orbit/eval/qa_gold.jsonl'), 'utf8'))
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { question: string }).question);

  const server = spawn(
    process.execPath,
    ['bin/atlas.js', 'serve', '--port', '0', '--db', db, '--model', 'offline', '--max-concurrent', String(concurrency), '--max-concurrent-per-client', String(concurrency)],
    { cwd: repoRoot, env: { ...process.env, ATLAS_TOKEN: TOKEN }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const url = await listeningUrl(server);
    // Untimed: the first asks load the model's and the agent's modules and warm the caches.
    for (const question of questions.slice(0, 3)) await ask(url, question);
    const outcomes: Outcome[] = [];
    const started = performance.now();
    let next = 0;
    const client = async () => {
      while (next < requests && performance.now() - started < maxMs) {
        const question = questions[next % questions.length]!;
        next += 1;
        outcomes.push(await ask(url, question));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    const wallMs = performance.now() - started;
    report(outcomes, { requests, concurrency, wallMs, json: values.json === true });
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await rm(dir, { recursive: true, force: true });
  }
}

async function ask(url: string, question: string): Promise<Outcome> {
  const start = performance.now();
  try {
    const response = await fetch(`${url}/v1/ask`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ question }) });
    const body = (await response.json()) as { latencyMs?: number };
    return { status: response.status, ms: performance.now() - start, ...(body.latencyMs === undefined ? {} : { runMs: body.latencyMs }) };
  } catch {
    return { status: 'network', ms: performance.now() - start };
  }
}

function report(outcomes: Outcome[], run: { requests: number; concurrency: number; wallMs: number; json: boolean }): void {
  const ok = outcomes.filter((outcome) => outcome.status === 200);
  const http = summarize(ok.map((outcome) => outcome.ms));
  const sorted = ok.map((outcome) => outcome.ms).sort((a, b) => a - b);
  const p90 = sorted[Math.max(0, Math.ceil(0.9 * sorted.length) - 1)] ?? 0;
  const runs = summarize(ok.flatMap((outcome) => (outcome.runMs === undefined ? [] : [outcome.runMs])));
  const errors: Record<string, number> = {};
  for (const outcome of outcomes) if (outcome.status !== 200) errors[String(outcome.status)] = (errors[String(outcome.status)] ?? 0) + 1;
  const result = {
    requests: outcomes.length,
    asked: run.requests,
    concurrency: run.concurrency,
    wallSeconds: round(run.wallMs / 1000),
    perSecond: round(outcomes.length / (run.wallMs / 1000)),
    httpMs: { p50: round(http.p50), p90: round(p90), p99: round(http.p99), max: round(sorted.at(-1) ?? 0), mean: round(http.mean) },
    runMs: { p50: round(runs.p50), p99: round(runs.p99) },
    errors,
  };
  if (run.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  const errorText = Object.entries(errors).map(([status, count]) => `${count} x ${status}`).join(', ') || 'none';
  process.stdout.write(
    [
      `atlas serve load: ${result.requests} of ${run.requests} POST /v1/ask, ${run.concurrency} concurrent clients, offline model, Orbit index, loopback`,
      `  wall ${result.wallSeconds} s, ${result.perSecond} asks/s`,
      `  HTTP latency ms: p50 ${result.httpMs.p50}, p90 ${result.httpMs.p90}, p99 ${result.httpMs.p99}, max ${result.httpMs.max}`,
      `  run latency ms (server side): p50 ${result.runMs.p50}, p99 ${result.runMs.p99}`,
      `  errors: ${errorText}`,
      '',
    ].join('\n'),
  );
}

function listeningUrl(server: ReturnType<typeof spawn>): Promise<string> {
  let stderr = '';
  return new Promise((resolve, reject) => {
    server.stderr!.setEncoding('utf8');
    server.stderr!.on('data', (text: string) => {
      stderr += text;
      const match = /listening on (http:\/\/\S+)\n/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    server.once('exit', (code) => reject(new Error(`bench server: atlas serve exited ${code} before listening:\n${stderr}`)));
  });
}

function wholeNumber(name: string, value: string | undefined): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`bench server: ${name} must be a whole number above 0, got "${value}" (e.g. ${name} 8).`);
  return number;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

await main();
