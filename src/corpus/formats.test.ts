import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/main.ts';
import { recordingIO } from '../cli/test-cli.ts';
import { createTinyPdf } from '../testing/tiny-pdf.ts';
import { loadCorpus } from './load.ts';
import { locatorText } from './locator.ts';
import { parseDocument } from './parse-document.ts';

// Issue 40: every format into the same document model, with the guarantees markdown pages have.

const HANDBOOK = createTinyPdf(
  [
    [{ text: 'Allergens', size: 18, y: 540 }, { text: 'Shared lines carry the label MAY CONTAIN NUTS.', size: 10, y: 510 }, { text: '1', size: 8, y: 20 }],
    [{ text: 'Delivery', size: 18, y: 540 }, { text: 'Cakes are delivered in the afternoon only.', size: 10, y: 510 }, { text: '2', size: 8, y: 20 }],
  ],
  { title: 'Bakery handbook' },
);
const SITE = '<html><head><title>Retries | Docs</title></head><body><nav>Home Guide</nav><main><h1>Retries</h1><p>A failed job is retried.</p></main><footer>© Docs</footer></body></html>';

let dir: string;
let docs: string;
const write = (path: string, content: string | Buffer) => writeFile(join(docs, path), content);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atlas-formats-'));
  docs = join(dir, 'docs');
  await mkdir(docs);
  await write('handbook.pdf', HANDBOOK);
  await write('handbook.pdf.atlas.yaml', 'labels:\n  section: policy\n  acl: [staff]\napplies_to: "2.x"\n');
  await write('retries.html', SITE);
  await copyFile(new URL('./formats/__fixtures__/runbook.docx', import.meta.url), join(docs, 'runbook.docx'));
  await write('deploy.adoc', '= Deploy guide\n\n== Install\n\nRun the installer.\n');
  await write('notes.txt', 'Plain notes\n\nThe queue is drained at night.\n');
  await write('page.md', '# Page\n\nA markdown page.\n');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a folder of every format', () => {
  it('loads each into documents and chunks: titles from the files, labels from a sidecar, a PDF chunk by its pages', async () => {
    const { docs: loaded, problems, notes } = await loadCorpus(docs);
    expect([problems, notes]).toEqual([[], []]);
    expect(loaded.map((doc) => [doc.sourcePath, doc.docId, doc.title, doc.appliesTo, doc.labels])).toEqual([
      ['deploy.adoc', 'deploy', 'Deploy guide', 'all', {}],
      ['handbook.pdf', 'handbook', 'Bakery handbook', '2.x', { section: 'policy', acl: ['staff'] }],
      ['notes.txt', 'notes', 'notes', 'all', {}],
      ['page.md', 'page', 'Page', 'all', {}],
      ['retries.html', 'retries', 'Retries', 'all', {}],
      ['runbook.docx', 'runbook', 'Worker runbook', 'all', {}],
    ]);
    const handbook = loaded.find((doc) => doc.docId === 'handbook')!;
    expect(handbook.chunks.map((chunk) => [chunk.headingPath, chunk.text, chunk.startLine, chunk.endLine, locatorText(chunk)])).toEqual([
      [['Bakery handbook', 'Allergens'], 'Shared lines carry the label MAY CONTAIN NUTS.', 1, 1, 'handbook.pdf p.1'],
      [['Bakery handbook', 'Delivery'], 'Cakes are delivered in the afternoon only.', 2, 2, 'handbook.pdf p.2'],
    ]);
    expect(loaded.find((doc) => doc.docId === 'retries')!.chunks.map((chunk) => [chunk.headingPath, chunk.text, locatorText(chunk)])).toEqual([
      [['Retries'], 'A failed job is retried.', 'retries.html'],
    ]);
    expect(loaded.find((doc) => doc.docId === 'notes')!.chunks.map((chunk) => [chunk.text, locatorText(chunk)])).toEqual([['Plain notes\n\nThe queue is drained at night.', 'notes.txt:1-3']]);
  });

  it('validates a sidecar as front matter (an acl near miss refused, naming the sidecar and line), and refuses a sidecar beside a markdown page or of no page', async () => {
    await write('handbook.pdf.atlas.yaml', 'acl: [staff]\n');
    await write('page.md.atlas.yaml', 'labels:\n  section: x\n');
    await write('gone.pdf.atlas.yaml', 'labels:\n  section: x\n');
    const { problems } = await loadCorpus(docs);
    expect(problems).toEqual([
      {
        file: 'gone.pdf.atlas.yaml',
        field: 'sidecar',
        message: 'the sidecar belongs to no page: gone.pdf is not in the docs folder (or is not a format Atlas reads). Rename it after its page, or delete it.',
      },
      expect.objectContaining({ file: 'handbook.pdf.atlas.yaml', line: 1, field: 'acl' }),
      {
        file: 'page.md.atlas.yaml',
        field: 'sidecar',
        message: "a sidecar is read only beside a page without front matter (HTML, PDF, Word, AsciiDoc, text), got one beside page.md. Move its fields into the page's front matter and delete it.",
      },
    ]);
  });

  it('names a file over the size limit without reading it, and a page nested too deep', async () => {
    await write('deep.html', `<main>${'<div>'.repeat(5000)}x${'</div>'.repeat(5000)}</main>`);
    await write('huge.pdf', Buffer.alloc(300_000, 'x'));
    const { problems } = await loadCorpus(docs, { limits: { maxFileBytes: 100_000 } });
    expect(problems).toEqual([
      {
        file: 'deep.html',
        field: 'content',
        message: 'the HTML could not be converted (HtmlTooDeepError: the page nests elements more than 2000 deep). Fix the file, or pass --skip-invalid to leave it out.',
      },
      {
        file: 'huge.pdf',
        field: 'size',
        message: 'the file is 0.3 MB, more than the 0.1 MB Atlas reads of one file. Split it, or move it out of the docs folder (or pass --skip-invalid to leave it out).',
      },
    ]);
  });
});

