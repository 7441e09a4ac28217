import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';
import { closingTagNames, inlineHtmlText, isPlaceholderTag } from './html.ts';
import { findInlineHtml } from './inline-html.ts';

/**
 * A line of documentation-site syntax that wraps content without being content: a container
 * fence of VitePress or Docusaurus (`::: tip Title`, `:::note[Title]`, `:::`), a line of
 * GitBook/Liquid tags (`{% hint style="info" %}`, `{% tab title="npm" %}`, `{% endtabs %}`), or
 * the title line of a tab inside a `::: tabs` container (`== npm`, vitepress-plugin-tabs).
 */
export interface Directive {
  /** `open` starts a container, `close` ends one, `tag` does neither (a Liquid tag line, a tab title). */
  role: 'open' | 'close' | 'tag';
  /**
   * For a container's opening and closing: `:::` (the fence, whose length a closing fence must
   * reach) or `{% hint %}`.
   */
  fence?: string;
  /**
   * For an opening, what the container holds: a `callout` (tip, warning, details, a GitBook
   * hint), whose blocks the chunker keeps together; a `code-group` (tabs of code fences, which
   * may be cut between); `tabs`, whose `== title` lines name its tabs; or `other` (`::: v-pre`).
   */
  kind?: 'callout' | 'code-group' | 'tabs' | 'other';
  /** The line the reader sees instead, when any: a title (`Title:`), or a callout's kind (`Warning:`). */
  label?: string;
}

/** Callout kinds whose untitled box the sites title with their name ("TIP", "Warning"). */
const CALLOUT_KINDS = new Set(['note', 'tip', 'info', 'warning', 'danger', 'caution', 'important', 'details', 'success']);

/** `::: name rest`, `::: {.name}` (Pandoc) or a closing `:::`. */
const CONTAINER = /^(:{3,})[ \t]*(?:([A-Za-z][\w-]*)(.*)|\{[ \t]*\.([A-Za-z][\w-]*)[^{}]*\}[ \t]*)?$/;

/** A Liquid tag, `{% name args %}` (`{%-`/`-%}` trim whitespace): on one line, at most 500 characters. */
const LIQUID_TAG = /\{%-?[ \t]*([A-Za-z][\w-]*)([^\n]{0,500}?)-?%\}/g;

/** The title line of a tab in a `::: tabs` container: `== npm` (`===` in a `::::` container). */
const TAB_TITLE = /^={2,}[ \t]+(\S.*?)[ \t]*$/;

/**
 * Reads a line (without its indentation) as a directive, or `undefined` when it is text. A tab
 * title (`== npm`) is a directive only inside a `::: tabs` container: pass `inTabs`.
 *
 * @example
 * readDirective('::: warning'); // { role: 'open', fence: ':::', kind: 'callout', label: 'Warning:' }
 * readDirective(':::tip[Before you start]'); // { role: 'open', fence: ':::', kind: 'callout', label: 'Before you start:' }
 * readDirective('{% tab title="npm" %}'); // { role: 'tag', label: 'npm:' }
 * readDirective('{% endhint %}'); // { role: 'close', fence: '{% hint %}' }
 * readDirective('== yarn', true); // { role: 'tag', label: 'yarn:' }
 * readDirective('Use ::: as a separator.'); // undefined
 */
export function readDirective(line: string, inTabs = false): Directive | undefined {
  const trimmed = line.trimEnd();
  if (trimmed.startsWith(':::')) return readContainer(trimmed);
  if (trimmed.startsWith('{%') && trimmed.replace(LIQUID_TAG, '').trim() === '') return readLiquidLine(trimmed);
  const tab = inTabs && trimmed.startsWith('==') ? TAB_TITLE.exec(trimmed) : null;
  return tab ? { role: 'tag', label: asLabel(tab[1]!) } : undefined;
}

