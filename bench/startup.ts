import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isBuildFresh } from '../bin/fresh-build.js';
import { ROW_KEYS } from '../src/index/engine/postings-store.ts';

/** Median wall times (ms) of whole processes, each run `runs` times. */
export interface StartupResult {
  runs: number;
  /** `node bin/atlas.js search <query> --db <db>`. */
  atlasMs: number;
  /** `npx atlas search <query> --db <db>` (npx's own resolution included). */
  npxAtlasMs: number;
  /** `node -e` opening the same db read-only with better-sqlite3 and reading one term's first postings rows (what a search reads first). */
  nodeMs: number;
  /** atlasMs / nodeMs. */
  ratio: number;
}

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Measures the start-up of one `atlas search` against the least a Node process can do with the
 * same index: start, load better-sqlite3, open the db, run one query, exit.
 *
 * @example
 * measureStartup({ db: '/tmp/bench/atlas.db', query: 'film', runs: 7 }) // { atlasMs: 160, nodeMs: 90, ... }
 */
export function measureStartup(options: { db: string; query: string; runs: number }): StartupResult {
  const { db, query, runs } = options;
  ensureBuild();
  const script = `const Database = require('better-sqlite3');
const db = new Database(${JSON.stringify(db)}, { readonly: true });
const term = db.prepare("SELECT id FROM postings_terms WHERE term = ?").get(${JSON.stringify(query.split(' ')[0]!.toLowerCase())});
const rows = term === undefined ? [] : db.prepare("SELECT data FROM postings WHERE id >= ? LIMIT 5").all(term.id * ${ROW_KEYS});
console.log(rows.length);
db.close();`;
  const nodeMs = medianWall(runs, process.execPath, ['-e', script]);
  const atlasMs = medianWall(runs, process.execPath, ['bin/atlas.js', 'search', query, '--db', db]);
  const npxAtlasMs = medianWall(runs, 'npx', ['--no-install', 'atlas', 'search', query, '--db', db]);
  return { runs, atlasMs, npxAtlasMs, nodeMs, ratio: Math.round((atlasMs / nodeMs) * 100) / 100 };
}

/** Whether this process saw dist/ fresh or built it (sources are not edited during a bench). */
let built = false;

/** Builds dist/ unless it is fresh: bin/atlas.js runs the sources through tsx while dist/ is older than them, and a bench measures what npm ci ships. */
export function ensureBuild(): void {
  if (built || isBuildFresh(repoRoot)) {
    built = true;
    return;
  }
  const build = spawnSync(process.execPath, ['scripts/build.js'], { cwd: repoRoot, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`bench: npm run build failed (${build.status}): ${build.stderr}`);
  built = true;
}

/**
 * The compiled module of `source` (a path under src/, e.g. 'index/sqlite/sqlite.ts') from dist/, built
 * first if stale: the JavaScript `npx atlas` runs. A parse worker started from it is compiled
 * JavaScript too, where one started from the sources compiles them through tsx as it starts.
 *
 * @example
 * const { createSqliteIndex } = await shippedModule<typeof import('../src/index/sqlite/sqlite.ts')>('index/sqlite/sqlite.ts');
 */
export async function shippedModule<T>(source: string): Promise<T> {
  ensureBuild();
  return (await import(pathToFileURL(join(repoRoot, 'dist', source.replace(/\.ts$/, '.js'))).href)) as T;
}

/**
 * Wall ms of one whole `node bin/atlas.js ingest <folder> --db <db>` (start-up, listing, reading,
 * parsing, writing, the summary): what a user waits for.
 *
 * @example
 * measureCliIngest({ folder: '/tmp/bench/pages', db: '/tmp/bench/cli.db' }) // 6210
 */
export function measureCliIngest(options: { folder: string; db: string }): number {
  ensureBuild();
  const start = performance.now();
  const child = spawnSync(process.execPath, ['bin/atlas.js', 'ingest', options.folder, '--db', options.db], { cwd: repoRoot, encoding: 'utf8' });
  const elapsed = performance.now() - start;
  if (child.status !== 0) throw new Error(`bench: atlas ingest ${options.folder} failed (${child.status}): ${child.stderr}`);
  return Math.round(elapsed);
}

function medianWall(runs: number, command: string, args: string[]): number {
  const times: number[] = [];
  for (let run = 0; run < runs + 1; run += 1) {
    const start = performance.now();
    const child = spawnSync(command, args, { cwd: repoRoot, encoding: 'utf8' });
    const elapsed = performance.now() - start;
    if (child.status !== 0) throw new Error(`bench start-up: ${command} ${args.join(' ')} failed (${child.status}): ${child.stderr}`);
    if (run > 0) times.push(elapsed); // the first run warms the file cache
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}
