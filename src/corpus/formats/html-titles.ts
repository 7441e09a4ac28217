// What an HTML page says it is called: its first <title> and its og:title (or <meta name="title">),
// read from the head before the main element and from any such tag the converter meets later.
import { Parser } from 'htmlparser2';

/** The titles of a page as they are read: the `<title>` text so far, whether inside it, and the meta title. */
export interface PageTitles {
  inTitle: boolean;
  title?: string;
  metaTitle?: string;
}

/** A start tag: a `<title>` opens the title (the first counts), a `<meta>` may give the meta title (the first counts). */
export function titleTagOpened(titles: PageTitles, name: string, attributes: Record<string, string>): void {
  if (name === 'title' && titles.title === undefined) titles.inTitle = true;
  if (name === 'meta') {
    const key = (attributes.property ?? attributes.name ?? '').toLowerCase();
    if ((key === 'og:title' || key === 'title') && attributes.content) titles.metaTitle ??= attributes.content;
  }
}

/** Text: part of the title while inside it. */
export function titleText(titles: PageTitles, text: string): void {
  if (titles.inTitle) titles.title = (titles.title ?? '') + text;
}

/**
 * The `<title>` and `og:title` of what comes before the main element (the head, the page header):
 * only those tags are read, and only until both are known, or the title is and no `<meta` follows
 * (the first of each counts, so nothing after can change them). A Sphinx page's header and
 * sidebar before its main element are a tenth of its bytes.
 *
 * @example
 * const titles = { inTitle: false };
 * readHeadTitles(titles, '<head><title>Retries</title></head>'); // titles.title === 'Retries'
 */
export function readHeadTitles(titles: PageTitles, head: string): void {
  const stopWhenKnown = () => {
    if (titles.title === undefined || titles.inTitle) return;
    if (titles.metaTitle !== undefined || !META_TAG.test(head.slice(parser.endIndex + 1))) throw HEAD_READ;
  };
  const parser = new Parser(
    {
      onopentag: (name, attributes) => {
        titleTagOpened(titles, name, attributes);
        if (name === 'meta') stopWhenKnown();
      },
      onclosetag: (name) => {
        if (name !== 'title') return;
        titles.inTitle = false;
        stopWhenKnown();
      },
      ontext: (text) => titleText(titles, text),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.end(head);
  } catch (error) {
    if (error !== HEAD_READ) throw error;
  }
  titles.inTitle = false;
}

const HEAD_READ = Symbol('head read');
/** A `<meta>` start tag (or text that looks like one: then the head is read on, as before). */
const META_TAG = /<meta[\s/>]/i;
