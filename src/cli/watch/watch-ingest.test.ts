import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestSchemas, testPostgres } from '../../testing/postgres-server.ts';
import { registerIngestCommand } from '../commands/ingest-command.ts';
import { runCli } from '../main.ts';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { manualTimers, scriptedWatcher, type ManualTimers, type ScriptedWatcher } from './test-watch.ts';

// `atlas ingest --watch` in process: real files and a real index (SQLite, and PostgreSQL when a
// test server is given: the ingest path is the same), the file watcher and the clock scripted.
const server = testPostgres(process.env);
const schemas = server.url === undefined ? undefined : createTestSchemas(server.url, 'watch');
afterAll(() => schemas?.dropAll());
/** The index of the test: `db` as passed, `shown` as messages name it. */
let index: { db: string; shown: string };
let dir: string;
let docs: string;
let io: RecordingIO;
let timers: ManualTimers;
let folder: ScriptedWatcher;
let stop: (signal: string) => void;
let running: Promise<void>;
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# ${id}\n\n${text}\n`;

/** The tests, over the index `makeIndex` gives each. */
function watchSuite(name: string, makeIndex: () => { db: string; shown: string }): void {
  describe(name, () => {
    beforeEach(async () => {
      index = makeIndex();
      dir = await mkdtemp(path.join(tmpdir(), 'atlas-watch-'));
      docs = path.join(dir, 'docs');
      await mkdir(docs);
      await writeFile(path.join(docs, 'leases.md'), page('leases', 'A worker holds a job for a lease of sixty seconds.'));
      await writeFile(path.join(docs, 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
      io = recordingIO({ cwd: dir });
      timers = manualTimers();
      folder = scriptedWatcher();
      const stopped = new Promise<string>((resolve) => (stop = resolve));
      const program = new Command('atlas').exitOverride().configureOutput({ writeOut: io.stdout, writeErr: io.stderr });
      registerIngestCommand(program, io, { stopRequested: () => stopped, watch: { createWatcher: folder.create, timers } });
      running = program.parseAsync(['ingest', 'docs', '--watch', '--db', index.db], { from: 'user' }).then(() => undefined);
      await until(() => io.err.join('').includes('atlas: watching docs for changes'));
    });

    afterEach(async () => {
      stop('SIGINT');
      await running.catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    });

    /** Waits (polling, at most 5 s) until `condition` holds. */
    async function until(condition: () => boolean): Promise<void> {
      for (let waited = 0; !condition(); waited += 10) {
        if (waited > 5000) throw new Error(`timed out; stderr:\n${io.err.join('')}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    /** Reports the changes, lets the debounce pass and waits for the ingest's report line; returns its stderr, then its stdout. */
    async function changed(...files: string[]): Promise<string> {
      const lines = io.out.length;
      const errors = io.err.length;
      for (const file of files) folder.change(path.join(docs, file));
      timers.advance(300);
      await until(() => io.out.length > lines || io.err.slice(errors).some((text) => text.startsWith('atlas: watch:')));
      return [...io.err.slice(errors), ...io.out.slice(lines)].join('');
    }

    async function search(query: string): Promise<string[]> {
      const searchIO = recordingIO({ cwd: dir });
      expect(await runCli(['search', query, '--db', index.db, '--json'], searchIO)).toBe(0);
      return (JSON.parse(searchIO.out.join('')) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId);
    }

    describe('atlas ingest --watch', () => {
      it('indexes the folder, then each edit, addition and removal, one ingest per burst', async () => {
        expect(io.out.join('')).toBe(`Indexed 2 docs (2 chunks) into ${index.shown}: 2 added, 0 updated, 0 unchanged, 0 removed.\n`);
        expect(folder.root()).toBe(docs);

        await writeFile(path.join(docs, 'leases.md'), page('leases', 'A worker holds a job for a lease of ninety seconds.'));
        expect(await changed('leases.md')).toBe(`atlas: changed: leases.md\nIndexed 2 docs (2 chunks) into ${index.shown}: 0 added, 1 updated, 1 unchanged, 0 removed (1 page parsed, 0 ms).\n`);
        expect(await search('ninety')).toEqual(['leases#0']);
        expect(await search('sixty')).toEqual([]);

        // An editor's save: a temp file written, then renamed over the page; and a new page and a removal in the same burst.
        await writeFile(path.join(docs, 'queues.md.tmp'), page('queues', 'Queues run jobs in order.'));
        await rename(path.join(docs, 'queues.md.tmp'), path.join(docs, 'queues.md'));
        await unlink(path.join(docs, 'retries.md'));
        expect(await changed('queues.md.tmp', 'queues.md', 'retries.md')).toBe(`atlas: changed: queues.md, retries.md\nIndexed 2 docs (2 chunks) into ${index.shown}: 1 added, 0 updated, 1 unchanged, 1 removed (1 page parsed, 0 ms).\n`);
        expect(await search('queues order')).toEqual(['queues#0']);
        expect(await search('exponential backoff')).toEqual([]);
      });

      it('a broken page fails its ingest, the index keeps its previous version, and the fixed page is indexed', async () => {
        await writeFile(path.join(docs, 'leases.md'), '---\nid: [leases\n---\n# Leases\n\nA lease of ninety seconds.\n');
        expect(await changed('leases.md')).toBe(
          `atlas: watch: the ingest after changes to leases.md failed; ${index.shown} keeps its previous version and searches read it. Still watching: fix the page and save it again.\n` +
            'Atlas: 1 problem in the docs folder; nothing was written to the index.\n' +
            '  leases.md:2: front matter: front matter is not valid YAML at column 12: Flow sequence in block collection must be sufficiently indented and end with a ]. Fix the YAML syntax; quote values that contain ": " or " #".\n' +
            'Fix them, or pass --skip-invalid to index the valid pages only.\n',
        );
        expect(await search('sixty')).toEqual(['leases#0']);
        expect(await search('ninety')).toEqual([]);

        await writeFile(path.join(docs, 'leases.md'), page('leases', 'A worker holds a job for a lease of ninety seconds.'));
        expect(await changed('leases.md')).toBe(`atlas: changed: leases.md\nIndexed 2 docs (2 chunks) into ${index.shown}: 0 added, 1 updated, 1 unchanged, 0 removed (1 page parsed, 0 ms).\n`);
        expect(await search('ninety')).toEqual(['leases#0']);
      });

      it('the index files and editor temp files inside the folder do not start an ingest; SIGINT stops watching', async () => {
        folder.change(path.join(docs, '.leases.md.swp'));
        folder.change(path.join(docs, '4913'));
        folder.change(path.join(docs, 'leases.md~'));
        expect(timers.pending()).toBe(0);
        stop('SIGINT');
        await running;
        expect(folder.closed()).toBe(true);
        expect(io.err.join('')).toBe('atlas: watching docs for changes (Ctrl-C stops)\natlas ingest: SIGINT: stopping\natlas ingest: stopped watching\n');
      });
    });
  });
}

watchSuite('SQLite', () => ({ db: 'index.db', shown: 'index.db' }));

describe.skipIf(schemas === undefined)(`PostgreSQL${schemas === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  watchSuite('--db postgres://', () => {
    const db = schemas!.fresh();
    return { db, shown: db };
  });
});
