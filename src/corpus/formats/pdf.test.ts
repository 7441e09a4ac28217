import { describe, expect, it } from 'vitest';
import { createTinyPdf, type TinyPdfLine } from '../../testing/tiny-pdf.ts';
import { DEFAULT_FORMAT_LIMITS } from './limits.ts';
import { convertPdf } from './pdf.ts';

const running = (page: number, pages: number): TinyPdfLine[] => [
  { text: 'Operations handbook', size: 8, y: 580 },
  { text: `Page ${page} of ${pages}`, size: 8, y: 20 },
];

describe('convertPdf', () => {
  it('reads text in reading order per page, headings by type size (under the title of the properties), without running headers and page numbers, hyphenation joined, each line with its page', async () => {
    const pdf = createTinyPdf(
      [
        // Drawn out of order: the reader sorts lines top to bottom.
        [{ text: 'age room, off the floor', size: 10, y: 498 }, ...running(1, 3), { text: 'Storage', size: 18, y: 540 }, { text: 'Keep flour in a dry stor-', size: 10, y: 510 }],
        [...running(2, 3), { text: 'and away from the walls.', size: 10, y: 540 }, { text: 'Cleaning', size: 14, y: 500 }, { text: 'Clean the mixers daily.', size: 10, y: 480 }],
        [...running(3, 3), { text: 'Wash the tins in hot water.', size: 10, y: 540 }, { text: 'The tree-nut trays go last.', size: 10, y: 500 }],
      ],
      { title: 'Handbook' },
    );
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: {
        title: 'Handbook',
        markdown: '## Storage\n\nKeep flour in a dry storage room, off the floor and away from the walls.\n\n### Cleaning\n\nClean the mixers daily.\n\nWash the tins in hot water.\n\nThe tree-nut trays go last.\n',
        linePages: [1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3],
      },
    });
  });

  it('reports a scanned PDF (no text layer), an encrypted one and a broken one as named problems', async () => {
    expect(await convertPdf(createTinyPdf([[], []]), DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: false,
      problem: { field: 'content', message: 'the PDF has no text layer (0 characters of text on 2 pages): it looks scanned. Run OCR on it (e.g. ocrmypdf), or pass --skip-invalid to leave it out.' },
    });
    expect(await convertPdf(createTinyPdf([[{ text: 'Secret', size: 10, y: 500 }]], { encrypted: true }), DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: false,
      problem: { field: 'encryption', message: 'the PDF is encrypted (it needs a password to open). Save a copy without a password, or pass --skip-invalid to leave it out.' },
    });
    expect(await convertPdf(Buffer.from('%PDF-1.4\nnot really a pdf'), DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: false,
      problem: { field: 'content', message: 'the file cannot be read as a PDF (Invalid PDF structure.). Check that it opens in a PDF viewer and save it again, or pass --skip-invalid to leave it out.' },
    });
  });

  it('stops at the page limit, the text limit and the time budget (a fake clock), each with the fix', async () => {
    const pages = Array.from({ length: 5 }, (_, at): TinyPdfLine[] => [{ text: `Page text number ${at + 1} is here.`, size: 10, y: 500 }]);
    const pdf = createTinyPdf(pages);
    expect(await convertPdf(pdf, { ...DEFAULT_FORMAT_LIMITS, maxPdfPages: 4 })).toEqual({
      ok: false,
      problem: { field: 'size', message: 'the PDF has 5 pages, more than the 4 Atlas reads of one file. Split it into parts, or pass --skip-invalid to leave it out.' },
    });
    expect(await convertPdf(pdf, { ...DEFAULT_FORMAT_LIMITS, maxTextChars: 60 })).toEqual({
      ok: false,
      problem: { field: 'size', message: 'the PDF holds more than 60 characters of text (at page 3). Split it into parts, or pass --skip-invalid to leave it out.' },
    });
    let now = 0;
    // 400 ms a reading: the start, then pages 1 (0.4 s), 2 (0.8 s) and 3 (1.2 s, over).
    const clock = () => (now += 400);
    expect(await convertPdf(pdf, { ...DEFAULT_FORMAT_LIMITS, timeBudgetMs: 1000, now: clock })).toEqual({
      ok: false,
      problem: { field: 'time', message: 'reading the PDF took more than 1 s (stopped at page 3 of 5). Split it into parts, or pass --skip-invalid to leave it out.' },
    });
  });
});

describe('convertPdf running lines', () => {
  it('drops the footer of a document of one page that ends with its place (as a browser prints the URL and 1/1) and the header in its smaller size', async () => {
    const page = (footer: string): TinyPdfLine[] => [
      { text: '12/6/26, 4:04 PM Guide', size: 8, y: 580 },
      { text: 'Guide', size: 18, y: 540 },
      { text: 'Read the guide first, then the reference pages.', size: 10, y: 510 },
      { text: footer, size: 8, y: 20 },
    ];
    expect(await convertPdf(createTinyPdf([page('file:///site/guide.html 1/1')]), DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: { markdown: '# Guide\n\nRead the guide first, then the reference pages.\n', linePages: [1, 1, 1] },
    });
    // A last line that does not end with the page's place is text, and so is the first.
    expect(await convertPdf(createTinyPdf([page('See the site.')]), DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: { markdown: '12/6/26, 4:04 PM Guide\n\n# Guide\n\nRead the guide first, then the reference pages.\n\nSee the site.\n', linePages: [1, 1, 1, 1, 1, 1, 1] },
    });
  });
});

