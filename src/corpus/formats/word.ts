import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import type { ConvertResult } from './converted.ts';
import { htmlToMarkdown } from './html-markdown.ts';

interface Mammoth {
  convertToHtml(input: { buffer: Buffer }, options?: { styleMap?: string[] }): Promise<{ value: string }>;
}

// Word's "Subtitle" style is a paragraph; code as pandoc and many templates style it (mammoth maps Heading 1-6 itself).
const STYLE_MAP = ["p[style-name='Subtitle'] => p:fresh", "p[style-name='Source Code'] => pre:separator('\\n')", "r[style-name='Verbatim Char'] => code"];
// The "Title" paragraph: the title when the document properties have none, else left out (the properties' title is the page's).
const TITLE_HEADING = "p[style-name='Title'] => h1:fresh";
const TITLE_DROPPED = "p[style-name='Title'] => !";

/**
 * A Word file (.docx) as markdown (mammoth to HTML, then `htmlToMarkdown`): headings, lists,
 * tables, code as text; the title from the document properties (`docProps/core.xml`, dc:title).
 * An encrypted file (Office keeps it in an OLE container, not a zip) and a broken one are problems.
 *
 * @example
 * const result = await convertWord(readFileSync('runbook.docx'));
 * if (result.ok) result.page.markdown; // '# Runbook\n\n...'
 */
export async function convertWord(bytes: Buffer): Promise<ConvertResult> {
  if (bytes.subarray(0, 4).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0]))) {
    return fail('encryption', 'the file is an OLE container, not a .docx zip: a Word file encrypted with a password, or an old .doc renamed. Save it as .docx without a password, or pass --skip-invalid to leave it out.');
  }
  const mammoth = createRequire(import.meta.url)('mammoth') as Mammoth;
  const declared = coreTitle(bytes);
  let html: string;
  try {
    html = (await mammoth.convertToHtml({ buffer: bytes }, { styleMap: [...STYLE_MAP, declared === undefined ? TITLE_HEADING : TITLE_DROPPED] })).value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return fail('content', `the file cannot be read as a .docx (${reason}). Check that it opens in Word and save it again, or pass --skip-invalid to leave it out.`);
  }
  const converted = htmlToMarkdown(html, 'all');
  const title = declared ?? converted.firstHeading;
  return { ok: true, page: title === undefined ? { markdown: converted.markdown } : { markdown: converted.markdown, title } };
}

function fail(field: string, message: string): ConvertResult {
  return { ok: false, problem: { field, message } };
}

/** dc:title of `docProps/core.xml` in the zip, read from its central directory; undefined when absent or unreadable. */
export function coreTitle(zip: Buffer): string | undefined {
  try {
    const xml = zipEntry(zip, 'docProps/core.xml');
    const title = xml === undefined ? undefined : /<dc:title>([^<]*)<\/dc:title>/.exec(xml.toString('utf8'))?.[1];
    const text = title?.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&').trim();
    return text === undefined || text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

/** One stored or deflated entry of a zip, at most 1 MB unpacked. */
function zipEntry(zip: Buffer, name: string): Buffer | undefined {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let entry = 0; entry < count && at + 46 <= zip.length; entry++) {
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    if (entryName === name) {
      if (size > 1024 * 1024) return undefined;
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + packed);
      return method === 0 ? data : method === 8 ? inflateRawSync(data, { maxOutputLength: 1024 * 1024 }) : undefined;
    }
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return undefined;
}
