/**
 * A page of another format (HTML, PDF, Word, AsciiDoc) read as markdown: what the markdown
 * parser and the chunker read, so that every format yields the same document model.
 */
export interface ConvertedPage {
  /** The content as markdown: headings, paragraphs, lists, code, tables. */
  markdown: string;
  /** The title the file declares (HTML `<title>`/`og:title`, PDF or Word document properties). */
  title?: string;
  /** PDF: the page each line of `markdown` comes from (index 0 is line 1), for citations by page. */
  linePages?: number[];
  /**
   * HTML: the page asks search engines not to index it (`<meta name="robots" content="noindex">`),
   * as a generated site's print view of the whole book, its table of contents or its search page
   * does: a copy of other pages or no content of its own. `markdown` is then empty.
   */
  noindex?: true;
}

/** A file that could not be converted: the aspect at fault and the message (what, and the fix). */
export interface ConvertProblem {
  field: string;
  message: string;
}

/** Result of converting a file: the page, or the problem that makes the file unreadable. */
export type ConvertResult = { ok: true; page: ConvertedPage } | { ok: false; problem: ConvertProblem };
