#!/usr/bin/env node
// Entry point of the `atlas` command. The sources are TypeScript; tsx compiles them on load,
// so `npx atlas ...` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
const { processIO } = await import('../src/cli/io.ts');
process.exitCode = await runCli(process.argv.slice(2), processIO());
