// The package's entry points as a plain Node consumer sees them: `import 'atlas-rag'` must load
// compiled JavaScript (Node 20 cannot import .ts) with its declarations beside it.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isBuildFresh } from '../bin/fresh-build.js';

const root = path.resolve(import.meta.dirname, '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string }> };
const ENTRY_SOURCES: Record<string, string> = { '.': 'src/index.ts', './testing': 'src/testing/index.ts' };

describe('package exports', () => {
  it('map each entry point to the built JavaScript and declarations of its source module', () => {
    expect(Object.keys(manifest.exports)).toEqual(Object.keys(ENTRY_SOURCES));
    for (const [entry, source] of Object.entries(ENTRY_SOURCES)) {
      const built = source.replace(/^src\//, './dist/').replace(/\.ts$/, '');
      expect(manifest.exports[entry]).toEqual({ types: `${built}.d.ts`, default: `${built}.js` });
      expect(existsSync(path.join(root, source))).toBe(true);
    }
  });

  // dist/ is built by `npm ci` (the prepare step), so CI always runs this; after a source edit,
  // `npm run build` brings it back (the same freshness rule bin/atlas.js uses).
  it.runIf(isBuildFresh(root))('load in plain Node (no TypeScript loader) with the names of the sources', async () => {
    const script = "const names = async (m) => Object.keys(await import(m)).sort(); console.log(JSON.stringify([await names('atlas-rag'), await names('atlas-rag/testing')]));";
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
    const [main, testing] = JSON.parse(stdout) as [string[], string[]];
    expect(main).toEqual(Object.keys(await import('./index.ts')).sort());
    expect(testing).toEqual(Object.keys(await import('./testing/index.ts')).sort());
    expect(main).toContain('agenticRun');
  });
});