describe('atlas ingest of other formats', () => {
  it('fails on a scanned PDF naming it, indexes the rest with --skip-invalid, and is incremental by content hash (the sidecar included)', async () => {
    await write('scan.pdf', createTinyPdf([[], [], []]));
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ingest', 'docs'], io)).toBe(1);
    expect(io.err.join('')).toBe(
      'Atlas: 1 problem in the docs folder; nothing was written to the index.\n' +
        '  scan.pdf: content: the PDF has no text layer (0 characters of text on 3 pages): it looks scanned. Run OCR on it (e.g. ocrmypdf), or pass --skip-invalid to leave it out.\n' +
        'Fix them, or pass --skip-invalid to index the valid pages only.\n',
    );
    expect(await runCli(['ingest', 'docs', '--skip-invalid'], io)).toBe(0);
    expect(io.out.join('')).toBe('Indexed 6 docs (8 chunks) into .atlas/index.db: 6 added, 0 updated, 0 unchanged, 0 removed.\n');
    await write('handbook.pdf.atlas.yaml', 'labels:\n  section: operations\n');
    io.out.length = 0;
    expect(await runCli(['ingest', 'docs', '--skip-invalid', '--json'], io)).toBe(0);
    const report = JSON.parse(io.out.join('')) as { added: string[]; updated: string[]; unchanged: string[] };
    expect([report.added, report.updated, report.unchanged]).toEqual([[], ['handbook'], ['deploy', 'notes', 'page', 'retries', 'runbook']]);
    io.out.length = 0;
    expect(await runCli(['search', 'afternoon delivery', '--json'], io)).toBe(0);
    const hit = (JSON.parse(io.out.join('')) as { hits: Array<{ chunkId: string; sourcePath: string; startLine: number; endLine: number }> }).hits[0];
    expect(hit).toMatchObject({ chunkId: 'handbook#1', sourcePath: 'handbook.pdf', startLine: 2, endLine: 2 });
  });

  it('refuses a folder with no page Atlas reads, naming what it found and the formats it reads', async () => {
    await mkdir(join(dir, 'site'));
    for (const name of ['a.html', 'b.html']) await writeFile(join(dir, 'site', name), '<html><body><main><form><input name="q"></form></main></body></html>');
    await writeFile(join(dir, 'site', 'logo.png'), 'png');
    const io = recordingIO({ cwd: dir });
    expect(await runCli(['ingest', 'site'], io)).toBe(1);
    expect(io.err.join('')).toBe(
      'atlas: note: a.html: content: left out: the page has no text in its main content (a search page or a redirect has none). Nothing to do if that is intended.\n' +
        'atlas: note: b.html: content: left out: the page has no text in its main content (a search page or a redirect has none). Nothing to do if that is intended.\n' +
        'Atlas: site has no page Atlas reads: found 2 .html files and 1 .png file, 0 pages Atlas reads (2 left out as the notes above say). Atlas reads .md, .mdx, .txt, .html, .htm, .adoc, .asciidoc, .pdf, .docx files. Nothing was indexed. Pass the folder that holds your docs, or pass --allow-empty to make an empty index.\n',
    );
  });

  it('leaves out an HTML page that asks search engines not to index it (an mdBook print view), with a note', () => {
    const print = '<html><head><title>Book</title><meta content="noindex" name="robots"></head><body><main><h1>Intro</h1><p>Every page again.</p></main></body></html>';
    expect(parseDocument({ path: 'print.html', bytes: Buffer.from(print) })).toEqual({
      ok: false,
      problems: [],
      skipped: {
        file: 'print.html',
        field: 'content',
        message:
          'left out: the page asks search engines not to index it (<meta name="robots" content="noindex">), as a site\'s print view of every page, its table of contents or its search page does. Nothing to do if that is intended.',
      },
    });
    // Only the head counts: the same tag shown in the body (a page about robots meta tags) is text.
    const about = '<html><head><title>SEO</title></head><body><main><h1>SEO</h1><p>Write <code>&lt;meta name="robots" content="noindex"&gt;</code>.</p><meta name="robots" content="noindex"></main></body></html>';
    expect(parseDocument({ path: 'seo.html', bytes: Buffer.from(about) })).toMatchObject({ ok: true, doc: { docId: 'seo', chunks: [{ text: 'Write `<meta name="robots" content="noindex">`.' }] } });
    // "nofollow" alone does not ask to leave the page out.
    const follow = '<html><head><meta name="ROBOTS" content="nofollow"><title>A</title></head><body><main><p>Kept.</p></main></body></html>';
    expect(parseDocument({ path: 'a.html', bytes: Buffer.from(follow) }).ok).toBe(true);
  });

  it('parses an HTML page that breaks nothing but has no main text as left out, not as a problem', () => {
    expect(parseDocument({ path: 'search.html', bytes: Buffer.from('<main><script>search()</script></main>') })).toEqual({
      ok: false,
      problems: [],
      skipped: { file: 'search.html', field: 'content', message: 'left out: the page has no text in its main content (a search page or a redirect has none). Nothing to do if that is intended.' },
    });
  });
});
