import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { quoteLinesIn, verifyCitations } from './citations.ts';
import { SearchSession } from '../session/search-session.ts';

/** 40 hard-wrapped lines of 50 characters: two pages at 300 tokens (1,200 characters). */
const lines = Array.from({ length: 40 }, (_, line) => `Line ${String(line).padStart(2, '0')} says that setting ${String(line).padStart(2, '0')} is on.`.padEnd(49, '.'));
const longText = lines.join('\n');
const index = createMemoryIndex([
  makeDoc('settings', 'all', [
    ['Settings', 'Every setting is listed below.'],
    ['All settings', longText],
  ]),
]);

describe('verifyCitations', () => {
  it('verifies a quote from page 2 of a long section only after page 2 was read, located with its heading path', async () => {
    const session = new SearchSession({ index, readTokens: 300 });
    const citation = { doc_id: 'settings', quote: 'Line 30 says that setting 30 is on.' };
    const first = await session.readSection({ chunk_id: 'settings#1' });
    expect(first.ok && [first.value.next_offset, first.value.text.includes('Line 30')]).toEqual([1200, false]);
    expect(verifyCitations([citation], session.evidence)).toEqual({
      kept: [],
      dropped: [
        {
          docId: 'settings',
          quote: 'Line 30 says that setting 30 is on.',
          reason: 'quote does not occur in the passages of "settings" that this run saw or read',
        },
      ],
    });
    await session.readSection({ chunk_id: 'settings#1', offset: 1200 });
    expect(verifyCitations([citation], session.evidence)).toEqual({
      kept: [
        {
          docId: 'settings',
          quote: 'Line 30 says that setting 30 is on.',
          chunkId: 'settings#1',
          heading: 'All settings',
          headingPath: ['Settings', 'All settings'],
          sourcePath: 'settings.md',
          startLine: 34,
          endLine: 34,
        },
      ],
      dropped: [],
    });
  });
});

describe('a quote under a heading inside its chunk', () => {
  const options = [
    'The worker takes these options.',
    '',
    '### worker.sweepInterval',
    '',
    'How often to check for inactive workers. Defaults to 3 minutes.',
    '',
    '```sh',
    '# a comment in code, no heading',
    '```',
    '',
    '### worker.sweepThreshold',
    '',
    'How long since the last heartbeat before a worker is inactive. Defaults to 4 hours.',
  ].join('\n');
  const proIndex = createMemoryIndex([
    makeDoc('pro-config', 'all', [
      ['Pro configuration', 'Configure Worker Pro in your preset.'],
      ['Options', options],
    ]),
  ]);

  it('is located under that heading, and a quote above every inner heading under the chunk\'s own', async () => {
    const session = new SearchSession({ index: proIndex });
    await session.readSection({ chunk_id: 'pro-config#1' });
    const quotes = ['The worker takes these options.', 'Defaults to 3 minutes.', 'How long since the last heartbeat before a worker is inactive.'];
    const { kept } = verifyCitations(
      quotes.map((quote) => ({ doc_id: 'pro-config', quote })),
      session.evidence,
    );
    expect(kept.map((citation) => [citation.heading, citation.headingPath, citation.startLine])).toEqual([
      ['Options', ['Pro configuration', 'Options'], 4],
      ['worker.sweepInterval', ['Pro configuration', 'Options', 'worker.sweepInterval'], 8],
      ['worker.sweepThreshold', ['Pro configuration', 'Options', 'worker.sweepThreshold'], 16],
    ]);
  });
});

