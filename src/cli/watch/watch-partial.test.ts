import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTinyPdf } from '../../testing/tiny-pdf.ts';
import { planIngest, runIngest, type IngestOutcome } from '../commands/ingest-run.ts';
import { runCli } from '../main.ts';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { manualTimers, scriptedWatcher, type ManualTimers, type ScriptedWatcher } from './test-watch.ts';
import { startIngestWatch } from './watch-ingest.ts';
import type { IngestWatcher } from './ingest-watcher.ts';

// Issue 40: --watch reads and parses only the pages a change touches (the page, its sidecar, a
// folder rule above it), told by the outcome of each ingest (`parsed`), not by timing.

let dir: string;
let docs: string;
let io: RecordingIO;
let timers: ManualTimers;
let folder: ScriptedWatcher;
let watcher: IngestWatcher;
let outcomes: Array<{ parsed: string[]; added: string[]; updated: string[]; removed: string[] }>;
const write = async (file: string, content: string | Buffer) => {
  await mkdir(path.dirname(path.join(docs, file)), { recursive: true });
  await writeFile(path.join(docs, file), content);
};
const PDF = createTinyPdf([[{ text: 'Rota', size: 18, y: 540 }, { text: 'The rota names who opens the red safe.', size: 10, y: 510 }]], { title: 'Rota' });

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-watch-partial-'));
  docs = path.join(dir, 'docs');
  for (const name of ['a', 'b', 'c', 'd', 'e']) await write(`${name}.md`, `# Page ${name}\n\nThe page ${name} of the guide.\n`);
  await write('vault/_atlas.yaml', 'labels:\n  acl: [admins]\n');
  await write('vault/keys.md', '# Keys\n\nThe keys are in the red safe.\n');
  await write('vault/rota.pdf', PDF);
  io = recordingIO({ cwd: dir });
  timers = manualTimers();
  folder = scriptedWatcher();
  outcomes = [];
});
afterEach(async () => {
  await watcher?.close();
  await rm(dir, { recursive: true, force: true });
});

async function start(): Promise<IngestOutcome> {
  const plan = await planIngest(io, 'docs', { db: 'index.db', watch: true });
  const first = await runIngest(plan);
  const record = ({ parsed, report }: IngestOutcome) => outcomes.push({ parsed, added: report.added, updated: report.updated, removed: report.removed });
  watcher = await startIngestWatch(plan, { onIngested: record, deps: { createWatcher: folder.create, timers } });
  return first;
}

/** Reports the changes, lets the debounce pass and returns the ingest's outcome. */
async function changed(...files: string[]): Promise<(typeof outcomes)[number]> {
  const before = outcomes.length;
  for (const file of files) folder.change(path.join(docs, file));
  timers.advance(300);
  await watcher.idle();
  expect(io.err.filter((line) => line.startsWith('atlas: watch: the ingest'))).toEqual([]);
  expect(outcomes.length).toBe(before + 1);
  return outcomes.at(-1)!;
}

async function search(query: string, groups: string): Promise<string[]> {
  const searchIO = recordingIO({ cwd: dir });
  expect(await runCli(['search', query, '--db', 'index.db', '--groups', groups, '--json'], searchIO)).toBe(0);
  return (JSON.parse(searchIO.out.join('')) as { hits: Array<{ docId: string }> }).hits.map((hit) => hit.docId).sort();
}

describe('atlas ingest --watch, page by page', () => {
  it('parses only the page edited, added or removed, and only the pages under an edited folder rule or sidecar', async () => {
    expect((await start()).parsed).toEqual(['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'vault/keys.md', 'vault/rota.pdf']);

    await write('b.md', '# Page b\n\nThe page b, edited.\n');
    expect(await changed('b.md')).toEqual({ parsed: ['b.md'], added: [], updated: ['b'], removed: [] });

    await write('f.md', '# Page f\n\nA new page.\n');
    await unlink(path.join(docs, 'd.md'));
    expect(await changed('f.md', 'd.md')).toEqual({ parsed: ['f.md'], added: ['f'], updated: [], removed: ['d'] });

    expect(await search('red safe', 'staff')).toEqual([]);
    await write('vault/_atlas.yaml', 'labels:\n  acl: [admins, staff]\n');
    expect(await changed('vault/_atlas.yaml')).toEqual({ parsed: ['vault/keys.md', 'vault/rota.pdf'], added: [], updated: ['vault-keys', 'vault-rota'], removed: [] });
    expect(await search('red safe', 'staff')).toEqual(['vault-keys', 'vault-rota']);

    await write('vault/rota.pdf.atlas.yaml', 'labels:\n  acl: [admins]\n');
    expect(await changed('vault/rota.pdf.atlas.yaml')).toEqual({ parsed: ['vault/rota.pdf'], added: [], updated: ['vault-rota'], removed: [] });
    expect(await search('red safe', 'staff')).toEqual(['vault-keys']);

    // A comment in a rule changes no page's fields: nothing is parsed, nothing re-indexed.
    await write('vault/_atlas.yaml', '# who reads the vault\nlabels:\n  acl: [admins, staff]\n');
    expect(await changed('vault/_atlas.yaml')).toEqual({ parsed: [], added: [], updated: [], removed: [] });
  });

  it('reads every page again after a watch error (a change may have been missed), and a whole folder when it changes', async () => {
    await start();
    folder.error(new Error('EMFILE: too many open files'));
    await write('a.md', '# Page a\n\nThe page a, edited while a change was missed.\n');
    expect((await changed('c.md')).parsed).toEqual(['a.md', 'b.md', 'c.md', 'd.md', 'e.md', 'vault/keys.md', 'vault/rota.pdf']);
    expect(outcomes.at(-1)!.updated).toEqual(['a']);
    expect((await changed('vault')).parsed).toEqual(['vault/keys.md', 'vault/rota.pdf']);
  });
});