function readContainer(line: string): Directive | undefined {
  const match = CONTAINER.exec(line);
  if (!match) return undefined;
  const [, fence, name, rest = '', className] = match;
  if (name === undefined && className === undefined) return { role: 'close', fence: fence! };
  const kind = (name ?? className!).toLowerCase();
  if (kind === 'code-group' || kind === 'tabs') return { role: 'open', fence: fence!, kind };
  if (!CALLOUT_KINDS.has(kind)) return { role: 'open', fence: fence!, kind: 'other' };
  // `:::tip[Title]` (Docusaurus 3), `::: tip Title` (VitePress, Docusaurus 2); `{open}`-style attributes dropped.
  const bracketed = /^\[(.*)\]/.exec(rest.trim());
  const title = withoutTags((bracketed ? bracketed[1]! : rest).replace(/\{[^{}]*\}\s*$/, '').trim());
  return { role: 'open', fence: fence!, kind: 'callout', label: asLabel(title !== '' ? title : kind[0]!.toUpperCase() + kind.slice(1)) };
}

/** A line of Liquid tags: a hint opens or closes a callout; a `title="..."` (tabs, code titles) is a label. */
function readLiquidLine(line: string): Directive {
  const tags = [...line.matchAll(LIQUID_TAG)];
  if (tags.length === 1) {
    const name = tags[0]![1]!.toLowerCase();
    if (name === 'hint') return { role: 'open', fence: '{% hint %}', kind: 'callout' };
    if (name === 'endhint') return { role: 'close', fence: '{% hint %}' };
  }
  const titles = tags.map((tag) => /\btitle\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(tag[2]!)).filter((title) => title !== null);
  const title = titles.map((found) => (found[1] ?? found[2]!).trim()).filter((text) => text !== '').join(' ');
  return { role: 'tag', ...(title === '' ? {} : { label: asLabel(title) }) };
}

/** A title's text: its inline HTML and components dropped (`WARNING <Version>3.2.0</Version>` -> `WARNING 3.2.0`), placeholders kept. */
function withoutTags(title: string): string {
  if (!title.includes('<')) return title;
  const closed = closingTagNames(title);
  let text = '';
  let at = 0;
  for (const span of findInlineHtml(title, 0, title.length)) {
    const tag = title.slice(span.start, span.end);
    text += title.slice(at, span.start) + (isPlaceholderTag(tag, closed) ? tag : inlineHtmlText(tag).replace(/\n/g, ' '));
    at = span.end;
  }
  return (text + title.slice(at)).replace(/\s+/g, ' ').trim();
}

/** A label ends with a colon, so it reads as introducing what follows ("Warning: Do not ..."). */
function asLabel(text: string): string {
  return /[.:!?]$/.test(text) ? text : `${text}:`;
}

/** A container open at the line being parsed. */
interface OpenContainer {
  fence: string;
  kind: NonNullable<Directive['kind']>;
  /** 0-based line of its opening. */
  line: number;
}

/**
 * What the directive rule learns of a page while markdown-it parses it (its `env`): the
 * containers open at the line being parsed, and once the parse is done, which containers close
 * where and which lines lie inside a `::: tabs` container.
 */
export interface DirectiveEnv {
  /** Open containers by syntax (`:` for `:::` fences, `{` for GitBook hints), innermost last. */
  open: { ':': OpenContainer[]; '{': OpenContainer[] };
  /** How many open containers are `::: tabs`. */
  tabsOpen: number;
  /** 0-based line of each container's opening -> line of its closing. */
  closings: Map<number, number>;
  /** Lines `[from, to)` of each `::: tabs` container (`to` is the page's end when it is never closed). */
  tabs: [number, number][];
}

/**
 * A fresh {@link DirectiveEnv}, to pass as markdown-it's `env` for one parse.
 *
 * @example
 * const env = createDirectiveEnv();
 * parser.parse(body, env);
 * const inTabs = tabLines(env, lineCount);
 */
