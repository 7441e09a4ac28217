import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, type RecordingIO } from '../test-cli.ts';
import { agenticRun } from '../../agent/run.ts';
import { jsonResponse, startLoopbackServer, type LoopbackServer } from '../../testing/loopback-server.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { closestAnswerTurns, markedAnswerTurns, PAYLOAD_QUESTION } from '../../testing/orbit-answers.ts';
import { createOrbitIndex } from '../../testing/orbit-index.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { formatRun } from './ask-command.ts';
import { formatTurn } from './chat-command.ts';
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
    expect(await runCli(['ask', 'Where do I set the lease seconds?', '--route', 'auto'], io)).toBe(0);
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
    expect(await runCli(['ask', 'Where do I set the lease seconds?', '--json'], io)).toBe(0);
    const run = JSON.parse(io.out.join(''));
    expect(run.answer.claims).toEqual([{ text: run.answer.text, supported: true, score: 1, citations: [0] }]);
    io.out.length = 0;
    expect(await runCli(['ask', 'Where do I set the lease seconds?', '--strict-claims'], io)).toBe(0);
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

describe('reading the answer in the terminal', () => {
  /** The text of formatRun above its trace, and the trace's lines that do not depend on the ranking or the prompt's size. */
  async function printed(turns: ReturnType<typeof markedAnswerTurns>, options: { now?: () => number } = {}) {
    const index = await createOrbitIndex();
    try {
      const run = await agenticRun(PAYLOAD_QUESTION, { model: createScriptedModel(turns), index, now: options.now ?? (() => 0) });
      const [answer, trace] = formatRun(run, 'scripted').split('Trace:\n');
      return { run, answer, trace: trace!.split('\n').filter((line) => !line.startsWith('  search 1: ') && !line.startsWith('  stop: ')) };
    } finally {
      await index.close();
    }
  }

  it('atlas ask prints the answer with its [n] markers, then the citations numbered as the markers: heading path — file:lines and the quote', async () => {
    const { run, answer, trace } = await printed(markedAnswerTurns());
    expect(answer).toBe(
      [
        'The step fails with ORB-1202 PayloadTooLarge after it has done its work. [1] The result is larger than the payload limit. [2]',
        '',
        'Claims: 2 of 2 supported by a verified quote',
        '',
        'Citations:',
        '  [1] Results API > Passing large data between flow steps — api-results.md:69-70',
        '      "A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work."',
        '  [2] Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge — error-codes.md:90-90',
        '      "The job\'s arguments or a flow step\'s result are larger than the payload limit."',
        '',
        '',
      ].join('\n'),
    );
    expect(trace).toEqual(['  read_section: api-results#3', '  read_section: error-codes#4', '']);
    expect(formatTurn(run)).toBe(
      [
        'The step fails with ORB-1202 PayloadTooLarge after it has done its work. [1] The result is larger than the payload limit. [2]',
        '  [1] Results API > Passing large data between flow steps — api-results.md:69-70',
        '      "A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work."',
        '  [2] Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge — error-codes.md:90-90',
        '      "The job\'s arguments or a flow step\'s result are larger than the payload limit."',
        '  (searches: "ORB-1202 PayloadTooLarge"; stop: model-done)',
        '',
        '',
      ].join('\n'),
    );
  });

  it('atlas ask and atlas chat print the closest passages of an abstention that found no direct answer: heading path, file:lines, sentences', async () => {
    const { run, answer, trace } = await printed(closestAnswerTurns());
    const closest = [
      'Closest passages in the docs:',
      '  Error codes > 12xx Payloads and results > ORB-1202 PayloadTooLarge — error-codes.md:90-91',
      '      "The job\'s arguments or a flow step\'s result are larger than the payload limit."',
      '      "For arguments, `enqueue` raises it at once."',
    ];
    expect(answer).toBe(["I couldn't find a direct answer in the docs.", '', ...closest, '', ''].join('\n'));
    expect(trace).toEqual(['  read_section: error-codes#4', '  abstained: the model abstained: no direct answer', '']);
    expect(formatTurn(run)).toBe(
      ["I couldn't find a direct answer in the docs.", ...closest, '  (searches: "ORB-1202 PayloadTooLarge"; stop: model-done; abstained: the model abstained: no direct answer)', '', ''].join('\n'),
    );
  });

  it('a run past its deadline prints that it has no answer, never the abstention text', async () => {
    let clock = 0;
    const turns = [
      () => {
        clock += 301_000;
        return { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202' } }] };
      },
    ];
    const { run, answer, trace } = await printed(turns, { now: () => clock });
    expect(run.trace.stopReason).toBe('deadline');
    expect(answer).toBe('No answer: the run timed out (stop: deadline); try again.\n\n');
    expect(trace).toEqual(['  abstained: no usable answer: run deadline of 300 s reached at model call 2', '']);
    expect(formatTurn(run).split('\n')[0]).toBe('No answer: the run timed out (stop: deadline); try again.');
  });

  describe('atlas ask over a model server (loopback)', () => {
    let server: LoopbackServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    /** One chat completion of the loopback server: tool calls, or the content of the answer. */
    const completion = (message: Record<string, unknown>) =>
      jsonResponse({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1764489600,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, logprobs: null, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      });
    const search = completion({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search_docs', arguments: '{"query":"lease seconds"}' } }] });
    const abstain = completion({
      content: JSON.stringify({ text: '', citations: [], abstained: true, abstain_reason: 'no direct answer', closest: [{ doc_id: 'leases', sentences: ['A worker holds a job for the lease.'] }] }),
    });

    it('--json prints the answer object as is, closest passages included; the text output lists them', async () => {
      server = await startLoopbackServer([search, abstain, search, abstain]);
      const spec = `openai-compatible:${server.url}/v1#m`;
      expect(await runCli(['ask', 'How long may a worker hold a job?', '--model', spec, '--json'], io)).toBe(0);
      const run = JSON.parse(io.out.join(''));
      expect(run.answer).toEqual({
        text: "I couldn't find a direct answer in the docs.",
        citations: [],
        abstained: true,
        closest: [{ chunkId: 'leases#0', docId: 'leases', heading: 'Leases', headingPath: ['Leases'], sourcePath: 'leases.md', startLine: 7, endLine: 7, sentences: ['A worker holds a job for the lease.'] }],
      });
      expect(run.trace.abstainReason).toBe('the model abstained: no direct answer');
      io.out.length = 0;
      expect(await runCli(['ask', 'How long may a worker hold a job?', '--model', spec], io)).toBe(0);
      expect(io.out.join('').split('\nTrace:\n')[0]).toBe(
        ["I couldn't find a direct answer in the docs.", '', 'Closest passages in the docs:', '  Leases — leases.md:7-7', '      "A worker holds a job for the lease."', ''].join('\n'),
      );
    });

    it('shows the closest passages the offline planner names when the model abstains without any', async () => {
      const bare = completion({ content: JSON.stringify({ text: '', citations: [], abstained: true }) });
      server = await startLoopbackServer([search, bare]);
      expect(await runCli(['ask', 'How long may a worker hold a job on a laptop?', '--model', `openai-compatible:${server.url}/v1#m`, '--json'], io)).toBe(0);
      const run = JSON.parse(io.out.join(''));
      expect([run.answer.text, run.answer.closest.map((passage: { chunkId: string; sentences: string[] }) => [passage.chunkId, passage.sentences])]).toEqual([
        "I couldn't find a direct answer in the docs.",
        [['leases#0', ['A worker holds a job for the lease.']]],
      ]);
      // The model's two calls are the run's; the offline planner's is not a call of the run.
      expect([run.trace.abstainReason, run.trace.closestBy, run.usage.modelCalls, server.requests().length]).toEqual(['the model abstained', 'closest-model', 2, 2]);
    });
  });
});
