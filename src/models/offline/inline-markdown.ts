/**
 * Inline markdown rendered as the text a reader sees, keeping what they would copy: code spans
 * verbatim, placeholders in angle brackets, `*` and `_` that are not emphasis. Pure functions.
 */
import { closingTagNames, decodeEntities, isPlaceholderTag } from '../../corpus/markdown/html.ts';
import { htmlEnd } from '../../corpus/markdown/inline-html.ts';

/** A piece of rendered text: `text` is final, except that emphasis delimiters are resolved last. */
type Node =
  | { kind: 'text'; value: string }
  /** A code span, kept as written (backticks included); only its line breaks become spaces. */
  | { kind: 'code'; value: string }
  /** A run of `*` or `_`: `left` of its `length` characters are text, the others paired as emphasis markers. */
  | { kind: 'delimiter'; char: string; length: number; left: number; canOpen: boolean; canClose: boolean };

/** Tags that separate words (a line break or a block): a space, where other tags leave nothing. */
const SEPARATING_TAG = /^<\/?(?:br|p|div|li|tr|td|th|dd|dt|h[1-6]|blockquote|hr|pre|table|ul|ol)\b/i;

/** An autolink, `<https://example.com>` or `<me@example.com>`: the address is text. */
const AUTOLINK = /<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>/.source;

/**
 * Inline markdown as plain text: code spans kept as written (`` `maxPoolSize` ``); links and
 * images as their label or alt text; HTML tags, components and comments removed (`<br>` and
 * block tags leave a space) but placeholders (`<queue>`, `<your-token>`, see
 * `isPlaceholderTag`) kept; emphasis markers removed where CommonMark pairs them, while a `*` or
 * `_` inside a word or number (`65536*1024`, `max_pool_size`) and any unpaired one stays;
 * backslash escapes and HTML entities rendered; footnote references dropped; whitespace
 * collapsed outside code spans.
 *
 * @example
 * renderInline('Set **`max_pool_size`** to `65536*1024` for <queue>; see [the guide](g.md)'); // 'Set `max_pool_size` to `65536*1024` for <queue>; see the guide'
 */
export function renderInline(text: string, closed: ReadonlySet<string> = closingTagNames(text)): string {
  const nodes = scan(text, closed, pairSpans(text));
  pairEmphasis(nodes);
  const pieces: string[] = [];
  let endsWithSpace = false;
  for (const node of nodes) {
    const piece = node.kind === 'code' ? node.value.replace(/\n/g, ' ') : node.kind === 'text' ? node.value : node.char.repeat(node.left);
    if (piece === '') continue;
    pieces.push(endsWithSpace && piece.startsWith(' ') ? piece.slice(1) : piece);
    endsWithSpace = piece.endsWith(' ');
  }
  return pieces.join('').trim();
}

/** The nodes of a text, in order: text (entities decoded, whitespace collapsed), code spans and delimiter runs. */
function scan(text: string, closed: ReadonlySet<string>, spans: Spans): Node[] {
  const nodes: Node[] = [];
  let literal = '';
  const pushText = (value: string) => {
    if (literal !== '') nodes.push({ kind: 'text', value: decodeEntities(literal).replace(/\s+/g, ' ') });
    literal = '';
    if (value !== '') nodes.push({ kind: 'text', value });
  };
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '\\' && at + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[at + 1]!)) {
      // An escaped character is text: never a delimiter, a tag or a link.
      pushText(text[at + 1]!);
      at += 2;
    } else if (char === '`') {
      const end = spans.code.get(at);
      if (end === undefined) {
        const run = backtickRun(text, at);
        literal += text.slice(at, at + run);
        at += run;
      } else {
        pushText('');
        nodes.push({ kind: 'code', value: text.slice(at, end) });
        at = end;
      }
    } else if (char === '<') {
      at = scanAngle(text, at, closed, pushText, (value) => (literal += value));
    } else if (char === '[' || (char === '!' && text[at + 1] === '[')) {
      const link = readLink(text, at, spans);
      if (link === undefined) {
        literal += char;
        at += 1;
      } else {
        pushText(link.label === undefined ? '' : renderInline(link.label, closed));
        at = link.end;
      }
    } else if (char === '*' || char === '_') {
      let end = at;
      while (text[end] === char) end++;
      pushText('');
      nodes.push(delimiter(text, at, end));
      at = end;
    } else {
      literal += char;
      at += 1;
    }
  }
  pushText('');
  return nodes;
}

