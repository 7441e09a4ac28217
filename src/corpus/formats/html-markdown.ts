import { Parser } from 'htmlparser2';
import { CHROME_LINK_TEXT, isAdmonition, isLayoutTable, isMainElement, isSkippedElement, type MainRegion } from './html-skip.ts';
import { collapseSpace, createMarkdownWriter, markdownLink, type MarkdownWriter } from './markdown-writer.ts';
import { readHeadTitles, titleTagOpened, titleText, type PageTitles } from './html-titles.ts';
import { writeTerm } from './html-terms.ts';

/** What {@link htmlToMarkdown} made of a page: its content as markdown, and the titles it declares. */
export interface HtmlMarkdown {
  markdown: string;
  /** `<meta property="og:title">` (or `name="title"`), else `<title>`; undefined when neither. */
  declaredTitle?: string;
  /** Text of the first `<h1>` of the content. */
  firstHeading?: string;
}

const BLOCKS = new Set(['p', 'div', 'section', 'article', 'main', 'ul', 'ol', 'li', 'pre', 'table', 'blockquote', 'dl', 'dt', 'dd', 'hr', 'figure', 'figcaption', 'header', 'details', 'summary', 'address', 'center', 'body', 'caption']);
const HEADINGS: Record<string, number> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };

interface Frame {
  name: string;
  skip: boolean;
  main: boolean;
  /** An element whose class names an admonition (`note`, `tip`, `warning`): a table right inside it lays the admonition out. */
  admonition?: boolean;
  /** A table that lays content out rather than holding data (html-skip.ts `isLayoutTable`). */
  layout?: boolean;
}

/** Cells and rows of a layout table: read as blocks. */
const LAYOUT_PARTS = new Set(['tr', 'td', 'th', 'tbody', 'thead', 'tfoot']);

/**
 * Converts HTML to markdown in one streaming pass (htmlparser2, no DOM): headings, paragraphs,
 * lists, code blocks and tables kept; a definition term (`<dt>`, as API references such as
 * Sphinx's mark a function's signature) is a heading one level below the last heading; site chrome left out (see
 * `isSkippedElement`); with `region`, only what is inside that element (the first one) is
 * content. Nesting costs no stack: a page nested 100,000 deep converts like a flat one.
 *
 * @example
 * htmlToMarkdown('<nav>Home</nav><main><h1>Install</h1><p>Run it.</p></main>', { tag: 'main' }).markdown; // '# Install\n\nRun it.\n'
 */
