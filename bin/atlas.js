#!/usr/bin/env node
// Entry point of the `atlas` command. It runs the compiled JavaScript (dist/cli-bundle/, the
// CLI bundled from the sources: scripts/build.js, run by the prepare step of `npm ci` or by
// `npm run build`) when that build is newer than every source file;
// otherwise (no build yet, or a source edited since) it runs the TypeScript sources through tsx,
// which compiles them on load: slower to start, never stale.
import { fileURLToPath } from 'node:url';
import { isBuildFresh } from './fresh-build.js';

let cli;
// Source maps stay off: Node would read and parse the map of every module it loads (8 ms of an
// `atlas search`). The one stack a failure prints is mapped when printed (src/stack-trace.ts).
if (isBuildFresh(fileURLToPath(new URL('..', import.meta.url)))) {
  cli = { main: '../dist/cli-bundle/main.js', io: '../dist/cli-bundle/io.js' };
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = { main: '../src/cli/main.ts', io: '../src/cli/io.ts' };
}
const { runCli } = await import(cli.main);
const { processIO } = await import(cli.io);
process.exitCode = await runCli(process.argv.slice(2), processIO());
