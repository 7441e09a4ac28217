import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A folder of the workplace's shared real data, and whether this checkout can see it. */
export interface SharedFolder {
  path: string;
  present: boolean;
  /** The reason a test that needs the folder gives when it skips. */
  absent: string;
}

/**
 * Locates a folder of the shared real corpora and datasets, which live outside the repo: beside
 * the checkout in `../shared`, or under `ATLAS_SHARED_DIR` when the clone is elsewhere (CI, forks).
 * For tests: they skip, naming the missing folder, when it is absent.
 *
 * @example
 * const corpus = sharedFolder('corpora/graphile-worker/docs', process.env);
 * it('loads', ({ skip }) => { skip(!corpus.present, corpus.absent); ... });
 */
export function sharedFolder(relative: string, env: Record<string, string | undefined>): SharedFolder {
  const root = env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../../shared', import.meta.url));
  const path = join(root, relative);
  const parent = relative.split('/')[0] ?? relative;
  return { path, present: existsSync(path), absent: `the folder ${path} is absent (it lives outside the repo, beside it in ../shared/${parent})` };
}
