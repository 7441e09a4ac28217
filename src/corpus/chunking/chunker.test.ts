import { describe, expect, it } from 'vitest';
import { parseDocument, type ChunkingOptions } from '../index.ts';

/** The chunks of a valid page: where each one is, what it is named after, what it holds. */
function chunksOf(text: string, options?: ChunkingOptions) {
  const result = parseDocument({ path: 'page.md', bytes: Buffer.from(text) }, options);
  if (!result.ok) throw new Error(`expected a valid page, got ${JSON.stringify(result.problems)}`);
  return result.doc.chunks.map(({ heading, headingPath, text: chunkText, startLine, endLine }) => ({
    heading, headingPath, text: chunkText, startLine, endLine,
  }));
}

const lines = (...parts: string[]) => `${parts.join('\n')}\n`;

describe('chunking: subheadings', () => {
  const OPTIONS_PAGE = lines(
    '# Guide', //                                                                   1
    '', //                                                                          2
    '## Options', //                                                                3
    '', //                                                                          4
    'Every option can be set in the config file or on the command line.', //       5
    '', //                                                                          6
    '### concurrency', //                                                           7
    '', //                                                                          8
    'How many jobs run at once on one worker; the default is one.', //             9
    '', //                                                                          10
    '### pollInterval', //                                                          11
    '', //                                                                          12
    'How often the worker polls for new jobs, in milliseconds; default 2000.', //  13
    '', //                                                                          14
    '## Usage', //                                                                  15
    '', //                                                                          16
    'Run the worker with the options your deployment needs.', //                   17
  );

  it('keeps ### sections inside a ## section that is short', () => {
    expect(chunksOf(OPTIONS_PAGE).map(({ heading, startLine, endLine }) => [heading, startLine, endLine])).toEqual([
      ['Options', 3, 13],
      ['Usage', 15, 17],
    ]);
    expect(chunksOf(OPTIONS_PAGE)[0]!.text).toContain('\n\n### concurrency\n\n');
  });

  it('splits a longer ## section at its ### headings: each named after its heading, with the full path', () => {
    expect(chunksOf(OPTIONS_PAGE, { maxChunkChars: 300, headingSplitChars: 150 })).toEqual([
      { heading: 'Options', headingPath: ['Guide', 'Options'], text: 'Every option can be set in the config file or on the command line.', startLine: 3, endLine: 5 },
      { heading: 'concurrency', headingPath: ['Guide', 'Options', 'concurrency'], text: 'How many jobs run at once on one worker; the default is one.', startLine: 7, endLine: 9 },
      { heading: 'pollInterval', headingPath: ['Guide', 'Options', 'pollInterval'], text: 'How often the worker polls for new jobs, in milliseconds; default 2000.', startLine: 11, endLine: 13 },
      { heading: 'Usage', headingPath: ['Guide', 'Usage'], text: 'Run the worker with the options your deployment needs.', startLine: 15, endLine: 17 },
    ]);
  });

  it('keeps ### as blocks with splitDepth 2: cuts fall between blocks, a part that starts at a ### is named after it', () => {
    expect(chunksOf(OPTIONS_PAGE, { maxChunkChars: 150, headingSplitChars: 150, splitDepth: 2 })).toEqual([
      { heading: 'Options', headingPath: ['Guide', 'Options'], startLine: 3, endLine: 9,
        text: 'Every option can be set in the config file or on the command line.\n\n### concurrency\n\nHow many jobs run at once on one worker; the default is one.' },
      { heading: 'pollInterval', headingPath: ['Guide', 'Options', 'pollInterval'], text: 'How often the worker polls for new jobs, in milliseconds; default 2000.', startLine: 11, endLine: 13 },
      { heading: 'Usage', headingPath: ['Guide', 'Usage'], text: 'Run the worker with the options your deployment needs.', startLine: 15, endLine: 17 },
    ]);
  });

  it('names a part that starts inside a deeper heading after it, and leaves out a heading line only when the part starts at it', () => {
    const page = lines(
      '## Tuning', //                                                       1
      '', //                                                                2
      '#### Memory', //                                                     3
      '', //                                                                4
      'Give each worker enough memory for its largest job payload.', //   5
      '', //                                                                6
      'Watch the resident set size of the worker process in production.', // 7
    );
    expect(chunksOf(page, { maxChunkChars: 100 })).toEqual([
      { heading: 'Tuning', headingPath: ['page', 'Tuning'], text: '#### Memory\n\nGive each worker enough memory for its largest job payload.', startLine: 1, endLine: 5 },
      { heading: 'Memory', headingPath: ['page', 'Tuning', 'Memory'], text: 'Watch the resident set size of the worker process in production.', startLine: 7, endLine: 7 },
    ]);
  });

  it('drops a Docusaurus {#id} from headings, in the heading path and in the text', () => {
    const page = lines('## Install {#install}', '', 'Install the package from npm.', '', '#### From source {#source}', '', 'Clone the repository first.');
    expect(chunksOf(page)).toEqual([
      { heading: 'Install', headingPath: ['page', 'Install'], text: 'Install the package from npm.\n\n#### From source\n\nClone the repository first.', startLine: 1, endLine: 7 },
    ]);
  });
});

