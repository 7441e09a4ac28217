#!/usr/bin/env node
// Entry point of the `atlas` command. The sources are TypeScript; tsx compiles them on load,
// so `npx atlas ...` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
