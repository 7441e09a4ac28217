/** A fenced code block right after a sentence (blank lines between allowed): its fence and its code. */
const CODE_BLOCK_AFTER = /^[ \t]*\n(?:[ \t]*\n)*[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*(?=\n|$)/;

/** VitePress's (Shiki's) diff marks in a code line. */
const DIFF_MARK = /\[!code (?:\+\+|--)\]/;

/** Lines an entry of a code block has at most (an option, its description wrapped over lines). */
const MAX_ENTRY_LINES = 3;
/** Comment lines right above an entry it keeps at most, the nearest (a doc comment of two lines). */
const MAX_COMMENT_LINES = 4;

/**
 * The fenced code block right after `sentence` in the first of `texts` that writes the sentence
 * before one: its code, and the sentence with the block as the text writes them (the quote).
 *
 * @example
 * codeAfter(['Run it:\n\n```sh\nnpx atlas ingest docs\n```'], 'Run it:');
 * // { code: 'npx atlas ingest docs', quote: 'Run it:\n\n```sh\nnpx atlas ingest docs\n```' }
 */
export function codeAfter(texts: readonly string[], sentence: string): { code: string; quote: string } | undefined {
  // The sentence as the text writes it: its words may be wrapped over lines.
  const written = new RegExp(sentence.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  for (const text of texts) {
    const at = written.exec(text);
    if (at === null) continue;
    const end = at.index + at[0].length;
    const block = CODE_BLOCK_AFTER.exec(text.slice(end));
    if (block === null) continue;
    return { code: block[2]!, quote: text.slice(at.index, end + block[0].length) };
  }
  return undefined;
}

/**
 * Whether code is a diff (VitePress's `// [!code ++]` / `// [!code --]` marks): it shows two
 * versions, not one value to quote.
 *
 * @example
 * showsDiff("timeout: 5000, // [!code --]\ntimeout: 10_000, // [!code ++]"); // true
 */
export function showsDiff(code: string): boolean {
  return DIFF_MARK.test(code);
}

/** A comment line of code: `//`, `#`, `-- `, or a line of a block comment (opening `/*`, or `*`). */
const COMMENT_LINE = /^\s*(?:\/\/|#|--\s|\/\*|\*)/;

/** A line that opens a block: it ends with a colon or an opening bracket. */
const OPENS_BLOCK = /[:{[(]\s*$/;

/**
 * The entries of a code block: each line with its continuation, the lines under it indented
 * deeper (for a line laid out in columns, as a `--help` listing writes an option and its
 * description, the lines indented to its second column: the description's wrapped lines), cut at
 * {@link MAX_ENTRY_LINES} lines; a line that opens a block ("Options:", "function f() {") alone,
 * the lines under it entries of their own. The comment lines right above an entry belong to it
 * (what they say is said of it), the nearest {@link MAX_COMMENT_LINES}. Blank lines are no entries.
 *
 * @example
 * codeEntries('Options:\n  -j, --jobs      number of jobs\n  --poll-interval  how long to wait\n                   in milliseconds');
 * // ['Options:', '  -j, --jobs      number of jobs', '  --poll-interval  how long to wait\n                   in milliseconds']
 */
export function codeEntries(code: string): string[] {
  const lines = code.split('\n');
  const indent = (line: string) => line.length - line.trimStart().length;
  const entries: string[] = [];
  let comments: string[] = [];
  for (let at = 0; at < lines.length; ) {
    const line = lines[at]!;
    if (line.trim() === '') {
      comments = [];
      at += 1;
      continue;
    }
    if (COMMENT_LINE.test(line)) {
      comments.push(line);
      at += 1;
      continue;
    }
    let end = at + 1;
    // A line that opens a block ("Options:", "function f() {") is an entry alone; the lines under it are entries of their own.
    if (!OPENS_BLOCK.test(line)) {
      // A line laid out in columns ("-j, --jobs    number of jobs") continues on lines indented to its second column.
      const gap = /\S( {2,})\S/.exec(line.trimEnd());
      const continues = (next: string) => (gap === null ? indent(next) > indent(line) : indent(next) >= gap.index + 1 + gap[1]!.length);
      while (end < lines.length && lines[end]!.trim() !== '' && continues(lines[end]!)) end += 1;
    }
    entries.push([...comments.slice(-MAX_COMMENT_LINES), ...lines.slice(at, Math.min(end, at + MAX_ENTRY_LINES))].join('\n'));
    comments = [];
    at = end;
  }
  return entries;
}
