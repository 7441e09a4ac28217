/**
 * `npx tsx bench/ingest-threads.ts [--size 100000] [--modes sequential,stream,stream-plain] [--runs 2]`
 *
 * Where the CPU of an ingest including parsing goes, per thread (Linux: /proc/self/task/<tid>/schedstat),
 * on the bench's MuSiQue pages (bench/musique-corpus.ts), each mode in a fresh process, the modes
 * alternating: `sequential` parses every page in this thread, then one `ingest(docs)`; `stream`
 * is what `atlas ingest` does (`parsePagesStream` with `ingestPageWorker`, `ingestStream`);
 * `stream-plain` the same with the plain parse worker (the index derives its values in this thread).
 * Prints wall ms, this thread's CPU ms and the other threads' (worker, GC, loader) CPU ms. A shared
 * machine disturbs the CPU columns less than the wall clock.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseDocument, type DocumentSource, type ParseDocumentResult } from '../src/corpus/parse-document.ts';
import { parsePagesStream } from '../src/corpus/workers/parse-pages.ts';
import type { Doc } from '../src/corpus/types.ts';
import { ingestItems, ingestPageWorker } from '../src/index/sqlite/ingest-items.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { buildPages, musiqueFolder, readPassages } from './musique-corpus.ts';

const MODES = ['sequential', 'stream', 'stream-plain'] as const;

/** CPU ms of every thread of this process, by thread id. */
function threadCpu(): Map<string, number> {
  const cpu = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      cpu.set(tid, Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e6);
    } catch {
      // The thread ended meanwhile.
    }
  }
  return cpu;
}

/** CPU ms used since `before`: this thread's, and the other threads' (ended ones counted until `last`). */
function usedSince(before: Map<string, number>, last: Map<string, number>): { main: number; others: number } {
  const now = threadCpu();
  for (const [tid, ms] of last) if (!now.has(tid)) now.set(tid, ms);
  let others = 0;
  for (const [tid, ms] of now) if (tid !== String(process.pid)) others += ms - (before.get(tid) ?? 0);
  return { main: now.get(String(process.pid))! - before.get(String(process.pid))!, others };
}

const parsed = (result: ParseDocumentResult): Doc => {
  if (!result.ok) throw new Error(`bench page did not parse: ${JSON.stringify(result.problems)}`);
  return result.doc;
};

async function measure(mode: (typeof MODES)[number], size: number): Promise<void> {
  const sources: DocumentSource[] = buildPages(readPassages(musiqueFolder(process.env)), size, 42).map((page) => ({ path: page.path, bytes: Buffer.from(page.markdown) }));
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-ingest-threads-'));
  try {
    const index = createSqliteIndex({ path: join(scratch, 'index.db') });
    const before = threadCpu();
    // The last sample taken while the workers lived, so their CPU counts after they end.
    let last = before;
    const start = performance.now();
    if (mode === 'sequential') {
      await index.ingest(sources.map((source) => parsed(parseDocument(source))));
    } else {
      const worker = mode === 'stream' ? ingestPageWorker(index.tokenizer) : undefined;
      await index.ingestStream(
        (async function* () {
          for await (const batch of parsePagesStream(sources, worker ? { worker } : {})) {
            yield ingestItems({ docs: batch.results.map(parsed), ...(batch.extras ? { extras: batch.extras } : {}) }, index.tokenizer);
            last = threadCpu();
          }
        })(),
      );
    }
    const wall = performance.now() - start;
    const { main, others } = usedSince(before, last);
    const { chunks } = await index.stats();
    await index.close();
    process.stdout.write(`${JSON.stringify({ mode, chunks, wallMs: Math.round(wall), mainThreadCpuMs: Math.round(main), otherThreadsCpuMs: Math.round(others) })}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '100000' },
      modes: { type: 'string', default: MODES.join(',') },
      runs: { type: 'string', default: '2' },
      child: { type: 'string' },
    },
  });
  if (values.child !== undefined) return measure(values.child as (typeof MODES)[number], Number(values.size));
  const modes = values.modes.split(',').filter((mode): mode is (typeof MODES)[number] => (MODES as readonly string[]).includes(mode));
  const rows = ['mode            chunks    wall ms  this thread CPU ms  other threads CPU ms  load'];
  for (let run = 0; run < Number(values.runs); run += 1) {
    for (const mode of modes) {
      const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
      const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, '--size', values.size], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      if (child.status !== 0) throw new Error(`bench: ${mode} failed with status ${child.status}`);
      const result = JSON.parse(child.stdout) as { chunks: number; wallMs: number; mainThreadCpuMs: number; otherThreadsCpuMs: number };
      rows.push(`${mode.padEnd(14)} ${String(result.chunks).padStart(7)} ${String(result.wallMs).padStart(10)} ${String(result.mainThreadCpuMs).padStart(19)} ${String(result.otherThreadsCpuMs).padStart(21)}  ${load}`);
      process.stderr.write(`${rows.at(-1)}\n`);
    }
  }
  process.stdout.write(`${rows.join('\n')}\n`);
}

await main();
