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
