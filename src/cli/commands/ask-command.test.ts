import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { agenticRun } from '../../agent/run.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { formatRun } from './ask-command.ts';
import { runCli } from '../main.ts';

let dir: string;
let io: RecordingIO;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-ask-'));
  io = recordingIO({ cwd: dir });
  await mkdir(path.join(dir, 'docs'));
  await writeFile(
    path.join(dir, 'docs', 'leases.md'),
    '---\nid: leases\napplies_to: "3.x"\n---\n# Leases\n\nA worker holds a job for the lease.\n\n## Setting\n\nSet `[worker] lease_seconds` in orbit.toml (default 60).\n',
  );
  await runCli(['ingest', 'docs'], io);
  io.out.length = 0;
  io.err.length = 0;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('atlas ask --route', () => {
  it('records route agentic by default, and route classic as one search and one call', async () => {
    expect(await runCli(['ask', 'Which setting holds the lease seconds?', '--json'], io)).toBe(0);
    const agentic = JSON.parse(io.out.join(''));
    expect([agentic.route, agentic.routeReason]).toEqual(['agentic', 'route agentic was asked for']);
    io.out.length = 0;
    expect(await runCli(['ask', 'Which setting holds the lease seconds?', '--route', 'classic', '--json'], io)).toBe(0);
    const classic = JSON.parse(io.out.join(''));
    expect([classic.route, classic.trace.steps.length, classic.usage.modelCalls]).toEqual(['classic', 1, 1]);
  });

  it('route auto escalates a weak classic match (a two-page corpus scores low) and says so in the text trace', async () => {
    expect(await runCli(['ask', 'Which setting holds the lease seconds?', '--route', 'auto'], io)).toBe(0);
    const text = io.out.join('');
    expect(text).toMatch(/\n {2}route: agentic \(escalated: classic best score \d+\.\d\d is below the weak threshold 9\.2\)\n/);
    expect(text).toMatch(/\n {2}classic pass set aside: searches 1, calls 1, \d+\.\d\d s \(counted below\)\n/);
  });

  it('refuses an unknown route with exit 2, naming the value', async () => {
    expect(await runCli(['ask', 'lease?', '--route', 'fast'], io)).toBe(2);
    expect(io.err.join('')).toContain('Atlas: --route must be "classic", "agentic" or "auto", got "fast".');
  });
});

describe('atlas ask: claims', () => {
  it('prints the claim count under the answer, and every claim with its support in --json', async () => {
    expect(await runCli(['ask', 'Which setting holds the lease seconds?', '--json'], io)).toBe(0);
    const run = JSON.parse(io.out.join(''));
    expect(run.answer.claims).toEqual([{ text: run.answer.text, supported: true, score: 1, citations: [0] }]);
    io.out.length = 0;
    expect(await runCli(['ask', 'Which setting holds the lease seconds?', '--strict-claims'], io)).toBe(0);
    expect(io.out.join('').split('\n').slice(0, 3)).toEqual([run.answer.text, '', 'Claims: 1 of 1 supported by a verified quote']);
  });

  it('marks an unsupported claim in the text output and counts it', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'lease' } }] },
      { answer: { text: 'Leases last 45 minutes; set lease_seconds.', citations: [{ doc_id: 'leases', quote: 'The lease is set by [worker] lease_seconds.' }] } },
    ]);
    const index = createMemoryIndex([makeDoc('leases', '3.x', [['Leases', 'The lease is set by [worker] lease_seconds.']])]);
    const text = formatRun(await agenticRun('How long do leases last?', { model, index }), 'scripted');
    expect(text.split('\n').slice(0, 3)).toEqual([
      'Leases last 45 minutes; [unsupported] set lease_seconds.',
      '',
      'Claims: 1 of 2 supported by a verified quote (1 marked [unsupported]; --strict-claims removes them)',
    ]);
  });
});
