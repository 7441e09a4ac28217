import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AtlasError } from '../errors.ts';
import { loadConfig } from './load.ts';

const label = (name: string) => `model_labels:\n  - name: ${name}\n`;

/** A file system of these files (absolute paths), reads recorded in order. */
function filesOf(files: Record<string, string>) {
  const reads: string[] = [];
  const readFile = async (file: string) => {
    reads.push(file);
    const text = files[file];
    if (text === undefined) throw Object.assign(new Error(`ENOENT: ${file}`), { code: 'ENOENT' });
    return text;
  };
  return { reads, readFile };
}

const errorOf = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AtlasError);
  return (error as AtlasError).message;
};

describe('loadConfig discovery', () => {
  const all = {
    '/project/explicit.yaml': label('explicit'),
    '/project/env.yaml': label('env'),
    '/docs/atlas.config.yaml': label('docsroot'),
    '/project/atlas.config.yaml': label('cwd'),
  };
  const names = async (options: Parameters<typeof loadConfig>[0]) => (await loadConfig(options))?.modelLabels.map((item) => item.name);

  it('takes --config, then ATLAS_CONFIG, then the docs root, then the cwd: the first found wins', async () => {
    const fs = filesOf(all);
    const base = { cwd: '/project', readFile: fs.readFile };
    expect(await names({ ...base, file: 'explicit.yaml', env: { ATLAS_CONFIG: 'env.yaml' }, docsRoot: '/docs' })).toEqual(['explicit']);
    expect(await names({ ...base, env: { ATLAS_CONFIG: 'env.yaml' }, docsRoot: '/docs' })).toEqual(['env']);
    expect(await names({ ...base, env: { ATLAS_CONFIG: '  ' }, docsRoot: '/docs' })).toEqual(['docsroot']);
    expect(await names({ ...base, docsRoot: '/elsewhere' })).toEqual(['cwd']);
    expect(fs.reads).toEqual(['/project/explicit.yaml', '/project/env.yaml', '/docs/atlas.config.yaml', '/elsewhere/atlas.config.yaml', '/project/atlas.config.yaml']);
  });

  it('names a discovered file relative to the cwd when it is inside it, absolute otherwise', async () => {
    const fs = filesOf({ '/project/docs/atlas.config.yaml': label('a'), '/docs/atlas.config.yaml': label('b') });
    expect((await loadConfig({ cwd: '/project', docsRoot: 'docs', readFile: fs.readFile }))?.source).toBe('docs/atlas.config.yaml');
    expect((await loadConfig({ cwd: '/project', docsRoot: '/docs', readFile: fs.readFile }))?.source).toBe('/docs/atlas.config.yaml');
  });

  it('is fine without any file, and reads the cwd once when it is the docs root', async () => {
    const fs = filesOf({});
    expect(await loadConfig({ cwd: '/project', docsRoot: '/project', readFile: fs.readFile })).toBeUndefined();
    expect(fs.reads).toEqual(['/project/atlas.config.yaml']);
  });

  it('fails when an explicit file is missing, naming where it came from and the fix', async () => {
    const fs = filesOf(all);
    expect(await errorOf(loadConfig({ cwd: '/project', file: 'missing.yaml', docsRoot: '/docs', readFile: fs.readFile }))).toBe(
      'Atlas: cannot read the config file "missing.yaml" (--config): no such file (ENOENT). Pass the path of an atlas.config.yaml, or leave --config out to use the one at the docs or project root.',
    );
    expect(await errorOf(loadConfig({ cwd: '/project', env: { ATLAS_CONFIG: 'gone.yaml' }, docsRoot: '/docs', readFile: fs.readFile }))).toBe(
      'Atlas: cannot read the config file "gone.yaml" (ATLAS_CONFIG): no such file (ENOENT). Point ATLAS_CONFIG at an atlas.config.yaml, or unset it.',
    );
  });

  it('fails on an invalid discovered file instead of skipping it', async () => {
    const fs = filesOf({ '/docs/atlas.config.yaml': 'rules: []\n', '/project/atlas.config.yaml': label('cwd') });
    expect(await errorOf(loadConfig({ cwd: '/project', docsRoot: '/docs', readFile: fs.readFile }))).toBe(
      'Atlas: invalid config file /docs/atlas.config.yaml:\n  /docs/atlas.config.yaml: (top level): unknown key rules; the known keys are model_labels, policy\nSee docs/policy.md ("Config file") for the format.',
    );
  });
});

describe('loadConfig on the file system', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'atlas-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a real file, and reports a folder in the way of a discovered file', async () => {
    await mkdir(path.join(dir, 'docs'));
    await writeFile(path.join(dir, 'docs', 'atlas.config.yaml'), label('store'));
    expect(await loadConfig({ cwd: dir, docsRoot: 'docs' })).toEqual({ source: path.join('docs', 'atlas.config.yaml'), modelLabels: [{ name: 'store' }] });
    await mkdir(path.join(dir, 'atlas.config.yaml'));
    expect(await errorOf(loadConfig({ cwd: dir }))).toBe('Atlas: cannot read the config file "atlas.config.yaml": it is a folder (EISDIR). Make it a readable YAML file, or remove it.');
  });
});
