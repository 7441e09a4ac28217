import { createRequire } from 'node:module';
import { htmlToMarkdown, type HtmlMarkdown } from './html-markdown.ts';
import { findMainRegion, isSkippedElement } from './html-skip.ts';
import type { ConvertedPage } from './converted.ts';

/**
 * An HTML page's main content as markdown, and its title. The main content is the page's
 * `<main>`, else its `[role=main]`, else its first `<article>` (read in one streaming pass, fast
 * enough for a generated site of thousands of pages); a page with none of them is read by
 * Mozilla's Readability (a DOM from linkedom; slower) and, when Readability finds no article,
 * whole. Site chrome is left out either way (see `isSkippedElement`). The title is the declared
 * one (`og:title`, `<title>`) without a site suffix: when it starts with the first `<h1>`, the
 * `<h1>` (`itertools — Functions ... — Python 3.11 documentation` -> `itertools — Functions ...`).
 *
 * @example
 * convertHtml('<title>Install | Site</title><main><h1>Install</h1><p>Run it.</p></main>');
 * // { markdown: '# Install\n\nRun it.\n', title: 'Install' }
 */
export function convertHtml(source: string): ConvertedPage {
  if (asksNoIndex(source)) return { markdown: '', noindex: true };
  const html = isXhtml(source) ? withXhtmlEmptyElements(source) : source;
  const region = findMainRegion(html);
  let converted: HtmlMarkdown | undefined = region === undefined ? undefined : htmlToMarkdown(html, region);
  if (converted === undefined || converted.markdown === '') {
    // The streaming pass first: it refuses a page nested too deep before a DOM is built of it.
    const whole = htmlToMarkdown(html, 'all');
    converted = readabilityMarkdown(html) ?? whole;
  }
  const page: ConvertedPage = { markdown: converted.markdown };
  const title = pageTitle(converted);
  if (title !== undefined) page.title = title;
  return page;
}

/** An XML declaration, or the XHTML namespace on the `<html>` element. */
const XHTML = /^\s*<\?xml\b|<html\b[^>]*\bxmlns\s*=\s*["']http:\/\/www\.w3\.org\/1999\/xhtml["']/i;

/** Whether a page is written as XHTML (DocBook's and other XSLT-made sites are), where `<a id="x"/>` is an empty element. */
export function isXhtml(html: string): boolean {
  return XHTML.test(html.slice(0, 2000));
}

/** Elements HTML knows to be empty: `<br/>` is read as one either way. */
const VOID_ELEMENTS = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);

/**
 * An XHTML page with each empty element written `<x/>` written `<x></x>`. Read as HTML, `<a
 * id="x"/>` opens a link that never closes: a DocBook page's section headings (`<h2><a
 * id="..."/>3.1. Overview</h2>`) became link text, and Readability left every one out as a
 * block of links. XHTML escapes every `<` of its text, so a tag of the form is a tag.
 *
 * @example
 * withXhtmlEmptyElements('<h2><a id="s1"/>Overview</h2><br/>'); // '<h2><a id="s1"></a>Overview</h2><br/>'
 */
export function withXhtmlEmptyElements(html: string): string {
  // Greedy up to the tag's end, then back to its `/`: linear in the tag's length, whatever its spaces.
  return html.replace(/<([a-zA-Z][\w:-]*)((?:\s[^<>]*)?)\/>/g, (tag, name: string, attributes: string) =>
    VOID_ELEMENTS.has(name.toLowerCase()) ? tag : `<${name}${attributes.trimEnd()}></${name}>`,
  );
}

/** A `<meta>` start tag. */
const META = /<meta\b[^>]*>/gi;
/** Where a page's head ends (`</head>`, else its `<body>`). */
const HEAD_END = /<\/head\s*>|<body[\s>]/i;

/**
 * Whether the page's head holds `<meta name="robots" content="...noindex...">` (any attribute
 * order, any case). Only the head is read: a meta tag in the body's text (an example) does not count.
 *
 * @example
 * asksNoIndex('<head><meta name="robots" content="noindex"></head><body>...'); // true
 */
