/**
 * What a docs folder holds, said when it has no page Atlas reads: the files by extension, most
 * first, then what became of the pages among them.
 *
 * @example
 * foundText({ '.rst': 530, '.png': 3 }, 0, 0, 0); // 'found 530 .rst files and 3 .png files'
 * foundText({ '.html': 530 }, 530, 0, 530); // 'found 530 .html files, 0 pages Atlas reads (530 left out as the notes above say)'
 */
export function foundText(extensions: Record<string, number>, pages: number, invalid: number, leftOut: number): string {
  const counts = Object.entries(extensions).sort(([leftName, left], [rightName, right]) => right - left || (leftName < rightName ? -1 : 1));
  if (counts.length === 0) return 'the folder is empty';
  const shown = counts.slice(0, 4).map(([extension, count]) => `${count} ${extension === '' ? 'file' : `${extension} file`}${count === 1 ? '' : 's'} ${extension === '' ? 'without an extension' : ''}`.trim());
  const more = counts.length > 4 ? ` and ${counts.slice(4).reduce((sum, [, count]) => sum + count, 0)} other files` : '';
  const files = `found ${shown.length > 1 && more === '' ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown.join(', ')}${more}`;
  if (pages === 0) return files;
  const why = [invalid > 0 ? `${invalid} invalid` : '', leftOut > 0 ? `${leftOut} left out as the notes above say` : ''].filter((part) => part !== '');
  return `${files}, 0 pages Atlas reads${why.length > 0 ? ` (${why.join(', ')})` : ''}`;
}
