import { describe, expect, it } from 'vitest';
import { parseDocument, type ChunkingOptions } from './index.ts';

/** The chunks of a valid page, with its title. */
function parse(text: string, options?: ChunkingOptions) {
  const result = parseDocument({ path: 'page.md', bytes: Buffer.from(text) }, options);
  if (!result.ok) throw new Error(`expected a valid page, got ${JSON.stringify(result.problems)}`);
  const chunks = result.doc.chunks.map(({ heading, headingPath, text: chunkText, startLine, endLine }) => ({
    heading, headingPath, text: chunkText, startLine, endLine,
  }));
  return { title: result.doc.title, chunks };
}

const lines = (...parts: string[]) => `${parts.join('\n')}\n`;

describe('small chunks merge into a neighbour', () => {
  it('merges an empty section into the chunk before it', () => {
    const page = lines('The worker runs jobs from the queue.', '', '## Deprecated', '', '## Queues', '', 'Jobs wait in named queues until a worker takes them.');
    expect(parse(page).chunks).toEqual([
      { heading: 'page', headingPath: ['page'], text: 'The worker runs jobs from the queue.\n\n## Deprecated', startLine: 1, endLine: 3 },
      { heading: 'Queues', headingPath: ['page', 'Queues'], text: 'Jobs wait in named queues until a worker takes them.', startLine: 5, endLine: 7 },
    ]);
  });

  it('leads a small first chunk into the next one, which names the result', () => {
    const page = lines('## Deprecated', '', '## Queues', '', 'Jobs wait in named queues until a worker takes them.');
    expect(parse(page).chunks).toEqual([
      { heading: 'Queues', headingPath: ['page', 'Queues'], text: '## Deprecated\n\n## Queues\n\nJobs wait in named queues until a worker takes them.', startLine: 1, endLine: 5 },
    ]);
  });

  it('merges a link-only table of contents and a "See [X](x.md)" pointer, however long their links', () => {
    // Both heading lines stay in the text: the chunk starts above them.
    const page = lines(
      '## Contents', //                                                  1
      '', //                                                             2
      '- [Installation and first steps](#installation-and-first-steps)', // 3
      '- [Running the worker in production](#running-the-worker)', //  4
      '', //                                                             5
      '## Installation and first steps', //                              6
      '', //                                                             7
      'Install the package and create the schema once.', //            8
      '', //                                                             9
      '### helpers.addJob()', //                                         10
      '', //                                                             11
      'See [`addJob`](./library/add-job.md).', //                       12
    );
    expect(parse(page, { headingSplitChars: 50 }).chunks).toEqual([
      { heading: 'Installation and first steps', headingPath: ['page', 'Installation and first steps'], startLine: 1, endLine: 12,
        text: page.trim() },
    ]);
  });

  it('keeps a short option with its heading as a chunk of its own: the heading counts', () => {
    const page = lines('## Options', '', 'Options of the worker.', '', '### pollInterval', '', 'Default: `2000`.', '', '### schema', '', 'Default: `graphile_worker`.');
    expect(parse(page, { headingSplitChars: 40 }).chunks.map(({ heading, text }) => [heading, text])).toEqual([
      ['Options', 'Options of the worker.'],
      ['pollInterval', 'Default: `2000`.'],
      ['schema', 'Default: `graphile_worker`.'],
    ]);
  });

  it('joins a lead-in that ends a section to the next section it introduces', () => {
    const page = lines('Here are the terms you will come across:', '', '## Task', '', 'Something that can be executed, such as sending an email.');
    expect(parse(page).chunks).toEqual([
      { heading: 'Task', headingPath: ['page', 'Task'], startLine: 1, endLine: 5,
        text: 'Here are the terms you will come across:\n\n## Task\n\nSomething that can be executed, such as sending an email.' },
    ]);
  });

  it('keeps a page whose only chunk is small', () => {
    expect(parse('Short page.\n').chunks).toEqual([{ heading: 'page', headingPath: ['page'], text: 'Short page.', startLine: 1, endLine: 1 }]);
  });

  it('keeps every chunk with minChunkChars 0, except empty ones', () => {
    const page = lines('Intro.', '', '## Empty', '', '## Full', '', 'Text.');
    expect(parse(page, { minChunkChars: 0 }).chunks.map(({ heading, text }) => [heading, text])).toEqual([
      ['page', 'Intro.\n\n## Empty'],
      ['Full', 'Text.'],
    ]);
  });
});

describe('HTML in markdown', () => {
  const README = lines(
    '<h1 align="center">Graphile Worker</h1>', //                                                   1
    '<p align="center"><img src="logo.svg" alt="Graphile Worker logo" width="120"></p>', //       2
    '', //                                                                                          3
    '[![npm](https://img.shields.io/npm/v/graphile-worker.svg)](https://npmjs.com/package/graphile-worker)', // 4
    '', //                                                                                          5
    '<!-- prettier-ignore -->', //                                                                  6
    '## Install', //                                                                                7
    '', //                                                                                          8
    '<a name="npm"></a>', //                                                                        9
    'Install the package from npm with your package manager of choice.', //                        10
    '', //                                                                                          11
    '<details>', //                                                                                 12
    '<summary>Click to view <code>ca.pem</code></summary>', //                                     13
    '', //                                                                                          14
    'Store the certificate in a file and pass its path in the connection string.', //            15
    '', //                                                                                          16
    '</details>', //                                                                                17
    '', //                                                                                          18
    '## Usage', //                                                                                  19
    '', //                                                                                          20
    'Run <code>graphile-worker</code> against your database<br>and watch it process jobs.', //    21
  );

  it('takes the title from a leading <h1>, drops decorative markup, merges a badge line into the next chunk', () => {
    expect(parse(README)).toEqual({
      title: 'Graphile Worker',
      chunks: [
        { heading: 'Install', headingPath: ['Graphile Worker', 'Install'], startLine: 4, endLine: 15,
          text: '[![npm](https://img.shields.io/npm/v/graphile-worker.svg)](https://npmjs.com/package/graphile-worker)\n\n## Install\n\n' +
            'Install the package from npm with your package manager of choice.\n\nClick to view ca.pem\n\n' +
            'Store the certificate in a file and pass its path in the connection string.' },
        { heading: 'Usage', headingPath: ['Graphile Worker', 'Usage'], startLine: 19, endLine: 21,
          text: 'Run graphile-worker against your database\nand watch it process jobs.' },
      ],
    });
  });

  it('gives no chunk for a top of page that is only markup', () => {
    const page = lines('<p align="center"><img src="logo.svg"></p>', '', '<a name="top"></a>', '', '## Install', '', 'Install the package from npm with your package manager.');
    expect(parse(page).chunks).toEqual([
      { heading: 'Install', headingPath: ['page', 'Install'], text: 'Install the package from npm with your package manager.', startLine: 5, endLine: 7 },
    ]);
  });

  it('keeps a markdown table row on one line when a cell holds <br>', () => {
    const page = lines('## Limits', '', '| Setting | Default |', '| --- | --- |', '| maxPoolSize | 10<br>per worker |');
    expect(parse(page).chunks.map((chunk) => chunk.text)).toEqual(['| Setting | Default |\n| --- | --- |\n| maxPoolSize | 10 per worker |']);
  });

  it('keeps the text of an HTML table, a row per line', () => {
    const page = lines('## Limits', '', '<table>', '<tr><th>Setting</th><th>Default</th></tr>', '<tr><td>maxPoolSize</td><td>10</td></tr>', '</table>');
    expect(parse(page).chunks.map((chunk) => chunk.text)).toEqual(['Setting Default\nmaxPoolSize 10']);
  });
});