describe('elided quotes', () => {
  const retries =
    'Settle a job by acking it. Jobs that fail are retried with exponential backoff. ' +
    'After 25 attempts the job is marked as permanently failed. Call `addJob(...)` again to requeue it.';
  const retriesIndex = createMemoryIndex([
    makeDoc('retries', 'all', [
      ['Retries', retries],
      ['Leases', 'A worker holds a job for the length of its lease.'],
    ]),
  ]);

  async function evidenceOfBothSections() {
    const session = new SearchSession({ index: retriesIndex });
    await session.readSection({ chunk_id: 'retries#0' });
    await session.readSection({ chunk_id: 'retries#1' });
    return session.evidence;
  }

  it('drops a chain of content-free fragments, naming the fragment and the rule', async () => {
    const quote = 'S ... e ... t ... l ... e ... a ... s ... e';
    expect(verifyCitations([{ doc_id: 'retries', quote }], await evidenceOfBothSections())).toEqual({
      kept: [],
      dropped: [
        {
          docId: 'retries',
          quote,
          reason: 'elided quote: the fragment "s" is too short to support a claim (each part between "..." needs at least 3 words or 15 letters)',
        },
      ],
    });
  });

  it('keeps whole sentences elided in order within one passage, the way the offline planner quotes', async () => {
    const quote = 'Settle a job by acking it. ... After 25 attempts the job is marked as permanently failed.';
    const { kept, dropped } = verifyCitations([{ doc_id: 'retries', quote }], await evidenceOfBothSections());
    expect(dropped).toEqual([]);
    expect(kept.map((citation) => [citation.chunkId, citation.quote])).toEqual([['retries#0', quote]]);
  });

  it('accepts a single long identifier as a fragment, and a quote whose "..." is the docs\' own text', async () => {
    const evidence = await evidenceOfBothSections();
    const identifier = verifyCitations([{ doc_id: 'retries', quote: 'exponential backoff ... permanently failed' }], evidence);
    expect(identifier.kept.map((citation) => citation.chunkId)).toEqual(['retries#0']);
    const literal = verifyCitations([{ doc_id: 'retries', quote: 'Call `addJob(...)` again to requeue it.' }], evidence);
    expect([literal.kept.length, literal.dropped]).toEqual([1, []]);
  });

  it('drops fragments out of order, or taken from two passages, with the reason', async () => {
    const evidence = await evidenceOfBothSections();
    const outOfOrder = 'After 25 attempts the job ... Jobs that fail are retried';
    const twoPassages = 'Jobs that fail are retried ... holds a job for the length';
    const reason = 'the fragments of the elided quote do not occur in order within one passage of "retries" that this run saw or read';
    expect(verifyCitations([{ doc_id: 'retries', quote: outOfOrder }, { doc_id: 'retries', quote: twoPassages }], evidence)).toEqual({
      kept: [],
      dropped: [
        { docId: 'retries', quote: outOfOrder, reason },
        { docId: 'retries', quote: twoPassages, reason },
      ],
    });
  });

  it('drops a quote that is mostly elision marks', async () => {
    const quote = 'Settle a job ... ... ... ... ... ... ... the job is';
    expect(verifyCitations([{ doc_id: 'retries', quote }], await evidenceOfBothSections()).dropped).toEqual([
      { docId: 'retries', quote, reason: 'elided quote: only 46% of the quote is quoted text, the rest elision marks (at least 50% needed)' },
    ]);
  });
});

describe('quotes of passages whose own text holds "..."', () => {
  // Section 1 (heading on line 3, text on lines 4-9): an ellipsis in code (the table row) and one in prose ("…" at a line's end).
  const flows = [
    '| Argument | Meaning |',
    '| --- | --- |',
    '| `name` | Unique flow name; used by `client.run_flow("nightly_report", ...)`. |',
    '| `queue` | Queue on which the flow\'s steps run unless a step overrides it. |',
    '',
    'A failed step is retried until its attempts run out… or forever. Either way no step runs twice.',
  ].join('\n');
  const flowsIndex = createMemoryIndex([
    makeDoc('api-flow', 'all', [
      ['Flow API', 'A flow is a graph of steps.'],
      ['Arguments', flows],
    ]),
  ]);

  async function evidenceOfArguments() {
    const session = new SearchSession({ index: flowsIndex });
    await session.readSection({ chunk_id: 'api-flow#1' });
    return session.evidence;
  }

  const located = { docId: 'api-flow', chunkId: 'api-flow#1', heading: 'Arguments', headingPath: ['Flow API', 'Arguments'], sourcePath: 'api-flow.md' };

  it('verifies a verbatim quote holding "..." in code and "…" in prose as a whole, located on its lines', async () => {
    const code = '| `name` | Unique flow name; used by `client.run_flow("nightly_report", ...)`. |';
    const prose = 'A failed step is retried until its attempts run out… or forever.';
    expect(verifyCitations([{ doc_id: 'api-flow', quote: code }, { doc_id: 'api-flow', quote: prose }], await evidenceOfArguments())).toEqual({
      kept: [
        { ...located, quote: code, startLine: 6, endLine: 6 },
        { ...located, quote: prose, startLine: 9, endLine: 9 },
      ],
      dropped: [],
    });
  });

  it('keeps an elided quote whose fragments hold the docs\' own "...", the way the offline planner joins sentences', async () => {
    // Read as all elisions, the fragments ")" and "or forever" would be too thin to support a claim.
    const quote =
      '| `name` | Unique flow name; used by `client.run_flow("nightly_report", ...)`. | ... ' +
      'A failed step is retried until its attempts run out… or forever. ... Either way no step runs twice.';
    expect(verifyCitations([{ doc_id: 'api-flow', quote }], await evidenceOfArguments())).toEqual({
      kept: [{ ...located, quote, startLine: 6, endLine: 9 }],
      dropped: [],
    });
  });

  it('still judges a genuinely elided quote of the same passage by the elision rules', async () => {
    const evidence = await evidenceOfArguments();
    const sound = 'Unique flow name; used by ... Queue on which the flow\'s steps run';
    const thin = 'Unique flow name; used by ... or forever';
    const outOfOrder = 'Either way no step runs twice. ... Unique flow name; used by `client.run_flow("nightly_report", ...)`.';
    const mostlyMarks = 'Unique flow name ... ... ... ... ... ... ... ... ... no step runs';
    const { kept, dropped } = verifyCitations(
      [sound, thin, outOfOrder, mostlyMarks].map((quote) => ({ doc_id: 'api-flow', quote })),
      evidence,
    );
    expect(kept).toEqual([{ ...located, quote: sound, startLine: 6, endLine: 7 }]);
    expect(dropped).toEqual([
      {
        docId: 'api-flow',
        quote: thin,
        reason: 'elided quote: the fragment "or forever" is too short to support a claim (each part between "..." needs at least 3 words or 15 letters)',
      },
      {
        docId: 'api-flow',
        quote: outOfOrder,
        reason: 'the fragments of the elided quote do not occur in order within one passage of "api-flow" that this run saw or read',
      },
      {
        docId: 'api-flow',
        quote: mostlyMarks,
        reason: 'elided quote: only 47% of the quote is quoted text, the rest elision marks (at least 50% needed)',
      },
    ]);
  });

  it('names the doc an elided quote holding the docs\' own "..." comes from when another doc is cited', async () => {
    const quote = 'Unique flow name; used by `client.run_flow("nightly_report", ...)`. ... Either way no step runs twice.';
    expect(verifyCitations([{ doc_id: 'api-job', quote }], await evidenceOfArguments()).dropped).toEqual([
      { docId: 'api-job', quote, reason: 'quote is from doc "api-flow", not "api-job"' },
    ]);
  });

  it('refuses a thin fragment that the docs\' own "..." does not join to its neighbour', async () => {
    // The model elided the arguments itself: the docs hold `run_flow("nightly_report", ...)`, never `run_flow( ... )`.
    const quote = 'Unique flow name; used by `client.run_flow( ... )`.';
    expect(verifyCitations([{ doc_id: 'api-flow', quote }], await evidenceOfArguments()).dropped).toEqual([
      {
        docId: 'api-flow',
        quote,
        reason: 'elided quote: the fragment ")" is too short to support a claim (each part between "..." needs at least 3 words or 15 letters)',
      },
    ]);
  });
});

