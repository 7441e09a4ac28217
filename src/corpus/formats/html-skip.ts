/**
 * What of an HTML page is not its content: navigation, sidebars, page headers and footers,
 * "edit this page" links, cookie banners, scripts and forms. Decided per element from its tag,
 * role, class tokens and id, so a streaming parser can leave out a whole subtree at its start tag.
 * Also which tables only lay content out ({@link isLayoutTable}): their cells are read as text.
 */

const SKIPPED_TAGS = new Set(['nav', 'aside', 'footer', 'script', 'style', 'noscript', 'template', 'svg', 'form', 'button', 'iframe', 'select', 'input', 'textarea', 'dialog', 'head', 'object', 'canvas', 'math']);

const SECTIONS = new Set(['section', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt', 'dl', 'dd', 'p', 'li', 'table']);

const SKIPPED_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);

// Class tokens and ids of site chrome (Sphinx, MkDocs, Docusaurus, VitePress, Javadoc, DocBook, cookie
// banners), and of a note's icon (LibreOffice Help's `<div class="noteicon"><img alt="Note Icon">`
// before every note; not Sphinx's `sig-return-icon`, the arrow of a signature), and of a footnote's
// links back to where it is cited (Sphinx's `backrefs`; not its headings' `toc-backref` links, which
// hold the heading's text).
const CHROME = /^(?:note|tip|hint|warning|caution|important|danger|info|alert|error)-?icon$|sidebar|cookie-?(?:banner|consent|notice|bar|law|policy)|^cookies?$|consent|gdpr|breadcrumb|navbar|^nav$|^navigation$|^toc$|table-of-contents|^pagination|^pager$|prev-next|^related$|headerlink|edit-?this|edit-?page|edit-link|^skip-link|^sr-only$|visually-hidden|^footer$|site-footer|site-header|^menu$|^topnav$|^bottomnav$|^nav(?:header|footer)$|announcement|^banner$|^backrefs$/i;

/**
 * Whether an element (and everything in it) is left out; `header` only outside the main content
 * (an article's header holds its title). `classCache` keeps the verdict of each class list for
 * the next elements of the page (a generated page repeats a few dozen class lists thousands of times).
 */
export function isSkippedElement(name: string, attributes: Record<string, string>, insideMain: boolean, classCache?: Map<string, boolean>): boolean {
  if (SKIPPED_TAGS.has(name) && !(name === 'aside' && isNote(attributes))) return true;
  if (name === 'header' && !insideMain) return true;
  // Not `hidden`: a page's script shows what it hides (an inactive tab's panel; LibreOffice Help
  // hides every variant of a menu path, `Tools - Options` and the Mac's `LibreOffice -
  // Preferences`, until its script picks one), and it is the docs' text either way.
  if (attributes['aria-hidden'] === 'true') return true;
  const role = attributes.role;
  if (role !== undefined && SKIPPED_ROLES.has(role.toLowerCase())) return true;
  const classes = attributes.class;
  if (classes !== undefined && hasChromeClass(classes, classCache)) return true;
  // A section's id is its heading's slug (`<section id="sidebar">` of a page about sidebars): content.
  const id = attributes.id;
  return id !== undefined && !SECTIONS.has(name) && !/(?:^|\s)section(?:\s|$)/.test(classes ?? '') && CHROME.test(id);
}

/** Roles of a note that is part of the text (ARIA's, DPUB-ARIA's footnotes and endnotes). */
const NOTE_ROLES = new Set(['note', 'doc-footnote', 'doc-endnote', 'doc-endnotes']);
/** Class tokens of footnotes and endnotes (Sphinx's `footnote-list` and `footnote`, Pandoc's `footnotes`). */
const NOTE_CLASS = /(?:^|\s)(?:foot|end)notes?(?:-list)?(?:\s|$)/i;

/**
 * Whether an `<aside>` is a note of the text, not a sidebar: a footnote or endnote (the
 * explanation a `[1]` in the text points to: Sphinx writes its footnotes as asides).
 */
function isNote(attributes: Record<string, string>): boolean {
  const role = attributes.role?.toLowerCase();
  return (role !== undefined && NOTE_ROLES.has(role)) || NOTE_CLASS.test(attributes.class ?? '');
}

/** Whether a class list (`class="sphinxsidebar nav"`) holds a class token of site chrome. */
function hasChromeClass(classes: string, cache: Map<string, boolean> | undefined): boolean {
  let chrome = cache?.get(classes);
  if (chrome === undefined) {
    chrome = classes.split(/\s+/).some((token) => token !== '' && CHROME.test(token));
    cache?.set(classes, chrome);
  }
  return chrome;
}

/** Link text that is site chrome wherever it stands ("Edit this page", "Edit on GitHub"). */
export const CHROME_LINK_TEXT = /^\s*(?:edit (?:this page|on github|on gitlab|page|this file)|improve this (?:page|doc)|view (?:page )?source|show source|suggest (?:an )?edits?|back to top|skip to (?:main )?content|permalink)\s*[.¶#]?\s*$/i;

/** Where the main content of a page is, found from its text before parsing: the element, and the offset of its start tag. */
export type MainRegion = ({ tag: 'main' } | { role: 'main' } | { tag: 'article' }) & { start: number };

/**
 * The element holding a page's main content: `<main>` first, then `[role=main]`, then the
 * first `<article>`; `undefined` when it has none (the caller falls back to Readability).
 *
 * @example
 * findMainRegion('<nav></nav><div role="main">...</div>'); // { role: 'main', start: 11 }
 */
export function findMainRegion(html: string): MainRegion | undefined {
  const main = html.search(/<main[\s>]/i);
  if (main >= 0) return { tag: 'main', start: main };
  const role = html.search(/\srole\s*=\s*["']?main["'\s>]/i);
  if (role >= 0) return { role: 'main', start: Math.max(0, html.lastIndexOf('<', role)) };
  const article = html.search(/<article[\s>]/i);
  if (article >= 0) return { tag: 'article', start: article };
  return undefined;
}

/** Whether an element is the main region. */
export function isMainElement(region: MainRegion, name: string, attributes: Record<string, string>): boolean {
  if ('role' in region) return attributes.role?.toLowerCase() === 'main';
  return name === region.tag;
}

/** Class tokens of an admonition (DocBook, Sphinx, AsciiDoc): DocBook lays its icon, title and text out in a table. */
const ADMONITION = /(?:^|\s)(?:note|tip|hint|warning|caution|important|danger|admonition|admonitionblock)(?:\s|$)/i;

/** Whether an element's class names an admonition (`note`, `tip`, `warning`). */
export function isAdmonition(attributes: Record<string, string>): boolean {
  return attributes.class !== undefined && ADMONITION.test(attributes.class);
}

/**
 * Whether a table lays content out rather than holding data: it says so (`role="presentation"`),
 * or it is an admonition's (DocBook writes a note as `<div class="note"><table summary="Note">`
 * of its icon, its title and its text; a table of data inside a note has no `summary` naming an
 * admonition). Its cells are read as blocks, so a note's text is prose, not a row of a table.
 */
export function isLayoutTable(attributes: Record<string, string>, insideAdmonition: boolean): boolean {
  if (attributes.role === 'presentation' || attributes.role === 'none') return true;
  return insideAdmonition && attributes.summary !== undefined && ADMONITION.test(attributes.summary);
}
