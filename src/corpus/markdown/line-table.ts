/** Where each line of a text starts and ends, to turn a parser's line ranges into offsets. */
export interface LineTable {
  /** Number of lines (a text ending with `\n` has an empty last line). */
  count: number;
  /** Offset of the first character of line `line` (0-based). */
  start(line: number): number;
  /** Whether line `line` holds only spaces and tabs. */
  isBlank(line: number): boolean;
  /** Whether line `line`, after its indentation, starts with `prefix`. */
  startsWith(line: number, prefix: string): boolean;
  /**
   * The span of lines `[from, to)` (0-based lines) without the blank lines around them: from
   * the first character after the indentation of the first non-blank line (or its very start,
   * with `keepIndent`) to the end of the last one, trailing spaces included (as mdast's
   * positions have them); `startLine`/`endLine` are the 0-based lines of both ends.
   * `undefined` when every line is blank.
   */
  span(from: number, to: number, keepIndent: boolean): { start: number; end: number; startLine: number; endLine: number } | undefined;
}

/**
 * Indexes the line starts of a text (lines end at `\n`) in one pass.
 *
 * @example
 * createLineTable('a\n\n  b  \n').span(0, 3, false); // { start: 0, end: 8, startLine: 0, endLine: 2 }
 * createLineTable('a\n\n  b  \n').span(1, 4, false); // { start: 5, end: 8, startLine: 2, endLine: 2 }
 */
export function createLineTable(text: string): LineTable {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  const lineEnd = (line: number) => (line + 1 < starts.length ? starts[line + 1]! - 1 : text.length);
  /** Offset after the last character of the line that is not a space or a tab. */
  const contentEnd = (line: number) => {
    let end = lineEnd(line);
    const start = starts[line]!;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    return end;
  };
  const isBlank = (line: number) => contentEnd(line) === starts[line]!;
  return {
    count: starts.length,
    start: (line) => starts[line]!,
    isBlank,
    startsWith(line, prefix) {
      let at = starts[line]!;
      while (isSpace(text.charCodeAt(at))) at++;
      return text.startsWith(prefix, at);
    },
    span(from, to, keepIndent) {
      let last = Math.min(to, starts.length) - 1;
      while (last >= from && isBlank(last)) last--;
      if (last < from) return undefined;
      let first = from;
      while (isBlank(first)) first++;
      let start = starts[first]!;
      if (!keepIndent) while (isSpace(text.charCodeAt(start))) start++;
      return { start, end: lineEnd(last), startLine: first, endLine: last };
    },
  };
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
