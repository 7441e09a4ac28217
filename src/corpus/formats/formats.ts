import { convertAsciidoc } from './asciidoc.ts';
import type { ConvertedPage, ConvertResult } from './converted.ts';
import { convertHtml } from './html.ts';
import type { FormatLimits } from './limits.ts';
import { convertWord } from './word.ts';

/** The formats Atlas reads. `markdown` and `text` are read as they are; the others are converted to markdown. */
export type PageFormat = 'markdown' | 'text' | 'html' | 'asciidoc' | 'pdf' | 'word';

const EXTENSIONS: Readonly<Record<string, PageFormat>> = Object.freeze({
  md: 'markdown',
  mdx: 'markdown',
  txt: 'text',
  html: 'html',
  htm: 'html',
  adoc: 'asciidoc',
  asciidoc: 'asciidoc',
  pdf: 'pdf',
  docx: 'word',
});

/** The file extensions Atlas reads, for messages: `.md, .mdx, .txt, ...`. */
export const PAGE_EXTENSIONS_TEXT = Object.keys(EXTENSIONS)
  .map((extension) => `.${extension}`)
  .join(', ');

/** A page file's name ends with one of these (any case). */
export const PAGE_EXTENSION = new RegExp(`\\.(?:${Object.keys(EXTENSIONS).join('|')})$`, 'i');

/**
 * The format of a file by its extension (any case), or undefined for a file Atlas does not read.
 *
 * @example
 * pageFormat('guide/Install.HTML'); // 'html'
 * pageFormat('notes.rst'); // undefined
 */
export function pageFormat(path: string): PageFormat | undefined {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? undefined : EXTENSIONS[path.slice(dot + 1).toLowerCase()];
}

/**
 * Whether a format is binary and converted asynchronously when the file is read (PDF, Word);
 * the text formats (HTML, AsciiDoc) are converted where the page is parsed, in worker threads.
 */
export function isBinaryFormat(format: PageFormat): format is 'pdf' | 'word' {
  return format === 'pdf' || format === 'word';
}

/**
 * Converts a binary page (PDF, Word) to markdown, within `limits`.
 *
 * @example
 * const result = await convertBinaryPage('pdf', bytes, DEFAULT_FORMAT_LIMITS);
 */
export async function convertBinaryPage(format: 'pdf' | 'word', bytes: Buffer, limits: FormatLimits): Promise<ConvertResult> {
  // pdf.js is large: loaded when a folder has a PDF, not when `atlas ingest` starts.
  if (format === 'pdf') return (await import('./pdf.ts')).convertPdf(bytes, limits);
  return convertWord(bytes);
}

/**
 * Converts a decoded text page (HTML, AsciiDoc) to markdown.
 *
 * @example
 * convertTextPage('html', '<main><h1>Hi</h1><p>Text.</p></main>').markdown; // '# Hi\n\nText.\n'
 */
export function convertTextPage(format: 'html' | 'asciidoc', text: string): ConvertedPage {
  return format === 'html' ? convertHtml(text) : convertAsciidoc(text);
}
