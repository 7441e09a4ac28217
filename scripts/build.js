// `npm run build` (also run by `npm ci` / `npm install` as the prepare step): compiles src/ to
// dist/ (JavaScript + source maps) with tsconfig.build.json, then writes dist/build-stamp.json
// holding the time the build started. bin/atlas.js runs dist/ only while no source file is newer
// than that time, so an edit made during or after the build never runs stale code.
// The build goes to a folder of its own, renamed to dist/ when complete: a reader (or a second
// build started at the same time) never sees half a dist/.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const startedAt = Date.now();
const staging = join(root, `dist-build-${process.pid}`);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', staging], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write('atlas build: tsc failed (see above); bin/atlas.js will run the TypeScript sources through tsx.\n');
  process.exit(build.status ?? 1);
}
writeFileSync(join(staging, 'build-stamp.json'), `${JSON.stringify({ startedAt })}\n`);
rmSync(join(root, 'dist'), { recursive: true, force: true });
renameSync(staging, join(root, 'dist'));
