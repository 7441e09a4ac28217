/** One line of text on a page of {@link createTinyPdf}: its text, type size and baseline (from the bottom of a 400 x 600 page). */
export interface TinyPdfLine {
  text: string;
  size: number;
  y: number;
  /** Left edge (default 40). */
  x?: number;
  /** A link annotation over the text with this URI (`https://...`, `file:///...`). */
  link?: string;
  /** Set in Courier, a monospace font, instead of Helvetica. */
  monospace?: boolean;
  /**
   * A list item's text after a bullet drawn as a shape, as Chromium prints one: a filled square
   * before the text in a marked-content sequence tagged `Lbl` (a tagged PDF's list label), with no text.
   */
  listLabel?: boolean;
}

/** Options of {@link createTinyPdf}. */
export interface TinyPdfOptions {
  /** The document property Title. */
  title?: string;
  /** Adds an encryption dictionary that needs a password no one knows (pdf.js asks for one). */
  encrypted?: boolean;
}

/**
 * A small, valid PDF made in memory for tests: one Helvetica (or Courier) text line per
 * `TinyPdfLine` (with a link annotation over it when it has a `link`, after a drawn bullet when it
 * has a `listLabel`), pages of 400 x 600 points, an Info dictionary with the title; a page with no
 * lines has no text layer (as a scan). Text is in WinAnsiEncoding (`•` and `–` included). Real
 * files for the PDF reader without committing binaries.
 *
 * @example
 * const pdf = createTinyPdf([[{ text: 'Install', size: 18, y: 550 }, { text: 'Run it.', size: 10, y: 520 }]], { title: 'Guide' });
 */
export function createTinyPdf(pages: TinyPdfLine[][], options: TinyPdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const pageIds = pages.map((_, index) => 5 + index * 2);
  // Link annotations come after the pages: their ids, page by page.
  let nextAnnotation = 5 + pages.length * 2;
  const annotationIds = pages.map((lines) => lines.filter((line) => line.link !== undefined).map(() => nextAnnotation++));
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>');
  for (const [index, lines] of pages.entries()) {
    const stream = lines.map(drawLine).join('\n');
    const annots = annotationIds[index]!.length === 0 ? '' : ` /Annots [${annotationIds[index]!.map((id) => `${id} 0 R`).join(' ')}]`;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 600] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[index]! + 1} 0 R${annots} >>`);
    add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
  }
  for (const line of pages.flat()) {
    if (line.link === undefined) continue;
    // Helvetica's characters are about half the type size wide.
    const [x, width] = [line.x ?? 40, line.text.length * line.size * 0.5];
    add(`<< /Type /Annot /Subtype /Link /Rect [${x} ${line.y - 2} ${x + width} ${line.y + line.size}] /Border [0 0 0] /A << /S /URI /URI (${escapePdf(line.link)}) >> >>`);
  }
  const infoId = objects.length + 1;
  add(`<< /Title (${escapePdf(options.title ?? '')}) /Producer (atlas tiny-pdf) >>`);
  let encryptRef = '';
  if (options.encrypted) {
    const bytes = (seed: number) => `<${Array.from({ length: 32 }, (_, at) => ((at * 37 + seed) % 256).toString(16).padStart(2, '0')).join('')}>`;
    add(`<< /Filter /Standard /V 1 /R 2 /O ${bytes(11)} /U ${bytes(97)} /P -4 >>`);
    encryptRef = ` /Encrypt ${objects.length} 0 R /ID [<0123456789abcdef0123456789abcdef> <0123456789abcdef0123456789abcdef>]`;
  }
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (const [index, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(pdf, 'latin1');
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${infoId} 0 R${encryptRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** A line's text drawing operators; after a drawn bullet, each in its marked-content sequence (`Lbl`, then `LBody`). */
function drawLine(line: TinyPdfLine): string {
  const [x, font] = [line.x ?? 40, line.monospace ? '/F2' : '/F1'];
  const text = `BT ${font} ${line.size} Tf 1 0 0 1 ${x} ${line.y} Tm (${escapePdf(line.text)}) Tj ET`;
  if (!line.listLabel) return text;
  const side = line.size * 0.3;
  return `/Lbl BMC ${x - line.size} ${line.y + line.size * 0.2} ${side} ${side} re f EMC /LBody BMC ${text} EMC`;
}

/** WinAnsiEncoding's codes of the characters beyond Latin-1 that tests write. */
const WIN_ANSI: Record<string, string> = { '•': '\\225', '–': '\\226', '—': '\\227' };

function escapePdf(text: string): string {
  return text.replace(/[\\()•–—]/g, (char) => WIN_ANSI[char] ?? `\\${char}`);
}
