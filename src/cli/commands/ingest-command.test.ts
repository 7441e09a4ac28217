import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { runCli } from '../main.ts';

// Regression tests of issue 9 (items 1, 5, 6, 9, 10, 13), run through the CLI as a user would.
let dir: string;
let io: RecordingIO;
const stdout = () => io.out.join('');
const stderr = () => io.err.join('');
const clear = () => {
  io.out.length = 0;
  io.err.length = 0;
};
const db = () => path.join(dir, '.atlas', 'index.db');
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;
const docIds = () => {
  const raw = new Database(db(), { readonly: true });
  const ids = raw.prepare('SELECT doc_id FROM docs ORDER BY doc_id').pluck().all();
  raw.close();
  return ids;
};

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-ingest-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for the lease of sixty seconds.'));
  await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('item 1: nothing outside the docs folder is indexed', () => {
  it('refuses a symlink to /etc/passwd-like content outside the folder, and search never shows it', async () => {
    await writeFile(path.join(dir, 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');
    await symlink(path.join(dir, 'passwd'), path.join(dir, 'docs', 'passwd.md'));
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(stderr()).toBe(
      'Atlas: 1 problem in the docs folder; nothing was written to the index.\n' +
        `  passwd.md: symlink: the link leads to a file outside the docs folder (${path.join(dir, 'passwd')}); it is not indexed, so nothing outside the folder you pointed at is read. Copy the page into the docs folder instead, or delete the link.\n` +
        'Fix them, or pass --skip-invalid to index the valid pages only.\n',
    );
    clear();
    expect(await runCli(['ingest', 'docs', '--skip-invalid'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 2 docs (2 chunks) into .atlas/index.db: 2 added, 0 updated, 0 unchanged, 0 removed.\n');
    clear();
    expect(await runCli(['search', 'root bash', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).hits).toEqual([]);
  });
});

describe('item 5: a folder with no pages does not empty the index', () => {
  it('refuses, keeps the index, and empties it only with --allow-empty', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    await mkdir(path.join(dir, 'empty'));
    clear();
    expect(await runCli(['ingest', 'empty'], io)).toBe(1);
    expect(stderr()).toBe(
      'Atlas: empty has no page Atlas reads: the folder is empty; ingesting it would remove all 2 docs from the index at .atlas/index.db. Nothing was changed. Check the folder, or pass --allow-empty to empty the index.\n',
    );
    expect(docIds()).toEqual(['leases', 'retries']);
    clear();
    expect(await runCli(['ingest', 'empty', '--rebuild'], io)).toBe(1);
    expect(docIds()).toEqual(['leases', 'retries']);
    clear();
    expect(await runCli(['ingest', 'empty', '--allow-empty'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 0 docs (0 chunks) into .atlas/index.db: 0 added, 0 updated, 0 unchanged, 2 removed.\n');
    expect(docIds()).toEqual([]);
  });

  it('counts pages skipped as invalid in the refusal', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    await mkdir(path.join(dir, 'broken'));
    await writeFile(path.join(dir, 'broken', 'bad.md'), '---\napplies_to: 3\n---\n# Bad\n\nText.\n');
    clear();
    expect(await runCli(['ingest', 'broken', '--skip-invalid'], io)).toBe(1);
    expect(stderr()).toContain('Atlas: broken has no page Atlas reads: found 1 .md file, 0 pages Atlas reads (1 invalid); ingesting it would remove all 2 docs');
    expect(docIds()).toEqual(['leases', 'retries']);
  });
});

describe('item 6: the folder pointed at is the folder indexed', () => {
  it('indexes the top-level pages of a folder that has a docs/ subfolder', async () => {
    await writeFile(path.join(dir, 'index.md'), page('home', 'The top-level page of the site.'));
    expect(await runCli(['ingest', '.', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).added).toEqual(['home', 'leases', 'retries']);
    expect(stderr()).toBe('');
  });

  it('indexes the docs/ of a dataset folder (docs/ + eval/*.jsonl) and says so, naming the pages left out', async () => {
    await mkdir(path.join(dir, 'eval'));
    await writeFile(path.join(dir, 'eval', 'qa_gold.jsonl'), '');
    await writeFile(path.join(dir, 'README.md'), '# Dataset\n\nAbout this dataset.\n');
    expect(await runCli(['ingest', '.', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).added).toEqual(['leases', 'retries']);
    expect(stderr()).toBe('atlas: . is a dataset folder (docs/ and eval/*.jsonl): indexing docs; 1 page beside it not indexed: README.md.\n');
  });
});

describe('a page with only markup (issue 37: a VitePress home page)', () => {
  it('is left out with a note on stderr, and the other pages are indexed', async () => {
    await writeFile(path.join(dir, 'docs', 'index.md'), '---\nlayout: home\nhero:\n  name: Example\n---\n\n<Home />\n');
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 2 docs (2 chunks) into .atlas/index.db: 2 added, 0 updated, 0 unchanged, 0 removed.\n');
    expect(stderr()).toBe(
      'atlas: note: index.md: content: left out: the page has no text of its own, only markup ("<Home />"), as a site\'s home page has. Nothing to do if that is intended; else write some text.\n',
    );
    expect(docIds()).toEqual(['leases', 'retries']);
  });
});

describe('item 9: file system and SQLite failures are clear errors and leave the index intact', () => {
  it('a concurrent writer: waits the busy timeout, then names the index and says to try again', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    await writeFile(path.join(dir, 'docs', 'new.md'), page('new', 'A page added while another ingest writes.'));
    const other = new Database(db());
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    try {
      io.env.ATLAS_BUSY_TIMEOUT = '0.05';
      clear();
      expect(await runCli(['ingest', 'docs'], io)).toBe(1);
      expect(stderr()).toBe(`Atlas: another ingest is writing ${db()}; try again when it finishes. (SQLite: database is locked, SQLITE_BUSY)\n`);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(docIds()).toEqual(['leases', 'retries']);
    clear();
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    expect(docIds()).toEqual(['leases', 'new', 'retries']);
  });

  it('a concurrent writer that commits meanwhile: the ingest waits for it and then succeeds', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    await writeFile(path.join(dir, 'docs', 'new.md'), page('new', 'A page added while another ingest writes.'));
    // Another process's ingest, in a worker thread: it holds the write lock for 300 ms, then
    // commits. SQLite's busy wait blocks this thread, so the holder cannot live on it.
    const worker = new Worker(
      `const Database = require('better-sqlite3');
       const { parentPort, workerData } = require('node:worker_threads');
       const db = new Database(workerData);
       db.exec("BEGIN IMMEDIATE; INSERT INTO meta (key, value) VALUES ('other', 'writer')");
       parentPort.postMessage('locked');
       Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
       db.exec('COMMIT');
       db.close();`,
      { eval: true, workerData: db() },
    );
    await new Promise((resolve) => worker.once('message', resolve));
    io.env.ATLAS_BUSY_TIMEOUT = '20';
    clear();
    const code = await runCli(['ingest', 'docs'], io);
    await new Promise((resolve) => worker.once('exit', resolve));
    expect(stderr()).toBe('');
    expect(code).toBe(0);
    expect(docIds()).toEqual(['leases', 'new', 'retries']);
  });

  it('a docs folder path too long is a usage error naming the cause', async () => {
    const long = 'd'.repeat(300);
    expect(await runCli(['ingest', long], io)).toBe(2);
    expect(stderr()).toBe(
      `Atlas: cannot read the docs folder ${JSON.stringify(path.join(dir, long))}: the path is too long (ENAMETOOLONG). Shorten the names of its folders, or move it higher up.\n`,
    );
  });

  it('rejects a bad ATLAS_BUSY_TIMEOUT with the fix', async () => {
    io.env.ATLAS_BUSY_TIMEOUT = 'soon';
    expect(await runCli(['ingest', 'docs'], io)).toBe(2);
    expect(stderr()).toBe('Atlas: ATLAS_BUSY_TIMEOUT must be a number of seconds >= 0, got "soon". Set e.g. ATLAS_BUSY_TIMEOUT=30, or unset it.\n');
  });

  it('a folder given as --db, and a --db path too long, are usage errors', async () => {
    await mkdir(path.join(dir, 'store'));
    expect(await runCli(['ingest', 'docs', '--db', 'store'], io)).toBe(2);
    const store = path.join(dir, 'store');
    expect(stderr()).toBe(`Atlas: --db ${store} is a folder, not an index file. Pass a file path, e.g. --db ${store}/index.db\n`);
    clear();
    expect(await runCli(['search', 'lease', '--db', 'store'], io)).toBe(2);
    expect(stderr()).toBe(`Atlas: --db ${store} is a folder, not an index file. Pass a file path, e.g. --db ${store}/index.db\n`);
    clear();
    const long = path.join(dir, `${'x'.repeat(300)}.db`);
    expect(await runCli(['ingest', 'docs', '--db', long], io)).toBe(2);
    expect(stderr()).toBe(`Atlas: the --db path is too long (ENAMETOOLONG): ${long}. Use a shorter path (names of at most 255 bytes), e.g. --db .atlas/index.db\n`);
  });

  it('a truncated index: search names the damage and the command that rebuilds it; --rebuild replaces it', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    truncateSync(db(), 3 * 4096);
    clear();
    expect(await runCli(['search', 'lease'], io)).toBe(1);
    expect(stderr()).toBe(
      `Atlas: the index at ${db()} is damaged (database disk image is malformed, SQLITE_CORRUPT), e.g. truncated by a copy or a full disk. Rebuild it: atlas ingest <docs-dir> --db ${db()} --rebuild\n`,
    );
    clear();
    expect(await runCli(['ingest', 'docs', '--rebuild'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 2 docs (2 chunks) into .atlas/index.db (rebuilt from scratch): 2 added, 0 updated, 0 unchanged, 0 removed.\n');
    expect(docIds()).toEqual(['leases', 'retries']);
  });

  it('search opens the index read-only: the file is not written and no -wal/-shm appear', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    const before = readFileSync(db());
    const modified = statSync(db()).mtimeMs;
    clear();
    expect(await runCli(['search', 'lease', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).hits.map((hit: { docId: string }) => hit.docId)).toEqual(['leases']);
    expect([readFileSync(db()).equals(before), statSync(db()).mtimeMs, existsSync(`${db()}-wal`), existsSync(`${db()}-shm`)]).toEqual([true, modified, false, false]);
    const raw = new Database(db(), { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('delete');
    raw.close();
  });
});

describe('item 10: --rebuild exists and is atomic', () => {
  it('rebuilds an index of another schema version, which plain ingest refuses with the --rebuild hint', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    const raw = new Database(db());
    raw.prepare(`UPDATE meta SET value = '1' WHERE key = 'schemaVersion'`).run();
    raw.close();
    clear();
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(stderr()).toBe(`Atlas: the index at ${db()} has schema version 1 but this Atlas needs 6. Rebuild it: atlas ingest <docs-dir> --db ${db()} --rebuild\n`);
    clear();
    expect(await runCli(['ingest', 'docs', '--db', db(), '--rebuild', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ rebuilt: true, added: ['leases', 'retries'], chunks: 2 });
    clear();
    expect(await runCli(['search', 'backoff', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).hits.map((hit: { docId: string }) => hit.docId)).toEqual(['retries']);
  });
});

describe('item 13: small ones', () => {
  it('a file given to ingest: says it is a file and which folder to pass', async () => {
    expect(await runCli(['ingest', 'docs/leases.md'], io)).toBe(2);
    expect(stderr()).toBe('Atlas: docs/leases.md is a file, not a folder; atlas ingest indexes every page of a folder. Pass the folder that holds it: atlas ingest docs\n');
    clear();
    await writeFile(path.join(dir, 'top.md'), 'x');
    expect(await runCli(['ingest', 'top.md'], io)).toBe(2);
    expect(stderr()).toContain('Pass the folder that holds it: atlas ingest .\n');
  });

  it('prints the db path as given, not re-expressed relative to the working directory', async () => {
    const elsewhere = await mkdtemp(path.join(tmpdir(), 'atlas-elsewhere-'));
    try {
      const outside = path.join(elsewhere, 'x.db');
      expect(await runCli(['ingest', 'docs', '--db', outside], io)).toBe(0);
      // It used to print path.relative(cwd, db): "../atlas-elsewhere-…/x.db".
      expect(stdout()).toBe(`Indexed 2 docs (2 chunks) into ${outside}: 2 added, 0 updated, 0 unchanged, 0 removed.\n`);
      clear();
      expect(await runCli(['ingest', 'docs', '--db', './sub/../x.db'], io)).toBe(0);
      expect(stdout()).toBe('Indexed 2 docs (2 chunks) into ./sub/../x.db: 2 added, 0 updated, 0 unchanged, 0 removed.\n');
      expect(existsSync(path.join(dir, 'x.db'))).toBe(true);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });
});

describe('the streamed ingest: pages are written while later ones are parsed', () => {
  /** 240 pages (enough for worker threads), the one at `bad` (if any) with invalid front matter. */
  const writeManyPages = async (folder: string, bad?: number) => {
    await mkdir(path.join(dir, folder));
    for (let n = 0; n < 240; n++) {
      const name = `page-${String(n).padStart(3, '0')}.md`;
      const text = n === bad ? '---\napplies_to: 3\n---\n# Bad\n\nText.\n' : page(`p${n}`, `Page ${n} is about otters number ${n}.`);
      await writeFile(path.join(dir, folder, name), text);
    }
  };

  it('a bad page near the end fails the whole ingest, names it, and leaves the index as it was', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    await writeManyPages('many', 238);
    clear();
    expect(await runCli(['ingest', 'many'], io)).toBe(1);
    expect(stderr()).toMatch(/^Atlas: 1 problem in the docs folder; nothing was written to the index\.\n {2}page-238\.md:2: applies_to: /);
    expect(docIds()).toEqual(['leases', 'retries']);
    clear();
    expect(await runCli(['ingest', 'many', '--skip-invalid', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout())).toMatchObject({ docs: 239, skipped: ['page-238.md'], chunks: 239, removed: ['leases', 'retries'] });
    expect(stderr()).toMatch(/^skipped page-238\.md:2: applies_to: /);
    expect((docIds() as string[]).length).toBe(239);
  });

  it('a failed first ingest leaves no index file behind', async () => {
    await writeManyPages('many', 5);
    expect(await runCli(['ingest', 'many'], io)).toBe(1);
    expect(stderr()).toContain('page-005.md:2: applies_to: ');
    expect(existsSync(db())).toBe(false);
    clear();
    expect(await runCli(['ingest', 'many', '--skip-invalid'], io)).toBe(0);
    expect(stdout()).toBe('Indexed 239 docs (239 chunks) into .atlas/index.db: 239 added, 0 updated, 0 unchanged, 0 removed.\n');
  });
});

describe('issue 38: a refused ingest leaves the file as it was; a new index is created once', () => {
  const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
  const tablesOf = (file: string) => {
    const raw = new Database(file, { readonly: true });
    const names = raw.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid`).pluck().all();
    raw.close();
    return names;
  };

  it("refuses to ingest into, or rebuild over, another application's SQLite database, and leaves it byte for byte as it was", async () => {
    const app = path.join(dir, 'app.db');
    const raw = new Database(app);
    raw.exec(`CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE orders (id INTEGER PRIMARY KEY, total REAL); INSERT INTO users (name) VALUES ('ada');`);
    raw.close();
    const before = hash(app);
    const refusal = `Atlas: the file at ${app} is an SQLite database with tables users, orders, not an Atlas index, and Atlas will not write to it. Choose another --db path for the index, e.g. --db .atlas/index.db\n`;
    for (const args of [['ingest', 'docs', '--db', 'app.db'], ['ingest', 'docs', '--db', 'app.db', '--rebuild'], ['search', 'lease', '--db', 'app.db']]) {
      clear();
      expect(await runCli(args, io)).toBe(2);
      expect(stderr()).toBe(refusal);
      expect(hash(app)).toBe(before);
    }
    expect(tablesOf(app)).toEqual(['users', 'orders']);
    expect((await readdir(dir)).sort()).toEqual(['app.db', 'docs']);
  });

  it('a refused ingest into an index of another schema version leaves it byte for byte as it was (no switch to WAL)', async () => {
    expect(await runCli(['ingest', 'docs'], io)).toBe(0);
    const raw = new Database(db());
    raw.prepare(`UPDATE meta SET value = '2' WHERE key = 'schemaVersion'`).run();
    raw.close();
    const before = hash(db());
    clear();
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(stderr()).toBe(`Atlas: the index at ${db()} has schema version 2 but this Atlas needs 6. Rebuild it: atlas ingest <docs-dir> --db ${db()} --rebuild\n`);
    expect([hash(db()), existsSync(`${db()}-wal`), existsSync(`${db()}-shm`)]).toEqual([before, false, false]);
  });

  it('two ingests creating a new index at once: the one that finishes second does not replace the first one\'s index, it ingests into it', async () => {
    // The other ingest: the same folder, built elsewhere, put in place while this one is building.
    await writeFile(path.join(dir, 'docs', 'broken.md'), '---\nid: broken\n---\n# Broken\n');
    expect(await runCli(['ingest', 'docs', '--db', 'other.db', '--skip-invalid'], recordingIO({ cwd: dir }))).toBe(0);
    let created = false;
    // --skip-invalid reports the skipped page just before the commit: the moment the other ingest finishes.
    const racing: RecordingIO = {
      ...io,
      stderr: (text) => {
        if (!created && !existsSync(db())) copyFileSync(path.join(dir, 'other.db'), db());
        created = true;
        io.err.push(text);
      },
    };
    expect(await runCli(['ingest', 'docs', '--skip-invalid'], racing)).toBe(0);
    expect(stdout()).toBe('Indexed 2 docs (2 chunks) into .atlas/index.db: 0 added, 0 updated, 2 unchanged, 0 removed.\n');
    const skipped = 'skipped broken.md: content: page has no text besides its front matter and title, got an empty body. Write some content, or delete the file.\n';
    expect(stderr()).toBe(`${skipped}atlas: note: another ingest created the index at .atlas/index.db while this one was building it; ingesting into that index instead.\n${skipped}`);
    expect(docIds()).toEqual(['leases', 'retries']);
    expect(await readdir(path.join(dir, '.atlas'))).toEqual(['index.db']);
  });
});
