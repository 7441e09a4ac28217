import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { cliFilter, resolvePrincipal } from './access-options.ts';
import { runCli } from '../main.ts';

let dir: string;
let io: RecordingIO;

const page = (id: string, labels: string, body: string) => `---\nid: ${id}\napplies_to: "3.x"\n${labels}---\n# ${id}\n\n${body}\n`;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-access-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  const docs: Array<[string, string, string]> = [
    ['unseal', 'labels:\n  acl: [admins]\n', 'Unseal keys: ADMINONLY, kept by the vault admins.'],
    ['rota', 'labels:\n  acl: [staff, admins]\n', 'The vault on-call rota, ADMINONLY pages aside.'],
    ['public-vault', '', 'Vault overview for everyone.'],
    ['aundh-cake', 'labels:\n  store: Aundh\n', 'Plum cake is baked in Aundh on Line 2.'],
    ['baner-cake', 'labels:\n  store: [Baner, Wakad]\n', 'Plum cake is baked in Baner.'],
    ['every-store-cake', 'labels:\n  store: all\n', 'Plum cake labels say MAY CONTAIN NUTS in every store.'],
    ['cake-faq', '', 'Plum cake questions go to the bakery desk.'],
  ];
  for (const [id, labels, body] of docs) await writeFile(path.join(dir, 'docs', `${id}.md`), page(id, labels, body));
  expect(await runCli(['ingest', 'docs'], io)).toBe(0);
  io.out.length = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const searchDocIds = async (args: string[]): Promise<string[]> => {
  io.out.length = 0;
  expect(await runCli(['search', '--json', '--k', '20', ...args], io)).toBe(0);
  return (JSON.parse(io.out.join('')) as { hits: Array<{ docId: string }> }).hits.map((hit) => hit.docId).sort();
};

describe('atlas search --groups / ATLAS_GROUPS', () => {
  it('never returns pages outside the groups of the asker', async () => {
    expect(await searchDocIds(['--version', '3.x', '--', 'ADMINONLY'])).toEqual([]);
    expect(await searchDocIds(['--groups', 'staff', '--', 'ADMINONLY'])).toEqual(['rota']);
    expect(await searchDocIds(['--groups', 'staff', 'vault'])).toEqual(['public-vault', 'rota']);
    expect(await searchDocIds(['--groups', 'guests,admins', 'vault'])).toEqual(['public-vault', 'rota', 'unseal']);
    io.env.ATLAS_GROUPS = 'admins';
    expect(await searchDocIds(['ADMINONLY'])).toEqual(['rota', 'unseal']);
    expect(await searchDocIds(['--groups', 'staff', 'ADMINONLY'])).toEqual(['rota']);
  });

  it('exits 2 naming the value and the fix for malformed groups', async () => {
    expect(await runCli(['search', '--groups', 'staff,', 'vault'], io)).toBe(2);
    expect(io.err.join('')).toContain('--groups must be group names separated by commas, got "staff," (e.g. staff,admins).');
    io.err.length = 0;
    io.env.ATLAS_GROUPS = ',admins';
    expect(await runCli(['search', 'vault'], io)).toBe(2);
    expect(io.err.join('')).toBe('Atlas: ATLAS_GROUPS must be group names separated by commas, got ",admins" (e.g. staff,admins). Or unset it for public pages only.\n');
  });

  it('keeps restricted pages out of atlas ask, its evidence and its citations', async () => {
    expect(await runCli(['ask', '--json', '--groups', 'staff', 'Who keeps the unseal keys ADMINONLY?'], io)).toBe(0);
    const run = JSON.parse(io.out.join('')) as { answer: { citations: Array<{ docId: string }> }; trace: { evidence: Array<{ docId: string }>; steps: Array<{ filter: object }> } };
    expect(run.trace.evidence.map((item) => item.docId)).not.toContain('unseal');
    expect(run.answer.citations.map((citation) => citation.docId)).not.toContain('unseal');
    expect(run.trace.steps[0]?.filter).toEqual({ principal: { groups: ['staff'] } });
  });

  it('names the groups and labels in force on every search line of the text trace', async () => {
    expect(await runCli(['ask', '--groups', 'staff', '--label', 'store=Aundh,Wakad', 'Who keeps the unseal keys ADMINONLY?'], io)).toBe(0);
    const searches = io.out.join('').split('\n').filter((line) => line.startsWith('  search 1:'));
    expect(searches).toEqual([expect.stringMatching(/^  search 1: "Who keeps the unseal keys ADMINONLY\?" \[label store=Aundh,Wakad\] \[groups staff\] -> /)]);
  });
});

describe('atlas search --label', () => {
  it('keeps pages with the value or "all", and pages without the label', async () => {
    expect(await searchDocIds(['--label', 'store=Aundh', 'plum cake'])).toEqual(['aundh-cake', 'cake-faq', 'every-store-cake']);
    expect(await searchDocIds(['--label', 'store=Aundh,Wakad', 'plum cake'])).toEqual(['aundh-cake', 'baner-cake', 'cake-faq', 'every-store-cake']);
    expect(await searchDocIds(['--label', 'store=Aundh', '--label', 'store=Baner', 'plum cake'])).toEqual(['aundh-cake', 'baner-cake', 'cake-faq', 'every-store-cake']);
    expect(await searchDocIds(['--label', 'store=Kothrud', 'plum cake'])).toEqual(['cake-faq', 'every-store-cake']);
    expect(await searchDocIds(['plum cake'])).toEqual(['aundh-cake', 'baner-cake', 'cake-faq', 'every-store-cake']);
  });

  it('exits 2 for a malformed label, and points acl at --groups', async () => {
    expect(await runCli(['search', '--label', 'store', 'cake'], io)).toBe(2);
    expect(io.err.join('')).toContain('--label must be name=value or name=value1,value2, got "store" (e.g. --label store=Aundh).');
    io.err.length = 0;
    expect(await runCli(['search', '--label', 'acl=admins', 'vault'], io)).toBe(2);
    expect(io.err.join('')).toContain("--label acl=admins: access is not a label filter; pass the asker's groups with --groups admins (or ATLAS_GROUPS).");
  });
});

describe('cliFilter', () => {
  it('combines version, labels and the principal, --groups over ATLAS_GROUPS', () => {
    expect(cliFilter({}, {})).toBeUndefined();
    expect(cliFilter({ ATLAS_GROUPS: ' staff , admins,staff' }, { version: '3.x', label: { store: ['Aundh'] } })).toEqual({
      version: '3.x',
      labels: { store: ['Aundh'] },
      principal: { groups: ['staff', 'admins'] },
    });
    expect(resolvePrincipal({ ATLAS_GROUPS: 'admins' }, ['staff'])).toEqual({ groups: ['staff'] });
    expect(resolvePrincipal({ ATLAS_GROUPS: '  ' }, undefined)).toBeUndefined();
  });
});
