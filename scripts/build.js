// `npm run build` (also run by `npm ci` / `npm install` as the prepare step): compiles src/ to
// dist/ (JavaScript + source maps) with tsconfig.build.json, then writes dist/build-stamp.json
// holding the time the build started. bin/atlas.js runs dist/ only while no source file is newer
// than that time, so an edit made during or after the build never runs stale code.
// The command line also gets a bundle of its own, dist/cli-bundle/ (esbuild): the modules the
// CLI loads, in a few files, with the npm packages left as imports. `atlas search` loads about
// 70 files from dist/; Node resolving, reading and compiling each of them was a tenth of its
// start-up (see docs/performance.md). Its files sit side by side (entries and shared chunks in
// one folder, two levels below the package root as dist/<folder>/*.js are), so that the paths
// the code builds from import.meta.url (the parse workers beside it, ../../package.json,
// ../../src/server/page/) resolve as they do from dist/.
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
try {
  await bundleCli(join(staging, 'cli-bundle'));
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  process.stderr.write(`atlas build: bundling the CLI failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
writeFileSync(join(staging, 'build-stamp.json'), `${JSON.stringify({ startedAt })}\n`);
rmSync(join(root, 'dist'), { recursive: true, force: true });
renameSync(staging, join(root, 'dist'));

/** The CLI's entry modules and the workers they start, bundled into `outdir` (see the top of this file). */
async function bundleCli(outdir) {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/main.ts', 'src/cli/io.ts', 'src/corpus/workers/parse-worker.ts', 'src/index/sqlite/ingest-worker.ts'],
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunk-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The npm packages are bundled too (one copy of each in the bundle: zod schemas go to the AI
    // SDK and the MCP SDK, which check them), but for those that find files of their own at run
    // time: better-sqlite3 and sqlite-vec (native code), pg (its optional native binding).
    // Loading the AI SDK, zod and OpenTelemetry from node_modules as ~250 files took about twice
    // as long as from the bundle.
    plugins: [externalPackages(['better-sqlite3', 'sqlite-vec', 'pg'])],
    // Bundled CommonJS packages (commander, ajv, ...) call require() (node:events, ...): the ESM output needs one.
    banner: { js: "import { createRequire as __atlasCreateRequire } from 'node:module'; const require = __atlasCreateRequire(import.meta.url);" },
    // Maps without the sources' text (src/ ships beside dist/), read only to map the stack of a
    // failure (src/stack-trace.ts): Node would read and parse every loaded module's map with
    // source maps on.
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'warning',
  });
}

/** An esbuild plugin leaving the imports of the npm packages `external` (and their subpaths) as imports. */
function externalPackages(external) {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
        return external.includes(name) ? { path: args.path, external: true } : undefined;
      });
    },
  };
}
