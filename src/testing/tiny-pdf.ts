/** One line of text on a page of {@link createTinyPdf}: its text, type size and baseline (from the bottom of a 400 x 600 page). */
export interface TinyPdfLine {
  text: string;
  size: number;
  y: number;
  /** Left edge (default 40). */
  x?: number;
  /** A link annotation over the text with this URI (`https://...`, `file:///...`). */
  link?: string;
}

/** Options of {@link createTinyPdf}. */
export interface TinyPdfOptions {
  /** The document property Title. */
  title?: string;
  /** Adds an encryption dictionary that needs a password no one knows (pdf.js asks for one). */
  encrypted?: boolean;
}

/**
 * A small, valid PDF made in memory for tests: one Helvetica text line per `TinyPdfLine` (with
 * a link annotation over it when it has a `link`), pages of 400 x 600 points, an Info dictionary with the title; a page with no lines has no text layer
 * (as a scan). Real files for the PDF reader without committing binaries.
 *
 * @example
 * const pdf = createTinyPdf([[{ text: 'Install', size: 18, y: 550 }, { text: 'Run it.', size: 10, y: 520 }]], { title: 'Guide' });
 */
export function createTinyPdf(pages: TinyPdfLine[][], options: TinyPdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  const pageIds = pages.map((_, index) => 4 + index * 2);
  // Link annotations come after the pages: their ids, page by page.
  let nextAnnotation = 4 + pages.length * 2;
  const annotationIds = pages.map((lines) => lines.filter((line) => line.link !== undefined).map(() => nextAnnotation++));
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [index, lines] of pages.entries()) {
    const stream = lines.map((line) => `BT /F1 ${line.size} Tf 1 0 0 1 ${line.x ?? 40} ${line.y} Tm (${escapePdf(line.text)}) Tj ET`).join('\n');
    const annots = annotationIds[index]!.length === 0 ? '' : ` /Annots [${annotationIds[index]!.map((id) => `${id} 0 R`).join(' ')}]`;
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 600] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[index]! + 1} 0 R${annots} >>`);
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

function escapePdf(text: string): string {
  return text.replace(/[\\()]/g, (char) => `\\${char}`);
}