export function asksNoIndex(html: string): boolean {
  const end = html.search(HEAD_END);
  if (end < 0) return false;
  for (const [tag] of html.slice(0, end).matchAll(META)) {
    if (/\bname\s*=\s*["']?robots["'\s/>]/i.test(tag) && /\bcontent\s*=\s*["'][^"']*\bnoindex\b/i.test(tag)) return true;
  }
  return false;
}

function pageTitle({ declaredTitle, firstHeading }: HtmlMarkdown): string | undefined {
  if (declaredTitle === undefined) return firstHeading;
  if (firstHeading !== undefined && declaredTitle.startsWith(firstHeading)) return firstHeading;
  return declaredTitle;
}

/** The part of a DOM element read before Readability sees the page. */
interface PageElement {
  tagName: string;
  getAttribute(name: string): string | null;
  removeAttribute(name: string): void;
  remove(): void;
  readonly previousElementSibling: PageElement | null;
  before(text: string): void;
}

interface ReadabilityModules {
  parseHTML: (html: string) => { document: { querySelectorAll(selector: string): Iterable<PageElement> } };
  Readability: {
    new (document: unknown, options?: object): { parse(): { content?: string | null; title?: string | null } | null };
    prototype: { REGEXPS?: { unlikelyCandidates?: RegExp } };
  };
}

/** linkedom and Readability, loaded on first use (most pages never need them; Node caches the modules). */
function readabilityModules(): ReadabilityModules {
  const require = createRequire(import.meta.url);
  const { parseHTML } = require('linkedom') as Pick<ReadabilityModules, 'parseHTML'>;
  const { Readability } = require('@mozilla/readability') as Pick<ReadabilityModules, 'Readability'>;
  return { parseHTML, Readability };
}

/** Elements of running text: Readability's cleaning is meant for blocks, not for them. */
const INLINE_ELEMENTS = new Set(['span', 'em', 'strong', 'b', 'i', 'u', 's', 'kbd', 'samp', 'var', 'code', 'abbr', 'cite', 'dfn', 'mark', 'small', 'sub', 'sup', 'q', 'time', 'label']);

/**
 * The page as Readability should see it:
 * - site chrome left out by Atlas's own rules first (html-skip.ts), since Readability rewrites
 *   what would tell it (a `<div class="noteicon">` around LibreOffice Help's "Note Icon" image
 *   becomes a plain `<p>`, and its alt text a line of every note), and what `hidden` hides kept,
 *   as Atlas reads it;
 * - an inline element's class and id taken off when Readability would leave it out for them as
 *   clutter ("menu", "header", "comment", "extra", "related", ...), words that also name what
 *   running text marks up: LibreOffice Help writes each menu path as `<span class="menuitem">`, so
 *   "Choose View - Freeze Rows and Columns." became "Choose ." on 706 of its 2,560 pages.
 */
function prepareForReadability(document: ReturnType<ReadabilityModules['parseHTML']>['document'], unlikely: RegExp | undefined): void {
  const unhidden = new Set<PageElement>();
  for (const element of document.querySelectorAll('body *')) {
    const name = element.tagName.toLowerCase();
    const attributes: Record<string, string> = {};
    for (const attribute of ['class', 'id', 'role', 'aria-hidden']) {
      const value = element.getAttribute(attribute);
      if (value !== null) attributes[attribute] = value;
    }
    if (isSkippedElement(name, attributes, true)) {
      element.remove();
      continue;
    }
    // Readability drops what `hidden` hides; Atlas reads it (html-skip.ts), each of a row of
    // hidden alternatives apart from the one before ("LibreOffice - Preferences / Tools - Options").
    if (element.getAttribute('hidden') !== null) {
      element.removeAttribute('hidden');
      const before = element.previousElementSibling;
      if (before !== null && unhidden.has(before)) element.before(' / ');
      unhidden.add(element);
    }
    if (unlikely !== undefined && INLINE_ELEMENTS.has(name) && unlikely.test(`${attributes.class ?? ''} ${attributes.id ?? ''}`)) {
      element.removeAttribute('class');
      element.removeAttribute('id');
    }
  }
}

/** The article Readability finds in a page without a main element, converted; undefined when it finds none. */
function readabilityMarkdown(html: string): HtmlMarkdown | undefined {
  const { parseHTML, Readability } = readabilityModules();
  const { document } = parseHTML(html);
  prepareForReadability(document, Readability.prototype.REGEXPS?.unlikelyCandidates);
  const article = new Readability(document, { charThreshold: 100, keepClasses: true }).parse();
  if (!article?.content) return undefined;
  const converted = htmlToMarkdown(article.content, 'all');
  if (converted.markdown === '') return undefined;
  // Readability drops <head>: keep the page's declared title.
  const declared = htmlToMarkdown(html.slice(0, Math.max(0, html.search(/<body[\s>]/i))), 'all').declaredTitle ?? article.title ?? undefined;
  return declared ? { ...converted, declaredTitle: declared } : converted;
}
