import { createRequire } from 'node:module';
import type { ConvertedPage } from './converted.ts';
import { htmlToMarkdown } from './html-markdown.ts';

interface AsciidoctorDocument {
  getDocumentTitle(): string | undefined;
  convert(): string;
}
type AsciidoctorFactory = () => { load(text: string, options: object): AsciidoctorDocument };

/**
 * An AsciiDoc page as markdown (Asciidoctor.js to HTML, then `htmlToMarkdown`), the title from
 * its document title (`= Title`). Converted in `secure` safe mode: `include::` and other
 * directives that would read files or URLs are not followed.
 *
 * @example
 * convertAsciidoc('= Guide\n\n== Install\n\nRun it.\n'); // { markdown: '## Install\n\nRun it.\n', title: 'Guide' }
 */
export function convertAsciidoc(text: string): ConvertedPage {
  // Loaded on first use: most folders have no AsciiDoc, and it is a large module.
  const asciidoctor = createRequire(import.meta.url)('@asciidoctor/core') as AsciidoctorFactory;
  const document = asciidoctor().load(text, { safe: 'secure', attributes: { showtitle: false, 'allow-uri-read': false } });
  const converted = htmlToMarkdown(document.convert(), 'all');
  const title = document.getDocumentTitle()?.replace(/<[^>]*>/g, '').trim();
  return title ? { markdown: converted.markdown, title } : { markdown: converted.markdown };
}
