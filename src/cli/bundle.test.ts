// The `atlas` command as npm ci builds it: bin/atlas.js runs the CLI bundle (dist/cli-bundle/,
// scripts/build.js) while dist/ is fresh. A bundle moves code into shared chunks, so the paths
// that code builds from import.meta.url (its parse workers, package.json) are checked here, on
// an ingest big enough to start the workers.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { isBuildFresh } from '../../bin/fresh-build.js';
import { MIN_PAGES_FOR_WORKERS } from '../corpus/workers/parse-pages.ts';

const root = path.resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);
const folder = mkdtempSync(path.join(tmpdir(), 'atlas-bundle-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the CLI bundle', () => {
  // A worker that cannot start only slows the ingest down (its pages are parsed on the main
  // thread), and may not even be reported before the ingest is done: so the paths are read here.
  it.runIf(isBuildFresh(root))('finds every file its modules name relative to themselves', () => {
    const bundle = path.join(root, 'dist', 'cli-bundle');
    const named: string[] = [];
    for (const file of readdirSync(bundle).filter((name) => name.endsWith('.js'))) {
      const code = readFileSync(path.join(bundle, file), 'utf8');
      for (const match of code.matchAll(/new URL\((?:"([^"]+)"|`([^`$]+)\$\{extname\(fileURLToPath\(import\.meta\.url\)\)\}`), import\.meta\.url\)/g)) {
        const relative = match[1] ?? `${match[2]}.js`;
        named.push(relative);
        expect(existsSync(path.join(bundle, relative)), `${file} names ${relative}`).toBe(true);
      }
    }
    expect([...new Set(named)].sort()).toEqual(['../../package.json', '../../src/server/page/', './ingest-worker.js', './parse-worker.js']);
  });

  // dist/ is built by `npm ci` (the prepare step), so CI always runs this; after a source edit,
  // `npm run build` brings it back (bin/atlas.js runs the sources meanwhile).
  it.runIf(isBuildFresh(root))('ingests through its parse workers and searches what they parsed', async () => {
    const docs = path.join(folder, 'docs');
    const pages = MIN_PAGES_FOR_WORKERS + 10;
    for (let n = 0; n < pages; n += 1) {
      mkdirSync(path.join(docs, `part-${n % 4}`), { recursive: true });
      const topic = n === 123 ? 'The lighthouse keeper logs every storm.' : `Page ${n} covers queue number ${n}.`;
      writeFileSync(path.join(docs, `part-${n % 4}`, `p${n}.md`), `---\nid: p${n}\ntitle: "Page ${n}"\n---\n\n# Page ${n}\n\n${topic}\n\n## Details\n\nMore about page ${n}.\n`);
    }
    const db = path.join(folder, 'index.db');
    const ingest = await run(process.execPath, ['bin/atlas.js', 'ingest', docs, '--db', db], { cwd: root });
    expect(ingest.stderr).toBe('');
    expect(ingest.stdout.trim().split('\n').at(-1)).toBe(`Indexed ${pages} docs (${pages * 2} chunks) into ${db}: ${pages} added, 0 updated, 0 unchanged, 0 removed.`);
    const search = await run(process.execPath, ['bin/atlas.js', 'search', 'lighthouse storms', '--db', db, '--json'], { cwd: root });
    const hits = (JSON.parse(search.stdout) as { hits: { docId: string; heading: string }[] }).hits;
    expect(hits.map((hit) => [hit.docId, hit.heading])).toEqual([['p123', 'Page 123']]);
    const version = await run(process.execPath, ['bin/atlas.js', '--version'], { cwd: root });
    expect(version.stdout.trim()).toBe((await import('../../package.json', { with: { type: 'json' } })).default.version);
    // The agent loop runs from the bundle too: the AI SDK, zod and the offline planner bundled with it.
    // No model named, no key, and no Ollama where it is looked for (port 9 is closed): the offline planner.
    const { ATLAS_MODEL: _model, OPENAI_API_KEY: _openai, ANTHROPIC_API_KEY: _anthropic, ...rest } = process.env;
    const env = { ...rest, OLLAMA_BASE_URL: 'http://127.0.0.1:9/v1' };
    const ask = await run(process.execPath, ['bin/atlas.js', 'ask', 'Who logs every storm?', '--db', db, '--max-searches', '2', '--json'], { cwd: root, env });
    const answer = (JSON.parse(ask.stdout) as { model: string; answer: { citations: { chunkId: string }[] } });
    expect(answer.model).toBe('offline');
    expect(answer.answer.citations.map((citation) => citation.chunkId)).toEqual(['p123#0']);
  });
});