describe('chunking: long tables, lists and code fences', () => {
  const rows = [1, 2, 3, 4, 5, 6].map((n) => `| E0${n} | Something number ${n} went wrong |`);
  const TABLE_PAGE = lines(
    '## Codes', //                                          1
    '', //                                                  2
    'Every code below is logged by the worker.', //        3
    '', //                                                  4
    '| Code | Meaning |', //                                5
    '| ---- | ------- |', //                                6
    ...rows, //                                             7-12
    '', //                                                  13
    'After the table comes a closing remark.', //          14
  );
  const header = '| Code | Meaning |\n| ---- | ------- |';

  it('splits a long table between rows and repeats the header and delimiter rows in every part', () => {
    expect(chunksOf(TABLE_PAGE, { maxChunkChars: 120 })).toEqual([
      { heading: 'Codes', headingPath: ['page', 'Codes'], text: `Every code below is logged by the worker.\n\n${header}\n${rows[0]}`, startLine: 1, endLine: 7 },
      { heading: 'Codes', headingPath: ['page', 'Codes'], text: `${header}\n${rows[1]}\n${rows[2]}`, startLine: 8, endLine: 9 },
      { heading: 'Codes', headingPath: ['page', 'Codes'], text: `${header}\n${rows[3]}\n${rows[4]}`, startLine: 10, endLine: 11 },
      { heading: 'Codes', headingPath: ['page', 'Codes'], text: `${header}\n${rows[5]}\n\nAfter the table comes a closing remark.`, startLine: 12, endLine: 14 },
    ]);
  });

  it('keeps a table that fits whole, verbatim', () => {
    expect(chunksOf(TABLE_PAGE).map((chunk) => chunk.text)).toEqual([TABLE_PAGE.slice('## Codes\n\n'.length).trim()]);
  });

  it('splits a long list between items; a nested list stays with its item', () => {
    const page = lines(
      '## Flags', //                                                1
      '', //                                                        2
      'The flags of the worker command, in order of use.', //     3
      '', //                                                        4
      '- `--once` runs the pending jobs and exits', //            5
      '- `--watch` reloads tasks when they change', //            6
      '  - only for development', //                              7
      '  - never in production', //                               8
      '- `--crontab` reads recurring tasks from a file', //       9
      '- `--schema` names the database schema to use', //         10
    );
    expect(chunksOf(page, { maxChunkChars: 120 })).toEqual([
      { heading: 'Flags', headingPath: ['page', 'Flags'], text: 'The flags of the worker command, in order of use.\n\n- `--once` runs the pending jobs and exits', startLine: 1, endLine: 5 },
      { heading: 'Flags', headingPath: ['page', 'Flags'], text: '- `--watch` reloads tasks when they change\n  - only for development\n  - never in production', startLine: 6, endLine: 8 },
      { heading: 'Flags', headingPath: ['page', 'Flags'], text: '- `--crontab` reads recurring tasks from a file\n- `--schema` names the database schema to use', startLine: 9, endLine: 10 },
    ]);
  });

  it('cuts an item longer than the bound between the items of its nested list, each part with its own lines', () => {
    const page = lines(
      '## Contents', //                                                       1
      '', //                                                                  2
      '- The tutorial, from the first program to classes', //               3
      '  - Using the interpreter, its options and its prompt', //           4
      '  - An informal introduction to numbers and text', //                5
      '    - Numbers, operators and the division of integers', //           6
      '    - Text, its quotes and its escapes', //                          7
      '  - More control flow tools: if, for, range and match', //          8
      '  A last word on the tutorial.', //                                  9
      '- The library reference', //                                         10
    );
    // Each part an exact span of the page; a part of a nested item starts at its marker.
    expect(chunksOf(page, { maxChunkChars: 120 })).toEqual([
      { heading: 'Contents', headingPath: ['page', 'Contents'], text: '- The tutorial, from the first program to classes\n  - Using the interpreter, its options and its prompt', startLine: 1, endLine: 4 },
      { heading: 'Contents', headingPath: ['page', 'Contents'], text: '- An informal introduction to numbers and text\n    - Numbers, operators and the division of integers', startLine: 5, endLine: 6 },
      {
        heading: 'Contents',
        headingPath: ['page', 'Contents'],
        text: '- Text, its quotes and its escapes\n  - More control flow tools: if, for, range and match\n  A last word on the tutorial.\n- The library reference',
        startLine: 7,
        endLine: 10,
      },
    ]);
  });

  it('keeps the parts of a long page of links apart: a part of half the bound or more is no small part to merge', () => {
    const page = lines(
      '## Index', //                                    1
      '', //                                            2
      '- [Installing the worker](install.md)', //     3
      '- [Running jobs](run.md)', //                  4
      '- [Adding jobs](add.md)', //                   5
      '- [Recurring tasks](cron.md)', //              6
      '- [Error handling](errors.md)', //             7
      '- [Administration](admin.md)', //              8
    );
    expect(chunksOf(page, { maxChunkChars: 120 })).toEqual([
      { heading: 'Index', headingPath: ['page', 'Index'], text: '- [Installing the worker](install.md)\n- [Running jobs](run.md)\n- [Adding jobs](add.md)', startLine: 1, endLine: 5 },
      { heading: 'Index', headingPath: ['page', 'Index'], text: '- [Recurring tasks](cron.md)\n- [Error handling](errors.md)\n- [Administration](admin.md)', startLine: 6, endLine: 8 },
    ]);
  });

  it('never splits inside a code fence: an oversized fence stays whole, with the lead-in that introduces it', () => {
    const fence = ['```sh', 'graphile-worker --once', '', 'graphile-worker --watch', '', 'graphile-worker --crontab ./crontab --schema jobs', '```'].join('\n');
    const page = lines('## Run', '', 'Start it like this:', '', fence, '', 'The worker logs every job it runs to standard output.');
    expect(fence.length).toBeGreaterThan(80);
    expect(chunksOf(page, { maxChunkChars: 80 })).toEqual([
      { heading: 'Run', headingPath: ['page', 'Run'], text: `Start it like this:\n\n${fence}`, startLine: 1, endLine: 11 },
      { heading: 'Run', headingPath: ['page', 'Run'], text: 'The worker logs every job it runs to standard output.', startLine: 13, endLine: 13 },
    ]);
  });

  it('balances the parts of a section a little over the bound instead of leaving a small tail', () => {
    const paragraph = (n: number) => `Paragraph ${n} explains one more detail of how the worker handles its jobs.`;
    const page = lines('## Details', '', paragraph(1), '', paragraph(2), '', paragraph(3), '', paragraph(4));
    expect(chunksOf(page, { maxChunkChars: 250 }).map((chunk) => chunk.text)).toEqual([
      `${paragraph(1)}\n\n${paragraph(2)}`,
      `${paragraph(3)}\n\n${paragraph(4)}`,
    ]);
  });

  it('keeps a multi-paragraph :::admonition together, its opening line read as its label and its closing line dropped', () => {
    const admonition = ':::tip\n\nRun one worker per machine at first.\n\nAdd more once the queue backs up.\n\n:::';
    expect(chunksOf(lines('## Notes', '', admonition, '', 'After the tip comes more text.'), { maxChunkChars: 80 }).map((chunk) => chunk.text)).toEqual([
      'Tip:\n\nRun one worker per machine at first.\n\nAdd more once the queue backs up.',
      'After the tip comes more text.',
    ]);
  });

  it('keeps a GitBook hint together and never ends a chunk with a tab label', () => {
    const page = lines(
      '## Install',
      '',
      '{% hint style="warning" %}',
      'Install the worker on every machine that runs jobs.',
      '',
      'Each one connects to the same database.',
      '{% endhint %}',
      '',
      '{% tabs %}',
      '{% tab title="npm" %}',
      '```sh',
      'npm install graphile-worker',
      '```',
      '{% endtab %}',
      '{% endtabs %}',
    );
    expect(chunksOf(page, { maxChunkChars: 90 }).map((chunk) => chunk.text)).toEqual([
      'Install the worker on every machine that runs jobs.\n\nEach one connects to the same database.',
      'npm:\n```sh\nnpm install graphile-worker\n```',
    ]);
  });
});

describe('chunking: the title heading', () => {
  it('names a top heading that repeats the title once, when a badge line stands before it', () => {
    const page = lines(
      '[![build](https://ci.example/badge.svg)](https://ci.example)', // 1
      '', //                                                              2
      '# Job queue', //                                                   3
      '', //                                                              4
      'A job queue for Node.js that stores its jobs in PostgreSQL tables.', // 5
      '', //                                                              6
      '## Install', //                                                    7
      '', //                                                              8
      'Install the package from npm and run its migrations once a deploy.', // 9
    );
    // The badge keeps `# Job queue` from being the page's first block, so the heading stays a
    // section; it was named ['Job queue', 'Job queue'] and ['Job queue', 'Job queue', 'Install'].
    expect(chunksOf(page).map(({ heading, headingPath }) => [heading, headingPath])).toEqual([
      ['Job queue', ['Job queue']],
      ['Install', ['Job queue', 'Install']],
    ]);
  });
});
