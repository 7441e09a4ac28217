import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isBuildFresh } from './fresh-build.js';

describe('isBuildFresh', () => {
  const roots = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  /** A checkout with src/cli/main.ts and friends written at `sourceTime` (s) and a build started at `builtAt` (ms). */
  function checkout({ sourceTime, builtAt }) {
    const root = mkdtempSync(join(tmpdir(), 'atlas-fresh-'));
    roots.push(root);
    for (const file of ['src/cli/main.ts', 'src/cli/main.test.ts', 'src/corpus/__fixtures__/page.ts', 'src/README.md']) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), '');
      utimesSync(join(root, file), sourceTime, sourceTime);
    }
    if (builtAt !== undefined) {
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'dist', 'build-stamp.json'), JSON.stringify({ startedAt: builtAt }));
    }
    return root;
  }
  const touch = (root, file, time) => utimesSync(join(root, file), time, time);

  it('is fresh when every source is older than the start of the build', () => {
    expect(isBuildFresh(checkout({ sourceTime: 1_000, builtAt: 2_000_000 }))).toBe(true);
  });

  it('is stale once a built source is edited after the build started', () => {
    const root = checkout({ sourceTime: 1_000, builtAt: 2_000_000 });
    touch(root, 'src/cli/main.ts', 2_001);
    expect(isBuildFresh(root)).toBe(false);
  });

  it('ignores tests, fixtures and non-TypeScript files, which are not built', () => {
    const root = checkout({ sourceTime: 1_000, builtAt: 2_000_000 });
    touch(root, 'src/cli/main.test.ts', 3_000);
    touch(root, 'src/corpus/__fixtures__/page.ts', 3_000);
    touch(root, 'src/README.md', 3_000);
    expect(isBuildFresh(root)).toBe(true);
  });

  it('is stale without a build, or with a stamp that holds no start time', () => {
    expect(isBuildFresh(checkout({ sourceTime: 1_000 }))).toBe(false);
    const root = checkout({ sourceTime: 1_000, builtAt: 2_000_000 });
    writeFileSync(join(root, 'dist', 'build-stamp.json'), '{"startedAt":"yesterday"}');
    expect(isBuildFresh(root)).toBe(false);
  });
});