export function createDirectiveEnv(): DirectiveEnv {
  return { open: { ':': [], '{': [] }, tabsOpen: 0, closings: new Map(), tabs: [] };
}

/**
 * After the parse: whether each 0-based line lies inside a `::: tabs` container (one never closed
 * runs to the end of the page). One pass over the lines and the containers.
 */
export function tabLines(env: DirectiveEnv, lineCount: number): (line: number) => boolean {
  const ranges = [...env.tabs, ...env.open[':'].filter((container) => container.kind === 'tabs').map((container): [number, number] => [container.line, lineCount])];
  if (ranges.length === 0) return () => false;
  const depth = new Int32Array(lineCount + 1);
  for (const [from, to] of ranges) {
    depth[Math.min(from + 1, lineCount)]! += 1;
    depth[Math.min(to, lineCount)]! -= 1;
  }
  for (let line = 1; line <= lineCount; line++) depth[line]! += depth[line - 1]!;
  return (line) => line >= 0 && line < lineCount && depth[line]! > 0;
}

/**
 * The markdown-it block rule for directive lines: a line {@link readDirective} reads becomes a
 * `directive` token of its own (its `meta` the directive, its `content` the line), so the blocks
 * around it parse as they would without it: `::: warning\nText\n:::` is a paragraph "Text"
 * between two directives. Registered with the rules a directive may interrupt (a paragraph, a
 * list, a quote, a table), as markdown-it-container does; never inside code (fences and indented
 * code come first). It records in the parse's `env` (a {@link DirectiveEnv}) which container
 * each closing line closes: the innermost open one of its syntax, when the fence is at least as
 * long (`::::` closes `:::`, not the reverse: a shorter one closes nothing, and is dropped).
 */
export function directiveRule(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine]! - state.blkIndent >= 4) return false;
  const start = state.bMarks[startLine]! + state.tShift[startLine]!;
  const first = state.src.charCodeAt(start);
  if (first !== 0x3a && first !== 0x7b && first !== 0x3d) return false;
  const env = state.env as DirectiveEnv;
  const line = state.src.slice(start, state.eMarks[startLine]);
  const directive = readDirective(line, first === 0x3d && env.tabsOpen > 0);
  if (directive === undefined) return false;
  if (silent) return true;
  record(env, directive, startLine);
  const token = state.push('directive', '', 0);
  token.map = [startLine, startLine + 1];
  token.content = line;
  token.meta = directive;
  state.line = startLine + 1;
  return true;
}

/** Keeps the open containers of a parse up to date with one directive: O(1) a line. */
function record(env: DirectiveEnv, directive: Directive, line: number): void {
  if (directive.fence === undefined) return;
  const open = env.open[directive.fence[0] === ':' ? ':' : '{'];
  if (directive.role === 'open') {
    open.push({ fence: directive.fence, kind: directive.kind!, line });
    if (directive.kind === 'tabs') env.tabsOpen++;
    return;
  }
  // The innermost open container of the same syntax; a fence too short to close it closes nothing.
  const container = open[open.length - 1];
  if (container === undefined || directive.fence.length < container.fence.length) return;
  open.pop();
  env.closings.set(container.line, line);
  if (container.kind === 'tabs') {
    env.tabs.push([container.line, line]);
    env.tabsOpen--;
  }
}

/**
 * The lines of a text with its directive lines read as the reader sees them: each replaced by its
 * label, or left out. For the text of an HTML block, which swallows the lines up to the next
 * blank line, directive lines included (`</center>\n== right\n<center>`).
 *
 * @example
 * withDirectivesRead('== right\nText\n:::', true); // 'right:\nText'
 */
export function withDirectivesRead(text: string, tabs: boolean): string {
  if (!/^\s*(?::::|\{%|==)/m.test(text)) return text;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const directive = readDirective(line.trim(), tabs);
    if (directive === undefined) lines.push(line);
    else if (directive.label !== undefined) lines.push(directive.label);
  }
  return lines.join('\n');
}
