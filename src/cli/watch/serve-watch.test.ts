import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerServeCommand } from '../commands/serve-command.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { recordingIO } from '../test-cli.ts';
import { manualTimers, scriptedWatcher } from './test-watch.ts';

// `atlas serve --watch docs`, in process over loopback: the folder is indexed before the server
// listens, a saved page is served from the next request, and a conversation's follow-up that cites
// the page's old text gets that citation marked stale.
const SIXTY = 'A worker holds a job for a lease of sixty seconds.';
const page = (id: string, text: string) => `---\nid: ${id}\napplies_to: all\n---\n# Leases\n\n## Duration\n\n${text}\n`;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-serve-watch-'));
  await mkdir(path.join(dir, 'docs'));
  await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', SIXTY));
  await writeFile(path.join(dir, 'docs', 'retries.md'), page('retries', 'Failed jobs are retried with exponential backoff.'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface TurnJson {
  answer: { citations: Array<{ chunkId: string; quote: string; stale?: { reason: string } }>; claims: Array<{ supported: boolean }> };
}

describe('atlas serve --watch', () => {
  it('indexes the folder first, serves a saved page from the next request, and marks a follow-up\'s citation of the old text stale', async () => {
    const io = recordingIO({ cwd: dir });
    const timers = manualTimers();
    const folder = scriptedWatcher();
    const cite = (text: string) => ({ answer: { text, citations: [{ doc_id: 'leases', quote: SIXTY }] } });
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'lease seconds' } }] },
      cite('A lease lasts sixty seconds. [1]'),
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'retries backoff' } }] },
      cite('Sixty seconds. [1]'),
    ]);
    const seen: Record<string, unknown> = {};
    const program = new Command('atlas').exitOverride();
    registerServeCommand(program, io, {
      resolveModel: () => ({ model, spec: 'scripted', price: null }),
      watch: { createWatcher: folder.create, timers },
      stopRequested: async () => {
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(io.err.join(''))![1]!;
        const search = async (q: string) => ((await (await fetch(`${url}/v1/search?q=${q}`)).json()) as { hits: Array<{ chunkId: string }> }).hits.map((hit) => hit.chunkId);
        const { id } = (await (await fetch(`${url}/v1/conversations`, { method: 'POST', body: '{}' })).json()) as { id: string };
        const ask = async (content: string) => (await (await fetch(`${url}/v1/conversations/${id}/messages`, { method: 'POST', body: JSON.stringify({ content }) })).json()) as TurnJson;
        seen.first = await ask('How long is a lease?');
        seen.before = await search('ninety');

        await writeFile(path.join(dir, 'docs', 'leases.md'), page('leases', 'A worker holds a job for a lease of ninety seconds.'));
        folder.change(path.join(dir, 'docs', 'leases.md'));
        timers.advance(300);
        for (let waited = 0; !io.err.join('').includes('atlas serve: leases.md changed'); waited += 10) {
          if (waited > 5000) throw new Error(`no re-ingest:\n${io.err.join('')}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        seen.after = await search('ninety');
        seen.second = await ask('Remind me?');
        return 'test stop';
      },
    });
    await program.parseAsync(['serve', '--port', '0', '--db', 'index.db', '--watch', 'docs', '--route', 'agentic'], { from: 'user' });

    const first = seen.first as TurnJson;
    expect(first.answer.citations.map((citation) => [citation.chunkId, citation.stale])).toEqual([['leases#0', undefined]]);
    expect(seen.before).toEqual([]);
    expect(seen.after).toEqual(['leases#0']);
    const second = seen.second as TurnJson;
    expect(second.answer.citations).toEqual([
      expect.objectContaining({ chunkId: 'leases#0', quote: SIXTY, stale: { reason: 'the quoted text is no longer in "leases" (leases.md): the page changed since the passage was read' } }),
    ]);
    expect(second.answer.claims).toEqual([expect.objectContaining({ supported: false })]);
    expect(io.err.join('').replace(/http:\/\/127\.0\.0\.1:\d+/, 'URL').replace(/\(\d+ ms\)/, '(N ms)')).toBe(
      'atlas serve: indexed 2 docs (2 chunks): 2 added, 0 updated, 0 unchanged, 0 removed\n' +
        'atlas serve: no auth, model scripted\n' +
        'listening on URL\n' +
        'atlas: watching docs for changes (Ctrl-C stops)\n' +
        'atlas serve: leases.md changed: indexed 2 docs (2 chunks): 0 added, 1 updated, 1 unchanged, 0 removed (N ms)\n' +
        'atlas serve: test stop: stopping\n' +
        'atlas serve: stopped\n',
    );
    expect(folder.closed()).toBe(true);
  });
});
