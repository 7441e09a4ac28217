// `npm run build` (also run by `npm ci` / `npm install` as the prepare step): compiles src/ to
// dist/ (JavaScript + source maps) with tsconfig.build.json, then writes dist/build-stamp.json
// holding the time the build started. bin/atlas.js runs dist/ only while no source file is newer
// than that time, so an edit made during or after the build never runs stale code.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const startedAt = Date.now();
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) {
  process.stderr.write('atlas build: tsc failed (see above); bin/atlas.js will run the TypeScript sources through tsx.\n');
  process.exit(build.status ?? 1);
}
writeFileSync(new URL('../dist/build-stamp.json', import.meta.url), `${JSON.stringify({ startedAt })}\n`);