/**
 * What starts at a `<`: a comment (dropped), an autolink (its address), a tag (dropped, a space
 * for a line break or block tag) unless it is a placeholder, or a plain `<`. Returns where the
 * scan goes on.
 */
function scanAngle(text: string, at: number, closed: ReadonlySet<string>, pushText: (value: string) => void, addLiteral: (value: string) => void): number {
  const pattern = new RegExp(AUTOLINK, 'y');
  pattern.lastIndex = at;
  const autolink = pattern.exec(text);
  if (autolink) {
    addLiteral(autolink[1]!);
    return at + autolink[0].length;
  }
  const end = htmlEnd(text, at);
  if (end === -1) {
    addLiteral('<');
    return at + 1;
  }
  const tag = text.slice(at, end);
  if (isPlaceholderTag(tag, closed)) addLiteral(tag);
  else pushText(SEPARATING_TAG.test(tag) ? ' ' : '');
  return end;
}

/** Where the code spans, brackets and parentheses of a text close, found once, so the scan stays linear. */
interface Spans {
  /** A code span's opening backtick -> the position after its closing run. */
  code: Map<number, number>;
  /** A `[` -> its `]` (nested brackets paired, code spans and escapes skipped). */
  brackets: Map<number, number>;
  /** A `(` -> its `)` on the same line (nested parentheses paired). */
  parentheses: Map<number, number>;
}

/** Length of the backtick run at `at`. */
function backtickRun(text: string, at: number): number {
  let end = at;
  while (text[end] === '`') end++;
  return end - at;
}

/**
 * The {@link Spans} of a text in one pass: a backtick run opens a code span closed by the next
 * run of as many backticks (each length's runs listed once and walked forward only), escapes
 * are skipped, brackets and parentheses pair as a stack does (parentheses within a line).
 */
function pairSpans(text: string): Spans {
  const spans: Spans = { code: new Map(), brackets: new Map(), parentheses: new Map() };
  const runs = new Map<number, number[]>();
  for (let at = text.indexOf('`'); at !== -1; ) {
    const length = backtickRun(text, at);
    const list = runs.get(length);
    if (list) list.push(at);
    else runs.set(length, [at]);
    at = text.indexOf('`', at + length);
  }
  const cursors = new Map<number, number>();
  const brackets: number[] = [];
  let parentheses: number[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '\\') at++;
    else if (char === '`') {
      const length = backtickRun(text, at);
      const list = runs.get(length) ?? [];
      let cursor = cursors.get(length) ?? 0;
      while (cursor < list.length && list[cursor]! <= at) cursor++;
      cursors.set(length, cursor);
      const closing = list[cursor];
      if (closing !== undefined) spans.code.set(at, closing + length);
      at = (closing === undefined ? at : closing) + length - 1;
    } else if (char === '[') brackets.push(at);
    else if (char === ']' && brackets.length > 0) spans.brackets.set(brackets.pop()!, at);
    else if (char === '(') parentheses.push(at);
    else if (char === ')' && parentheses.length > 0) spans.parentheses.set(parentheses.pop()!, at);
    else if (char === '\n') parentheses = [];
  }
  return spans;
}

/**
 * A link, image or reference at `at`: `[label](target)`, `![alt](src)`, `[label][ref]`,
 * `[label][]`; its label (none for a footnote reference `[^1]`) and where it ends. `undefined`
 * when the brackets are text.
 */