describe('verifyCitations of a link', () => {
  it('reads a link as its label, with nothing between it and the text after it', async () => {
    const json = createMemoryIndex([makeDoc('json', 'all', [['json', 'The result of any object literal decoded (a [`dict`](stdtypes.html#dict)). If not specified, [`TypeError`](exceptions.html#TypeError) is raised.']])]);
    const session = new SearchSession({ index: json, readTokens: 300 });
    await session.readSection({ chunk_id: 'json#0' });
    const quotes = ['The result of any object literal decoded (a dict).', 'If not specified, TypeError is raised.', 'decoded (a dict ).'];
    const { kept, dropped } = verifyCitations(quotes.map((quote) => ({ doc_id: 'json', quote })), session.evidence);
    expect(kept.map((citation) => citation.quote)).toEqual(quotes.slice(0, 2));
    expect(dropped.map((citation) => citation.quote)).toEqual(['decoded (a dict ).']);
    // Copied with its markup, as the passage shows it, it verifies too.
    const markup = 'If not specified, [`TypeError`](exceptions.html#TypeError) is raised.';
    expect(verifyCitations([{ doc_id: 'json', quote: markup }], session.evidence).kept.map((citation) => citation.quote)).toEqual([markup]);
  });
});

describe('verifyCitations of Chinese', () => {
  it('verifies a quote whose full-width punctuation and spacing were retyped', async () => {
    const chinese = createMemoryIndex([makeDoc('limits', 'all', [['负载限制', '设置max_payload_kb为512，可以限制请求的负载大小。超过时返回「PayloadTooLarge」。']])]);
    const session = new SearchSession({ index: chinese, readTokens: 300 });
    await session.readSection({ chunk_id: 'limits#0' });
    const quotes = ['设置 max_payload_kb 为 512, 可以限制请求的负载大小.', '超过时返回"PayloadTooLarge"。', '设置max_payload_kb为1024，可以限制'];
    const { kept, dropped } = verifyCitations(quotes.map((quote) => ({ doc_id: 'limits', quote })), session.evidence);
    expect(kept.map((citation) => citation.quote)).toEqual(quotes.slice(0, 2));
    expect(dropped.map((citation) => citation.reason)).toEqual(['quote does not occur in the passages of "limits" that this run saw or read']);
  });
});

describe('quoteLinesIn', () => {
  // A chunk text of 7 lines ending at line 8 (its heading is line 1).
  const text = 'Schedules are in UTC.\n\nThe following runs a task every Monday:\n\n```\n30 4 * * 1 send_weekly_email\n```';

  it('locates a sentence and its code block from the sentence to the code, each line after the one before', () => {
    expect(quoteLinesIn('The following runs a task every Monday:\n\n```\n30 4 * * 1 send_weekly_email\n```', text, 8)).toEqual({ startLine: 4, endLine: 7 });
    expect(quoteLinesIn('Schedules are in UTC.', text, 8)).toEqual({ startLine: 2, endLine: 2 });
  });

  it('spans lines quoted out of order, and says undefined for a line the text lacks', () => {
    expect(quoteLinesIn('30 4 * * 1 send_weekly_email\nSchedules are in UTC.', text, 8)).toEqual({ startLine: 2, endLine: 7 });
    expect(quoteLinesIn('Schedules are in UTC.\nNo such line here.', text, 8)).toBeUndefined();
  });
});
