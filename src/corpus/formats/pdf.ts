import { getDocumentProxy } from 'unpdf';
import type { ConvertResult } from './converted.ts';
import type { FormatLimits } from './limits.ts';
import { pdfLinesToMarkdown } from './pdf-blocks.ts';
import { dropRunningLines, linkItems, pageLines, type PdfLine, type PdfLink, type PdfTextItem } from './pdf-lines.ts';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/**
 * A PDF's text as markdown with the page of every line (pdf.js through unpdf, no canvas): text in
 * reading order per page, running headers, footers and page numbers dropped, headings from type
 * sizes, hyphenation at line ends joined (see `pdfLinesToMarkdown`); the title from the document
 * properties. Problems, each with its fix: an encrypted or broken file, more pages than
 * `limits.maxPdfPages`, more time than `limits.timeBudgetMs`, and a PDF with no text layer (a
 * scan), which would otherwise be indexed empty.
 *
 * @example
 * const result = await convertPdf(readFileSync('handbook.pdf'), DEFAULT_FORMAT_LIMITS);
 * if (result.ok) result.page.linePages; // [1, 1, 1, 2, ...]
 */
export async function convertPdf(bytes: Uint8Array, limits: FormatLimits): Promise<ConvertResult> {
  const started = limits.now();
  let pdf: PdfDocument;
  try {
    // A copy: pdf.js takes the buffer over.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0, stopAtErrors: false });
  } catch (error) {
    return { ok: false, problem: openProblem(error) };
  }
  try {
    if (pdf.numPages > limits.maxPdfPages) {
      return fail('size', `the PDF has ${pdf.numPages} pages, more than the ${limits.maxPdfPages} Atlas reads of one file. Split it into parts, or pass --skip-invalid to leave it out.`);
    }
    const pages: PdfLine[][] = [];
    let chars = 0;
    for (let number = 1; number <= pdf.numPages; number++) {
      const lines = pageLines(await pageItems(pdf, number), number);
      for (const line of lines) chars += line.text.length;
      if (chars > limits.maxTextChars) return fail('size', `the PDF holds more than ${limits.maxTextChars} characters of text (at page ${number}). Split it into parts, or pass --skip-invalid to leave it out.`);
      if (limits.now() - started > limits.timeBudgetMs) {
        return fail('time', `reading the PDF took more than ${limits.timeBudgetMs / 1000} s (stopped at page ${number} of ${pdf.numPages}). Split it into parts, or pass --skip-invalid to leave it out.`);
      }
      pages.push(lines);
    }
    if (chars < 10 * pdf.numPages) {
      return fail('content', `the PDF has no text layer (${chars} characters of text on ${pdf.numPages} pages): it looks scanned. Run OCR on it (e.g. ocrmypdf), or pass --skip-invalid to leave it out.`);
    }
    const title = await documentTitle(pdf);
    const converted = pdfLinesToMarkdown(dropRunningLines(pages), title);
    return { ok: true, page: title === undefined ? converted : { ...converted, title } };
  } catch (error) {
    return { ok: false, problem: openProblem(error) };
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

async function pageItems(pdf: PdfDocument, number: number): Promise<PdfTextItem[]> {
  const page = await pdf.getPage(number);
  const content = await page.getTextContent({ includeMarkedContent: true });
  const links = pageLinks(await page.getAnnotations().catch(() => []));
  page.cleanup();
  return linkItems(textItems(content.items, content.styles), links);
}

/** What pdf.js's `getTextContent({ includeMarkedContent: true })` gives: text runs and the marked-content sequences around them. */
type PdfContentItem = { str: string; transform: number[]; width: number; fontName: string } | { type: string; tag?: string };

/**
 * The text runs of a page as {@link PdfTextItem}s: each with whether its font is monospace (pdf.js
 * names the family of a font with the FixedPitch flag, or of Courier, `monospace`) and, for the first
 * run after a list label that has no text (a marked-content sequence tagged `Lbl`, the label of a
 * tagged PDF's list item, whose bullet Chromium draws as a shape), `listLabel`.
 *
 * @example
 * textItems([{ type: 'beginMarkedContentProps', tag: 'Lbl' }, { type: 'endMarkedContent' }, { str: 'First', transform: [10, 0, 0, 10, 60, 500], width: 22, fontName: 'f1' }], { f1: { fontFamily: 'serif' } });
 * // [{ text: 'First', x: 60, y: 500, size: 10, width: 22, listLabel: true }]
 */
export function textItems(content: readonly PdfContentItem[], styles: Record<string, { fontFamily?: string }>): PdfTextItem[] {
  const items: PdfTextItem[] = [];
  // The tags of the marked-content sequences the run is in, and whether a label without text has just ended.
  const tags: string[] = [];
  let labelText = false;
  let drawnLabel = false;
  for (const item of content) {
    if ('type' in item) {
      if (item.type === 'endMarkedContent') {
        if (tags.pop() === 'Lbl' && !labelText) drawnLabel = true;
      } else if (item.type.startsWith('beginMarkedContent')) {
        tags.push(item.tag ?? '');
        if (item.tag === 'Lbl') labelText = false;
      }
      continue;
    }
    if (item.str.trim() === '') continue;
    if (tags.includes('Lbl')) labelText = true;
    const [a, b, c, d, x, y] = item.transform;
    const text: PdfTextItem = { text: item.str, x: x!, y: y!, size: Math.hypot(c!, d!) || Math.hypot(a!, b!), width: item.width };
    if (styles[item.fontName]?.fontFamily === 'monospace') text.monospace = true;
    if (drawnLabel && !tags.includes('Lbl')) {
      text.listLabel = true;
      drawnLabel = false;
    }
    items.push(text);
  }
  return items;
}

/**
 * The link annotations of a page with a target kept in the markdown: a web or mail URL as it is,
 * a file URL (a page printed from disk links the files beside it) as its path, which names the
 * linked page the way a site-root link does; links within the document (to a destination) have none.
 */
export function pageLinks(annotations: Array<{ subtype?: string; rect?: number[]; url?: string; unsafeUrl?: string }>): PdfLink[] {
  const links: PdfLink[] = [];
  for (const annotation of annotations) {
    const url = annotation.url ?? annotation.unsafeUrl;
    if (annotation.subtype !== 'Link' || typeof url !== 'string' || annotation.rect?.length !== 4) continue;
    const href = /^file:/i.test(url) ? filePath(url) : /^(?:https?|mailto):/i.test(url) ? url : undefined;
    if (href !== undefined && href !== '') links.push({ rect: annotation.rect, href });
  }
  return links;
}

/** `file:///site/library/add-job.md#add-jobs` -> `/site/library/add-job.md#add-jobs`. */
function filePath(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return decodeURIComponent(parsed.pathname) + parsed.hash;
  } catch {
    return undefined;
  }
}

async function documentTitle(pdf: PdfDocument): Promise<string | undefined> {
  const { info } = await pdf.getMetadata().catch(() => ({ info: undefined }));
  const title = (info as { Title?: unknown } | undefined)?.Title;
  return typeof title === 'string' && title.trim() !== '' ? title.trim() : undefined;
}

function fail(field: string, message: string): ConvertResult {
  return { ok: false, problem: { field, message } };
}

/** The problem of a PDF pdf.js cannot open: encrypted, or not a PDF (damaged, truncated). */
function openProblem(error: unknown): { field: string; message: string } {
  const name = (error as { name?: string }).name;
  const reason = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') {
    return { field: 'encryption', message: 'the PDF is encrypted (it needs a password to open). Save a copy without a password, or pass --skip-invalid to leave it out.' };
  }
  return { field: 'content', message: `the file cannot be read as a PDF (${reason}). Check that it opens in a PDF viewer and save it again, or pass --skip-invalid to leave it out.` };
}
