// The page's document viewer: one page of the docs (GET /v1/docs/:docId, its chunks in order with
// their source lines) in a dialog, the cited lines marked and scrolled to. Document text is
// untrusted: it is set with textContent only, never as HTML.

/** `"69-92"` as `{ start: 69, end: 92 }`; undefined when it is not a range of lines. */
export function parseLines(text) {
  const match = /^(\d+)-(\d+)$/.exec(text ?? '');
  return match ? { start: Number(match[1]), end: Number(match[2]) } : undefined;
}

/**
 * Fills the viewer with a page (`body` of GET /v1/docs/:docId): its title and file, then each
 * chunk under its heading, each line numbered by its source line when the chunk's text maps onto
 * its lines (counted back from the chunk's last line); the lines in `lines` and the chunks holding
 * them are marked. Returns the first marked element (to scroll to), or undefined.
 */
export function renderDoc(view, body, lines) {
  view.title.textContent = body.doc.title;
  view.source.textContent = lines ? `${body.doc.sourcePath}, lines ${lines.start}-${lines.end}` : body.doc.sourcePath;
  const sections = body.chunks.map((chunk) => chunkSection(chunk, lines));
  view.body.replaceChildren(...sections);
  return view.body.querySelector('.cited-line') ?? view.body.querySelector('.doc-chunk.cited') ?? undefined;
}

function chunkSection(chunk, lines) {
  const section = document.createElement('section');
  section.className = 'doc-chunk';
  section.dataset.chunkId = chunk.chunkId;
  const cited = lines !== undefined && chunk.startLine <= lines.end && chunk.endLine >= lines.start;
  if (cited) section.classList.add('cited');
  const heading = document.createElement('h3');
  heading.textContent = chunk.headingPath.length > 1 ? chunk.headingPath.slice(1).join(' › ') : chunk.heading;
  const where = document.createElement('p');
  where.className = 'muted';
  where.textContent = `lines ${chunk.startLine}-${chunk.endLine}`;
  const text = document.createElement('div');
  text.className = 'doc-text';
  const textLines = chunk.text.split('\n');
  const first = chunk.endLine - textLines.length + 1;
  // A chunk whose text is longer than its lines (a table header repeated) gets no line numbers.
  const numbered = first >= chunk.startLine;
  textLines.forEach((content, offset) => {
    const line = document.createElement('span');
    line.className = 'line';
    line.dir = 'auto';
    line.textContent = content === '' ? ' ' : content;
    if (numbered) {
      const number = first + offset;
      line.dataset.line = String(number);
      if (cited && number >= lines.start && number <= lines.end) line.classList.add('cited-line');
    }
    text.append(line);
  });
  section.append(heading, where, text);
  return section;
}