function readLink(text: string, at: number, spans: Spans): { label?: string; end: number } | undefined {
  const open = text[at] === '!' ? at + 1 : at;
  const close = spans.brackets.get(open);
  if (close === undefined) return undefined;
  const label = text.slice(open + 1, close);
  const next = text[close + 1];
  if (label.startsWith('^') && !/\s/.test(label) && next !== ':' && next !== '(') return { end: close + 1 };
  if (next === '(') {
    const end = spans.parentheses.get(close + 1);
    return end === undefined ? undefined : { label, end: end + 1 };
  }
  const reference = next === '[' ? spans.brackets.get(close + 1) : undefined;
  if (reference !== undefined && !text.slice(close + 2, reference).includes('[')) return { label, end: reference + 1 };
  return undefined;
}

/**
 * A delimiter run `[start, end)` of `*` or `_` and whether it can open or close emphasis, by
 * CommonMark's flanking rules; a lone one inside a word, or a run beside a digit
 * (`65536*1024`, `snake_case`, `a*b`), can do neither.
 */
function delimiter(text: string, start: number, end: number): Node {
  const char = text[start]!;
  const before = start === 0 ? ' ' : text[start - 1]!;
  const after = end >= text.length ? ' ' : text[end]!;
  const space = (value: string) => /\s/.test(value);
  const punctuation = (value: string) => /[\p{P}\p{S}]/u.test(value);
  const leftFlanking = !space(after) && (!punctuation(after) || space(before) || punctuation(before));
  const rightFlanking = !space(before) && (!punctuation(before) || space(after) || punctuation(after));
  const length = end - start;
  // `65536*1024`, `a*b`: a lone `*` in a word, or any run beside a digit, is text (CommonMark would pair `2*3*4`).
  const inWord = /[\p{L}\p{N}]/u.test(before) && /[\p{L}\p{N}]/u.test(after) && (length === 1 || /\p{N}/u.test(before + after));
  const base = { kind: 'delimiter' as const, char, length, left: length };
  if (inWord) return { ...base, canOpen: false, canClose: false };
  if (char === '*') return { ...base, canOpen: leftFlanking, canClose: rightFlanking };
  return { ...base, canOpen: leftFlanking && (!rightFlanking || punctuation(before)), canClose: rightFlanking && (!leftFlanking || punctuation(after)) };
}

/**
 * CommonMark's emphasis pairing, enough to tell markers from text: each closer takes the nearest
 * open run of its character before it (the rule of three respected), strong (2) or regular (1)
 * at a time; the runs between a pair can no longer pair. What a run has left is text. The open
 * runs are a stack, and a search that finds nothing sets the bottom the next closer of the same
 * kind stops at (CommonMark's openers_bottom), so the pairing stays linear.
 */
function pairEmphasis(nodes: Node[]): void {
  type Run = Extract<Node, { kind: 'delimiter' }>;
  const open: Run[] = [];
  const bottoms = new Map<string, number>();
  for (const node of nodes) {
    if (node.kind !== 'delimiter') continue;
    const closer = node;
    const kind = `${closer.char}${closer.length % 3}${closer.canOpen}`;
    while (closer.canClose && closer.left > 0) {
      let found = -1;
      for (let at = open.length - 1; at >= (bottoms.get(kind) ?? 0); at--) {
        const opener = open[at]!;
        const oddMatch = (opener.canClose || closer.canOpen) && (opener.length + closer.length) % 3 === 0 && !(opener.length % 3 === 0 && closer.length % 3 === 0);
        if (opener.char === closer.char && !oddMatch) {
          found = at;
          break;
        }
      }
      if (found === -1) {
        bottoms.set(kind, open.length);
        break;
      }
      const opener = open[found]!;
      const use = opener.left >= 2 && closer.left >= 2 ? 2 : 1;
      opener.left -= use;
      closer.left -= use;
      // The runs between the pair can no longer pair; an opener used up leaves the stack.
      open.length = opener.left === 0 ? found : found + 1;
      for (const [other, bottom] of bottoms) if (bottom > open.length) bottoms.set(other, open.length);
    }
    if (closer.canOpen && closer.left > 0) open.push(closer);
  }
}
