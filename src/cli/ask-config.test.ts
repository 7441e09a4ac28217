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
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-config-'));
  io = recordingIO({ cwd: dir });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const stdout = () => io.out.join('');
const stderr = () => io.err.join('');
const clear = () => {
  io.out.length = 0;
  io.err.length = 0;
};

describe('atlas.config.yaml in the CLI', () => {
  it('ingest records the docs root, and ask uses the config found there: its policy fires', async () => {
    expect(await runCli(['ingest', example], io)).toBe(0);
    expect(stderr()).toBe(`atlas: config: ${path.join(example, 'atlas.config.yaml')}\n`);
    clear();
    expect(await runCli(['ask', QUESTION, '--json'], io)).toBe(0);
    const run = JSON.parse(stdout());
    expect(run.config).toBe(path.join(example, 'atlas.config.yaml'));
    expect(run.trace.policy.source).toBe(path.join(example, 'atlas.config.yaml'));
    expect(run.trace.policy.fired.map((firing: { rule: string; cited: boolean }) => [firing.rule, firing.cited])).toEqual([['allergen-labels', true]]);
    expect(stderr().split('\n')[0]).toBe(`atlas: config: ${path.join(example, 'atlas.config.yaml')}`);
  });

  it('--policy on the command line wins over the policy of the config', async () => {
    expect(await runCli(['ingest', example], io)).toBe(0);
    clear();
    const policyFile = path.join(example, 'policy.yaml');
    expect(await runCli(['ask', QUESTION, '--policy', policyFile, '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).trace.policy.source).toBe(policyFile);
  });

  it('--config beats ATLAS_CONFIG, which beats the docs root; --strict takes the config policy', async () => {
    await writeFile(path.join(dir, 'labels-only.yaml'), 'model_labels:\n  - name: store\n');
    expect(await runCli(['ingest', example], io)).toBe(0);
    clear();
    io.env.ATLAS_CONFIG = path.join(example, 'atlas.config.yaml');
    expect(await runCli(['ask', QUESTION, '--config', 'labels-only.yaml', '--json'], io)).toBe(0);
    expect([JSON.parse(stdout()).config, JSON.parse(stdout()).trace.policy]).toEqual(['labels-only.yaml', undefined]);
    clear();
    expect(await runCli(['ask', QUESTION, '--config', 'labels-only.yaml', '--strict'], io)).toBe(2);
    expect(stderr()).toBe(
      'atlas: config: labels-only.yaml\nAtlas: --strict applies to a policy; pass --policy FILE with it (e.g. --policy examples/allergy/policy.yaml) or add policy: to labels-only.yaml, or drop --strict.\n',
    );
    clear();
    expect(await runCli(['ask', QUESTION, '--strict', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).trace.policy.strict).toBe(true);
  });

  it('a missing --config or ATLAS_CONFIG, or an invalid config, is a usage error on every command', async () => {
    expect(await runCli(['search', 'plum cake', '--config', 'missing.yaml'], io)).toBe(2);
    expect(stderr()).toBe(
      'Atlas: cannot read the config file "missing.yaml" (--config): no such file (ENOENT). Pass the path of an atlas.config.yaml, or leave --config out to use the one at the docs or project root.\n',
    );
    clear();
    io.env.ATLAS_CONFIG = 'gone.yaml';
    expect(await runCli(['ask', QUESTION], io)).toBe(2);
    expect(stderr()).toBe('Atlas: cannot read the config file "gone.yaml" (ATLAS_CONFIG): no such file (ENOENT). Point ATLAS_CONFIG at an atlas.config.yaml, or unset it.\n');
    delete io.env.ATLAS_CONFIG;
    clear();
    await writeFile(path.join(dir, 'atlas.config.yaml'), 'model_labels:\n  - name: acl\n');
    expect(await runCli(['ingest', path.join(example, 'docs')], io)).toBe(2);
    expect(stderr()).toBe(
      "Atlas: invalid config file atlas.config.yaml:\n  atlas.config.yaml: model_labels[0].name: acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it\nSee docs/policy.md (\"Config file\") for the format.\n",
    );
  });

  it('notes declared labels that no page carries, at ingest and at ask', async () => {
    await writeFile(path.join(dir, 'atlas.config.yaml'), 'model_labels:\n  - name: stores\n  - name: store\n');
    expect(await runCli(['ingest', path.join(example, 'docs')], io)).toBe(0);
    const note = 'atlas: note: atlas.config.yaml declares the model label "stores", but no public page carries it; search_docs does not offer it\n';
    expect(stderr()).toBe(`atlas: config: atlas.config.yaml\n${note}`);
    clear();
    expect(await runCli(['ask', 'Which store opens its pickup counter?', '--json'], io)).toBe(0);
    expect(JSON.parse(stdout()).notes).toEqual([note.slice('atlas: note: '.length, -1)]);
  });
});