export function htmlToMarkdown(html: string, region: MainRegion | 'all'): HtmlMarkdown {
  const state = createState(region);
  // The head (title, meta) and what comes before the main element need no parsing: read the titles from the text.
  const start = region === 'all' ? 0 : region.start;
  if (start > 0) readHeadTitles(state.titles, html.slice(0, start));
  const parser = new Parser(
    {
      onopentag: (name, attributes) => open(state, name, attributes),
      onclosetag: (name) => close(state, name),
      ontext: (text) => addText(state, text),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.end(start > 0 ? html.slice(start) : html);
  } catch (error) {
    // Thrown once the main element has closed: the rest of the page is not content.
    if (error !== MAIN_ENDED) throw error;
  }
  flush(state);
  const result: HtmlMarkdown = { markdown: state.writer.text() };
  const declared = collapseSpace(state.titles.metaTitle ?? state.titles.title ?? '');
  if (declared !== '') result.declaredTitle = declared;
  if (state.firstHeading !== undefined) result.firstHeading = state.firstHeading;
  return result;
}

const MAIN_ENDED = Symbol('main ended');

/**
 * Deepest nesting read. htmlparser2 keeps its open elements with `unshift`, which grows
 * quadratically past some ten thousand (40,000 nested divs: 8 s); real pages nest a few dozen deep.
 */
export const MAX_HTML_DEPTH = 2000;

/** Thrown for a page nested deeper than {@link MAX_HTML_DEPTH}: the reader makes it a problem of the page. */
export class HtmlTooDeepError extends Error {
  constructor() {
    super(`the page nests elements more than ${MAX_HTML_DEPTH} deep`);
    this.name = 'HtmlTooDeepError';
  }
}

function createState(region: MainRegion | 'all') {
  return {
    region,
    writer: createMarkdownWriter() as MarkdownWriter,
    stack: [] as Frame[],
    skipDepth: 0,
    /** Inside the main region (always, for 'all'); `done` once it has closed. */
    inMain: region === 'all',
    /** Whether a class list names site chrome, decided once per class list (see `isSkippedElement`). */
    chromeClasses: new Map<string, boolean>(),
    inline: '',
    /** List item prefix waiting for the item's first text, and the list nesting. */
    itemPrefix: '',
    lists: [] as Array<{ ordered: boolean; count: number }>,
    /** The heading being read: its level, its element (`h2`, or `dt`: a definition term is a heading one below the last), its text. */
    heading: 0,
    headingName: '',
    headingText: '',
    lastLevel: 1,
    /** The writer's line count after the last definition term was written (-1 before any). */
    termEnd: -1,
    firstHeading: undefined as string | undefined,
    pre: undefined as string | undefined,
    preLanguage: '',
    table: undefined as { rows: string[][]; cell: string | undefined; depth: number } | undefined,
    /** Layout tables open around the text (their cells are blocks, their icons no text). */
    layoutTables: 0,
    linkStart: -1,
    /** The target of the link being read, kept as a markdown link when it closes ('' for none: an anchor on the page, a script). */
    linkHref: '',
    titles: { inTitle: false } as PageTitles,
  };
}
type State = ReturnType<typeof createState>;

function open(state: State, name: string, attributes: Record<string, string>): void {
  const frame: Frame = { name, skip: false, main: false };
  if (isAdmonition(attributes)) frame.admonition = true;
  if (state.stack.push(frame) > MAX_HTML_DEPTH) throw new HtmlTooDeepError();
  titleTagOpened(state.titles, name, attributes);
  if (state.skipDepth > 0) return;
  if (!state.inMain) {
    if (state.region !== 'all' && isMainElement(state.region, name, attributes)) {
      frame.main = true;
      state.inMain = true;
    }
    return;
  }
  // Inside a code block (its highlighting spans) nothing is left out; a class list is judged once per page.
  if (state.pre === undefined && isSkippedElement(name, attributes, true, state.chromeClasses)) {
    frame.skip = true;
    state.skipDepth += 1;
    return;
  }
  if (name === 'table' && state.table === undefined && state.pre === undefined && isLayoutTable(attributes, state.stack.at(-2)?.admonition === true)) {
    frame.layout = true;
    state.layoutTables += 1;
    flush(state);
    return;
  }
  openContent(state, name, attributes);
}

function openContent(state: State, name: string, attributes: Record<string, string>): void {
  if (state.pre !== undefined) {
    if (name === 'code' && state.preLanguage === '') state.preLanguage = codeLanguage(attributes);
    return;
  }
  const table = state.table;
  if (table !== undefined) {
    if (name === 'table') table.depth += 1;
    else if (table.depth === 1 && name === 'tr') table.rows.push([]);
    else if (table.depth === 1 && (name === 'td' || name === 'th')) table.cell = '';
    // A line break or a block inside a cell (paragraphs, list items) keeps its words apart.
    else if ((name === 'br' || BLOCKS.has(name)) && table.cell !== undefined) table.cell += ' ';
    return;
  }
  const level = HEADINGS[name] ?? (name === 'dt' ? Math.min(6, state.lastLevel + 1) : undefined);
  if (level !== undefined) {
    flush(state);
    state.heading = level;
    state.headingName = name;
    state.headingText = '';
  } else if (name === 'pre') {
    flush(state);
    state.pre = '';
    state.preLanguage = codeLanguage(attributes);
  } else if (name === 'table') {
    flush(state);
    state.table = { rows: [], cell: undefined, depth: 1 };
  } else if (BLOCKS.has(name) || (state.layoutTables > 0 && LAYOUT_PARTS.has(name))) {
    flush(state);
    if (name === 'ul' || name === 'ol') state.lists.push({ ordered: name === 'ol', count: 0 });
    if (name === 'li') {
      const list = state.lists.at(-1);
      if (list) list.count += 1;
      state.itemPrefix = list?.ordered ? `${list.count}. ` : '- ';
    }
  } else if (name === 'br') appendInline(state, ' ');
  else if (name === 'code' || name === 'kbd' || name === 'tt') appendInline(state, '`');
  else if (name === 'a') {
    state.linkStart = state.heading > 0 ? -1 : state.inline.length;
    state.linkHref = keptHref(attributes.href);
  }
  else if (name === 'img' && attributes.alt && state.layoutTables === 0) appendInline(state, ` ${attributes.alt} `);
}

function close(state: State, name: string): void {
  // htmlparser2 closes implied elements itself; pop up to the matching frame.
  let at = state.stack.length - 1;
  while (at >= 0 && state.stack[at]!.name !== name) at -= 1;
  if (at < 0) return;
  while (state.stack.length > at) closeFrame(state, state.stack.pop()!);
}

function closeFrame(state: State, frame: Frame): void {
  const { name } = frame;
  if (name === 'title') state.titles.inTitle = false;
  if (frame.skip) {
    state.skipDepth -= 1;
    return;
  }
  if (state.skipDepth > 0 || !state.inMain) return;
  if (frame.main) throw MAIN_ENDED;
  if (frame.layout === true) {
    state.layoutTables -= 1;
    flush(state);
    return;
  }
  closeContent(state, name);
}

function closeContent(state: State, name: string): void {
  if (state.pre !== undefined) {
    if (name !== 'pre') return;
    state.writer.code(state.pre, state.preLanguage);
    state.pre = undefined;
    return;
  }
  const table = state.table;
  if (table !== undefined) {
    if (name === 'table' && --table.depth === 0) {
      if (table.rows.some((row) => row.length > 0)) state.writer.table(table.rows.filter((row) => row.length > 0));
      state.table = undefined;
    } else if (table.depth === 1 && (name === 'td' || name === 'th') && table.cell !== undefined) {
      (table.rows.at(-1) ?? table.rows[table.rows.push([]) - 1]!).push(table.cell);
      table.cell = undefined;
    }
    return;
  }
  if (name === state.headingName && state.heading > 0) {
    const text = collapseSpace(state.headingText);
    if (name === 'dt') {
      writeTerm(state.writer, state.heading, text, state.termEnd === state.writer.lineCount());
      if (text !== '') state.termEnd = state.writer.lineCount();
    } else {
      state.writer.heading(state.heading, text);
      state.lastLevel = state.heading;
    }
    if (state.heading === 1 && state.firstHeading === undefined && text !== '') state.firstHeading = text.replace(/`/g, '');
    state.heading = 0;
  } else if (BLOCKS.has(name) || (state.layoutTables > 0 && LAYOUT_PARTS.has(name))) {
    flush(state);
    if (name === 'ul' || name === 'ol') state.lists.pop();
  } else if (name === 'code' || name === 'kbd' || name === 'tt') appendInline(state, '`');
  else if (name === 'a' && state.linkStart >= 0) {
    const text = state.inline.slice(state.linkStart);
    if (CHROME_LINK_TEXT.test(text)) state.inline = state.inline.slice(0, state.linkStart);
    else if (state.linkHref !== '') state.inline = state.inline.slice(0, state.linkStart) + markdownLink(text, state.linkHref);
    state.linkStart = -1;
  }
}

function addText(state: State, text: string): void {
  titleText(state.titles, text);
  if (state.skipDepth > 0 || !state.inMain) return;
  if (state.pre !== undefined) state.pre += text;
  else if (state.table !== undefined) {
    if (state.table.cell !== undefined) state.table.cell += text;
  } else appendInline(state, text);
}

function appendInline(state: State, text: string): void {
  if (state.heading > 0) state.headingText += text;
  else state.inline += text;
}

/** Writes the paragraph (or list item) collected so far. */
function flush(state: State): void {
  const text = state.inline;
  state.inline = '';
  state.linkStart = -1;
  if (!/[^\s`]/.test(text)) return;
  const depth = Math.max(0, state.lists.length - 1);
  if (state.itemPrefix !== '') {
    state.writer.paragraph(text, state.itemPrefix, depth * 3);
    state.itemPrefix = '';
  } else state.writer.paragraph(text, '', state.lists.length > 0 ? depth * 3 + 3 : 0);
}

/**
 * The target of a link kept in the markdown, as a markdown page keeps it (the offline planner
 * follows a page's links to the pages they name): '' for none, an anchor on the same page
 * (`#options`) and a script.
 */
function keptHref(href: string | undefined): string {
  const target = href?.trim() ?? '';
  return target === '' || target.startsWith('#') || /^(?:javascript|data|vbscript):/i.test(target) ? '' : target;
}

/** `class="language-js"` (or `lang-js`, `highlight-js`, or pandoc's `sourceCode js`) -> `js`. */
function codeLanguage(attributes: Record<string, string>): string {
  const classes = attributes.class ?? '';
  return (/(?:language|lang|highlight)-([\w+-]+)/.exec(classes) ?? /(?:^|\s)sourceCode\s+([\w+-]+)/.exec(classes))?.[1] ?? '';
}
