import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from './test-cli.ts';
import { runCli } from './main.ts';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../examples/allergy');
const QUESTION = 'My son has a tree-nut allergy. Is your Christmas plum cake from Aundh safe for him?';

let dir: string;
let io: RecordingIO;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-policy-'));
  io = recordingIO({ cwd: dir });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stdout = () => io.out.join('');
const stderr = () => io.err.join('');

describe('atlas ask --policy', () => {
  it('runs the required search first, prints the rule that fired, and records it in --json', async () => {
    expect(await runCli(['ingest', path.join(example, 'docs')], io)).toBe(0);
    io.out.length = 0;
    expect(await runCli(['ask', QUESTION, '--policy', path.join(example, 'policy.yaml')], io)).toBe(0);
    expect(stdout()).toContain(
      '  policy rule "allergen-labels" fired on "allergy": search "allergen labelling policy shared production line MAY CONTAIN NUTS" -> required: bakery-handbook; cited: yes\n',
    );
    expect(stdout()).toContain('  search 1: "allergen labelling policy shared production line MAY CONTAIN NUTS" -> new docs: bakery-handbook, aundh-production\n');
    // The policy lives in the bakery's handbook, a PDF: cited by its page.
    expect(stdout()).toContain('Bakery operations handbook > Allergen labelling policy — bakery-handbook.pdf p.3\n');
    expect(stderr().split('\n')[1]).toBe('searching: allergen labelling policy shared production line MAY CONTAIN NUTS');
    io.out.length = 0;
    expect(await runCli(['ask', QUESTION, '--policy', path.join(example, 'policy.yaml'), '--strict', '--json'], io)).toBe(0);
    const run = JSON.parse(stdout());
    expect([run.trace.policy.fired.map((firing: { rule: string; cited: boolean }) => [firing.rule, firing.cited]), run.trace.policy.flags, run.trace.policy.strict]).toEqual([
      [['allergen-labels', true]],
      [],
      true,
    ]);
    expect(run.answer.citations.map((citation: { docId: string }) => citation.docId)).toContain('bakery-handbook');
  });

  it('rejects an unreadable or invalid policy file, and --strict without --policy, before touching the index', async () => {
    expect(await runCli(['ask', QUESTION, '--policy', 'missing.yaml'], io)).toBe(2);
    expect(stderr()).toBe(
      'Atlas: cannot read the policy file "missing.yaml": no such file (ENOENT). Pass the path of a YAML policy, e.g. atlas ask --policy examples/allergy/policy.yaml.\n',
    );
    io.err.length = 0;
    await writeFile(path.join(dir, 'bad.yaml'), 'rules:\n  - name: x\n    when: { terms: [nut] }\n');
    expect(await runCli(['ask', QUESTION, '--policy', 'bad.yaml'], io)).toBe(2);
    expect(stderr()).toBe('Atlas: invalid policy file bad.yaml:\n  bad.yaml: rules[0].require: require must be { search: "query" } (optionally with top: N) or { docs: [doc-id, ...] }, got nothing\nSee docs/policy.md for the format.\n');
    io.err.length = 0;
    expect(await runCli(['ask', QUESTION, '--strict'], io)).toBe(2);
    expect(stderr()).toBe('Atlas: --strict applies to a policy; pass --policy FILE with it (e.g. --policy examples/allergy/policy.yaml), or drop --strict.\n');
  });
});