describe('convertPdf links', () => {
  it('keeps link annotations as markdown links: a web URL as it is, a file URL as its path (a page printed from disk links the files beside it)', async () => {
    const pdf = createTinyPdf([
      [
        { text: 'Jobs', size: 18, y: 560 },
        { text: 'See', size: 10, y: 520 },
        { text: 'the job key', size: 10, x: 60, y: 520, link: 'file:///site/library/job-key.md#modes' },
        { text: 'and', size: 10, x: 120, y: 520 },
        { text: 'the source.', size: 10, x: 140, y: 520, link: 'https://github.com/graphile/worker' },
        { text: 'No link here.', size: 10, y: 480 },
      ],
    ]);
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: {
        markdown: '# Jobs\n\nSee [the job key](/site/library/job-key.md#modes) and [the source.](https://github.com/graphile/worker)\n\nNo link here.\n',
        linePages: [1, 1, 1, 1, 1],
      },
    });
  });
});

describe('convertPdf code and lists', () => {
  it('makes code blocks of lines all in a monospace font (line breaks, indentation and blank lines kept, across a page break) and code spans of monospace runs in a line', async () => {
    const mono = (text: string, x: number, y: number, size = 8.5): TinyPdfLine => ({ text, size, x, y, monospace: true });
    const pdf = createTinyPdf([
      [
        { text: 'Queues', size: 18, y: 560 },
        { text: 'Call', size: 10, y: 530 },
        mono('addJob()', 62, 530),
        { text: 'to queue a job in', size: 10, x: 106, y: 530 },
        { text: 'the order given.', size: 10, y: 518 },
        mono('await addJob({', 40, 490),
        // Two characters (5.1 points each at 8.5) to the right.
        mono("queue: 'emails',", 50.2, 478),
        mono('maxAttempts: 5,', 50.2, 466),
        mono('});', 40, 454),
        // Two line spacings below: a blank line between.
        mono('run(); // and', 40, 430),
        // 1.67 line spacings below: no blank line but the margin between two blocks.
        mono('next();', 40, 410),
        { text: 'Pass', size: 10, y: 300 },
        mono('{ retry: 2,', 66, 300),
        // Inline code wrapped onto a line of its own, right below: still inline code.
        mono('repeats: 3 }', 40, 288),
        { text: 'to retry.', size: 10, x: 104, y: 288 },
        { text: 'Write', size: 10, y: 60 },
        mono('await', 72, 60),
        { text: 'before each one.', size: 10, x: 102, y: 60 },
        mono('then();', 40, 30),
      ],
      [
        mono('done();', 40, 560),
        { text: 'Options', size: 14, y: 520 },
        // A heading of code, at 85% of the heading size as inline code is of the text: at the heading's level.
        mono('addJob', 40, 490, 11.9),
        { text: 'It takes a task name.', size: 10, y: 470 },
      ],
    ]);
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: {
        markdown:
          '# Queues\n\nCall `addJob()` to queue a job in the order given.\n\n```\nawait addJob({\n  queue: \'emails\',\n  maxAttempts: 5,\n});\n\nrun(); // and\n```\n\n```\nnext();\n```\n\n' +
          'Pass `{ retry: 2, repeats: 3 }` to retry.\n\n' +
          'Write `await` before each one.\n\n```\nthen();\ndone();\n```\n\n## Options\n\n## addJob\n\nIt takes a task name.\n',
        // The code block across the page break: `then();` on page 1, `done();` and the closing fence on page 2.
        linePages: [...Array.from({ length: 23 }, () => 1), 2, 2, 2, 2, 2, 2, 2, 2],
      },
    });
  });

  it('reads a document of code only as a code block (no text to take the body size from)', async () => {
    const pdf = createTinyPdf([[{ text: 'function run<T>(id: string): Promise<T>', size: 8.5, y: 560, monospace: true }]]);
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: { markdown: '```\nfunction run<T>(id: string): Promise<T>\n```\n', linePages: [1, 1, 1] },
    });
  });

  it('makes list items of lines after a drawn bullet (a tagged label, as Chromium prints) or that start with a bullet glyph or a number, continuation lines joined, a deeper item nested', async () => {
    const pdf = createTinyPdf([
      [
        { text: 'Steps', size: 18, y: 560 },
        { text: 'Before you start:', size: 10, y: 530 },
        { text: 'Install the worker and', size: 10, x: 52, y: 510, listLabel: true },
        { text: 'its schema.', size: 10, x: 52, y: 498 },
        { text: 'Run the migrations', size: 10, x: 64, y: 486, listLabel: true },
        { text: 'Start it.', size: 10, x: 52, y: 474, listLabel: true },
        { text: 'Then:', size: 10, y: 446 },
        { text: '• Add a job', size: 10, y: 426 },
        { text: '• Wait for', size: 10, y: 414 },
        { text: 'it to run.', size: 10, x: 48, y: 402 },
        { text: 'Last:', size: 10, y: 374 },
        { text: '1. Stop the worker.', size: 10, y: 354 },
        { text: '2. Drop the schema.', size: 10, y: 342 },
        { text: '- A dash item', size: 10, y: 314 },
      ],
    ]);
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: {
        markdown:
          '# Steps\n\nBefore you start:\n\n- Install the worker and its schema.\n\n  - Run the migrations\n\n- Start it.\n\nThen:\n\n- Add a job\n\n- Wait for it to run.\n\n' +
          'Last:\n\n1. Stop the worker.\n\n2. Drop the schema.\n\n- A dash item\n',
        linePages: Array.from({ length: 23 }, () => 1),
      },
    });
  });
});
