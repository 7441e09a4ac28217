/**
 * Where a passage is, as a reader finds it in the file: `guide.md:12-18` for a page read by
 * lines, `handbook.pdf p.143` (or `p.143-144`) for a PDF, whose chunks hold pages in place of
 * lines, and the file alone for a page converted to markdown (HTML, Word, AsciiDoc), whose line
 * numbers are those of the conversion (the heading path beside it says where).
 *
 * @example
 * locatorText({ sourcePath: 'handbook.pdf', startLine: 3, endLine: 3 }); // 'handbook.pdf p.3'
 * locatorText({ sourcePath: 'guide.md', startLine: 12, endLine: 18 }); // 'guide.md:12-18'
 */
export function locatorText(place: { sourcePath: string; startLine: number; endLine: number }): string {
  const { sourcePath, startLine, endLine } = place;
  if (isPaged(sourcePath)) return `${sourcePath} p.${startLine === endLine ? startLine : `${startLine}-${endLine}`}`;
  if (/\.(?:html?|docx|adoc|asciidoc)$/i.test(sourcePath)) return sourcePath;
  return `${sourcePath}:${startLine}-${endLine}`;
}

/**
 * Whether a source file's chunks hold pages in `startLine`/`endLine` (a PDF) rather than lines.
 *
 * @example
 * isPaged('manuals/handbook.PDF'); // true
 */
export function isPaged(sourcePath: string): boolean {
  return /\.pdf$/i.test(sourcePath);
}
