import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordingIO } from '../test-cli.ts';
import { ORBIT_DOCS } from '../../testing/orbit-index.ts';
import { runCli } from '../main.ts';

let dir: string;
let db: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-chat-'));
  db = path.join(dir, 'index.db');
  expect(await runCli(['ingest', ORBIT_DOCS, '--db', db], recordingIO({ cwd: dir }))).toBe(0);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const idIn = (stderr: string) => /conversation ([0-9a-f-]{36}) started/.exec(stderr)?.[1];

describe('atlas chat and atlas ask --conversation', () => {
  it('chats two turns over stdin (the follow-up finds the cancelling page), then ask --conversation continues it', async () => {
    const io = { ...recordingIO({ cwd: dir }), stdin: Readable.from(['How do I enqueue a job in Orbit 3.x?\n', '\n', 'and how do I cancel it?\n']) };
    expect(await runCli(['chat', '--db', db, '--model', 'offline'], io)).toBe(0);
    const stderr = io.err.join('');
    const id = idIn(stderr);
    expect(id).toBeDefined();
    expect(stderr).toContain(`atlas chat: conversation ${id} saved; continue it with atlas ask --conversation ${id} "..."`);
    const turns = io.out.join('').split('\n\n').filter((text) => text.trim() !== '');
    expect(turns.length).toBe(2);
    // The follow-up finds the client page's section on cancelling and answers from it (the first
    // turn stopped after one search, so that passage was not shown before).
    expect(turns[1]).toMatch(/^ {2}\[1\] Client API > Looking up and cancelling jobs — api-client\.md:114-115$/m);
    expect(turns[1]).toContain('(searches: "and how do I cancel it? Orbit enqueue job"');
    // Each turn's searches stream to stderr as atlas ask prints them, the first turn's before the follow-up's.
    const searching = io.err.filter((line) => line.startsWith('searching: '));
    const searched = [...io.out.join('').matchAll(/\(searches: (.*); stop: /g)].map((match) => match[1]!.split('", "').length);
    expect(searching).toHaveLength(searched[0]! + searched[1]!);
    expect(searching[0]).toBe('searching: How do I enqueue a job in Orbit 3.x? (version 3.x)\n');
    expect(searching[searched[0]!]).toBe('searching: and how do I cancel it? Orbit enqueue job (version 3.x)\n');
    expect(io.err.filter((line) => /^ {2}\d+ passages, new docs: /.test(line))).toHaveLength(searching.length);

    const ask = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'and how do I look it up?', '--db', db, '--model', 'offline', '--conversation', id!, '--json'], ask)).toBe(0);
    const run = JSON.parse(ask.out.join(''));
    expect(run.conversationId).toBe(id);
    expect(run.trace.history).toMatchObject({ given: 2, shown: 2, dropped: 0 });
    expect(run.trace.steps[0].query).toBe('and how do I look it up? Orbit cancel enqueue job');
  });

  it('/exit ends the chat before the lines after it', async () => {
    const stdin = new PassThrough();
    stdin.end('/exit\nHow do I enqueue a job?\n');
    const io = { ...recordingIO({ cwd: dir }), stdin };
    expect(await runCli(['chat', '--db', db, '--model', 'offline'], io)).toBe(0);
    expect(io.out).toEqual([]);
  });

  it('ask --conversation new starts one and names it; an unknown id, or another asker\'s, is a usage error', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'How do I enqueue a job?', '--db', db, '--model', 'offline', '--conversation', 'new', '--groups', 'staff'], io)).toBe(0);
    const id = idIn(io.err.join(''))!;
    const stranger = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'and how do I cancel it?', '--db', db, '--model', 'offline', '--conversation', id], stranger)).toBe(2);
    expect(stranger.err.join('')).toContain(
      `Atlas: no conversation "${id}" in ${db}.state.db for these access groups. Pass an id printed by atlas ask --conversation new (with the same --groups), or start one with --conversation new.`,
    );
  });

  it('ask --conversation ID keeps the filter the conversation was created with, and says so for a different --version or --label', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'How do I enqueue a job?', '--db', db, '--model', 'offline', '--conversation', 'new', '--version', '3.x', '--label', 'section=guides'], io)).toBe(0);
    const id = idIn(io.err.join(''))!;
    const later = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'and how do I cancel it?', '--db', db, '--model', 'offline', '--conversation', id, '--version', '2.x', '--label', 'section=api,reference', '--json'], later)).toBe(0);
    expect(later.err.filter((line) => line.startsWith('atlas: note: conversation'))).toEqual([
      `atlas: note: conversation ${id} searches version 3.x (as it was created); --version 2.x is ignored.\n`,
      `atlas: note: conversation ${id} searches labels section=guides (as it was created); --label section=api,reference is ignored.\n`,
    ]);
    const run = JSON.parse(later.out.join(''));
    expect(run.trace.steps.map((step: { filter: { labels?: unknown } }) => step.filter.labels)).toEqual(run.trace.steps.map(() => ({ section: ['guides'] })));
    // The same --label as the conversation's says nothing.
    const same = recordingIO({ cwd: dir });
    expect(await runCli(['ask', 'and how do I retry it?', '--db', db, '--model', 'offline', '--conversation', id, '--label', 'section=guides'], same)).toBe(0);
    expect(same.err.filter((line) => line.startsWith('atlas: note: conversation'))).toEqual([]);
  });

  it('refuses to chat without stdin', async () => {
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['chat', '--db', db, '--model', 'offline'], io)).toBe(2);
    expect(io.err.join('')).toContain('Atlas: atlas chat reads questions from stdin, and this process has none. Use atlas ask --conversation new "..." instead.');
  });
});
