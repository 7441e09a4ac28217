/**
 * `npx tsx bench/ingest-settings.ts [--size 100000] [--runs 3] [--settings wal,rollback,rollback+page8192]`
 *
 * The SQLite side of an ingest alone, under different settings, side by side: the bench's MuSiQue
 * pages (bench/musique-corpus.ts) are parsed and their derived values computed once, up front;
 * then, for each setting in turn (`runs` rounds, the settings alternating; the first setting of
 * the first round also warms the JIT), a new database file gets the schema and one ingest session
 * of all the docs in batches of 64 pages, as `ingestStream` writes them. Prints, per setting, this
 * thread's CPU ms (Linux, /proc: less disturbed by a shared machine than the wall clock), the wall
 * ms of the inserts, the commit and the close, and the file's size.
 *
 * A setting is `+`-joined parts: `wal` | `rollback` (journal_mode DELETE) | `journal-off`;
 * `sync-off` (synchronous OFF, else NORMAL); `page<bytes>` (page_size of the new file);
 * `cache<MB>`; `automerge<n>`, `crisismerge<n>`, `pgsz<bytes>` (FTS5 options set in the
 * transaction); `optimize` (FTS5 optimize before the commit); `skip-<table>` (the inserts into
 * that table are not run: what the table costs).
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { parseDocument } from '../src/corpus/parse-document.ts';
import type { Doc } from '../src/corpus/types.ts';
import { createIngestSession, type IngestItem } from '../src/index/sqlite/ingest-session.ts';
import { createDeriveCaches, deriveDoc } from '../src/index/sqlite/ingest-writer.ts';
import { prepareSchema } from '../src/index/sqlite/schema.ts';
import { DEFAULT_TOKENIZER } from '../src/index/analysis/tokenize.ts';
import { mainThreadCpuMs } from './measure.ts';
import { buildPages, musiqueFolder, readPassages } from './musique-corpus.ts';

/** What one setting measured. Times in ms. */
interface SettingResult {
  setting: string;
  cpuMs: number;
  insertMs: number;
  commitMs: number;
  closeMs: number;
  fileMB: number;
  load: string;
}

/** The docs of the bench pages with their derived values, as the ingest workers hand them over. */
function benchItems(size: number): IngestItem[] {
  const docs = buildPages(readPassages(musiqueFolder(process.env)), size, 42).map((page): Doc => {
    const result = parseDocument({ path: page.path, bytes: Buffer.from(page.markdown) });
    if (!result.ok) throw new Error(`bench page ${page.path} did not parse: ${JSON.stringify(result.problems)}`);
    return result.doc;
  });
  // A JSON round trip gives flat strings, like the structured clone a worker's batch goes through.
  const flat = JSON.parse(JSON.stringify(docs)) as Doc[];
  const caches = createDeriveCaches('bench-items');
  return flat.map((doc) => {
    const { values, terms } = deriveDoc(doc, DEFAULT_TOKENIZER, caches);
    return { doc, derived: values, terms };
  });
}

/** Statements of `db` whose SQL inserts into one of `tables` do nothing (rowids still count up). */
function skipInserts(db: Database.Database, tables: string[]): void {
  const prepare = db.prepare.bind(db);
  let rowid = 1_000_000_000;
  const skipped = (sql: string) => tables.some((table) => new RegExp(`^INSERT (?:OR IGNORE )?INTO ${table} `).test(sql));
  Object.assign(db, { prepare: (sql: string) => (skipped(sql) ? { run: () => ({ changes: 1, lastInsertRowid: rowid++ }) } : prepare(sql)) });
}

function measureSetting(setting: string, items: IngestItem[]): SettingResult {
  const parts = setting.split('+');
  const number = (prefix: string) => {
    const part = parts.find((one) => new RegExp(`^${prefix}\\d+$`).test(one));
    return part === undefined ? undefined : Number(part.slice(prefix.length));
  };
  const scratch = mkdtempSync(join(tmpdir(), 'atlas-ingest-settings-'));
  try {
    const path = join(scratch, 'index.db');
    const db = new Database(path);
    const pageBytes = number('page');
    if (pageBytes !== undefined) db.pragma(`page_size = ${pageBytes}`);
    db.pragma(`journal_mode = ${parts.includes('wal') ? 'WAL' : parts.includes('journal-off') ? 'OFF' : 'DELETE'}`);
    db.pragma(`synchronous = ${parts.includes('sync-off') ? 'OFF' : 'NORMAL'}`);
    const cacheMB = number('cache');
    if (cacheMB !== undefined) db.pragma(`cache_size = -${cacheMB * 1024}`);
    db.pragma('foreign_keys = ON');
    const tokenizer = db.transaction(() => prepareSchema(db, path, undefined)).immediate();
    skipInserts(db, parts.filter((part) => part.startsWith('skip-')).map((part) => part.slice('skip-'.length)));
    const cpu = mainThreadCpuMs() ?? NaN;
    const start = performance.now();
    db.exec('BEGIN IMMEDIATE');
    for (const option of ['automerge', 'crisismerge', 'pgsz']) {
      const value = number(option);
      if (value === undefined) continue;
      db.exec(`INSERT INTO definitions_fts (definitions_fts, rank) VALUES ('${option}', ${value})`);
    }
    const session = createIngestSession(db, tokenizer);
    for (let at = 0; at < items.length; at += 64) session.add(items.slice(at, at + 64));
    session.finish();
    const inserted = performance.now();
    if (parts.includes('optimize')) db.exec("INSERT INTO definitions_fts (definitions_fts) VALUES ('optimize')");
    db.exec('COMMIT');
    const committed = performance.now();
    if (parts.includes('wal')) db.pragma('journal_mode = DELETE');
    db.close();
    const closed = performance.now();
    return {
      setting,
      cpuMs: Math.round((mainThreadCpuMs() ?? NaN) - cpu),
      insertMs: Math.round(inserted - start),
      commitMs: Math.round(committed - inserted),
      closeMs: Math.round(closed - committed),
      fileMB: Math.round(statSync(path).size / 1e6),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function main(): void {
  const { values } = parseArgs({
    options: {
      size: { type: 'string', default: '100000' },
      runs: { type: 'string', default: '3' },
      settings: { type: 'string', default: 'wal,rollback,rollback+page8192,rollback+page16384,rollback+sync-off,rollback+page8192+automerge0' },
    },
  });
  const settings = values.settings.split(',').filter((setting) => setting !== '');
  const items = benchItems(Number(values.size));
  measureSetting(settings[0]!, items);
  const results = new Map<string, SettingResult[]>(settings.map((setting) => [setting, []]));
  for (let run = 0; run < Number(values.runs); run += 1) {
    for (const setting of settings) {
      const result = measureSetting(setting, items);
      results.get(setting)!.push(result);
      process.stderr.write(`${JSON.stringify(result)}\n`);
    }
  }
  const column = (list: SettingResult[], key: keyof SettingResult) => list.map((result) => result[key]).join(' / ');
  process.stdout.write('setting | CPU ms | inserts ms | commit ms | close ms | file MB | load\n');
  for (const [setting, list] of results) {
    process.stdout.write(`${setting} | ${column(list, 'cpuMs')} | ${column(list, 'insertMs')} | ${column(list, 'commitMs')} | ${column(list, 'closeMs')} | ${list[0]!.fileMB} | ${column(list, 'load')}\n`);
  }
}

main();
