import type { CorpusProblem } from '../errors.ts';
import { decodeSource } from './decode.ts';
import type { ConvertResult } from './formats/converted.ts';
import { convertTextPage, pageFormat, type PageFormat } from './formats/formats.ts';
import { splitFrontMatter } from './front-matter/front-matter.ts';

/** The metadata file beside a page of a format without front matter: `handbook.pdf.atlas.yaml`. */
export const SIDECAR_SUFFIX = '.atlas.yaml';

/** A page's sidecar as read: its path relative to the docs root and its YAML text. */
export interface Sidecar {
  path: string;
  text: string;
}

/** The markdown body of a page of any format, with the YAML that describes it and where that YAML is. */
export interface PageBody {
  format: PageFormat;
  body: string;
  bodyStartLine: number;
  /** Front matter (markdown) or sidecar (other formats) YAML, and the file and line it starts at. */
  yaml?: { text: string; file: string; startLine: number };
  /** The title the file declares (HTML, PDF, Word, AsciiDoc). */
  declaredTitle?: string;
  /** PDF: the page of every body line. */
  linePages?: number[];
  /** HTML: the page asks not to be indexed (see `ConvertedPage.noindex`); the body is empty. */
  noindex?: true;
}

/**
 * The markdown body of a page: a markdown page decoded and split from its front matter; a text
 * page as it is; an HTML or AsciiDoc page decoded and converted here; a PDF or Word page as it
 * was converted when read (`converted`). The YAML of a page of another format than markdown is
 * its sidecar's. A converter that throws makes a problem of the page, never a crashed ingest.
 *
 * @example
 * readPageBody({ path: 'a.html', bytes: Buffer.from('<main><p>Hi</p></main>') }); // { ok: true, page: { format: 'html', body: 'Hi\n', ... } }
 */
export function readPageBody(source: { path: string; bytes: Buffer; converted?: ConvertResult; sidecar?: Sidecar }): { ok: true; page: PageBody } | { ok: false; problem: CorpusProblem } {
  const file = source.path;
  const format = pageFormat(file) ?? 'markdown';
  const yaml = source.sidecar === undefined ? undefined : { text: source.sidecar.text, file: source.sidecar.path, startLine: 1 };
  const page = (body: string, extra: Partial<PageBody> = {}): { ok: true; page: PageBody } => ({ ok: true, page: { format, body, bodyStartLine: 1, ...(yaml ? { yaml } : {}), ...extra } });
  if (format === 'pdf' || format === 'word') {
    const converted = source.converted;
    if (converted === undefined) return { ok: false, problem: { file, field: 'content', message: `internal: the ${format} page was not converted when read. Read pages with readPages (or streamCorpus), which converts them.` } };
    if (!converted.ok) return { ok: false, problem: { file, ...converted.problem } };
    const { markdown, title, linePages } = converted.page;
    return page(markdown, { ...(title ? { declaredTitle: title } : {}), ...(linePages ? { linePages } : {}) });
  }
  const decoded = decodeSource(file, source.bytes);
  if (!decoded.ok) return { ok: false, problem: decoded.problem };
  if (format === 'text') return page(decoded.text);
  if (format === 'html' || format === 'asciidoc') {
    try {
      const { markdown, title, noindex } = convertTextPage(format, decoded.text);
      return page(markdown, { ...(title ? { declaredTitle: title } : {}), ...(noindex ? { noindex } : {}) });
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { ok: false, problem: { file, field: 'content', message: `the ${format === 'html' ? 'HTML' : 'AsciiDoc'} could not be converted (${reason}). Fix the file, or pass --skip-invalid to leave it out.` } };
    }
  }
  const split = splitFrontMatter(file, decoded.text);
  if (!split.ok) return { ok: false, problem: split.problem };
  const { yaml: text, yamlStartLine, body, bodyStartLine } = split.split;
  return { ok: true, page: { format, body, bodyStartLine, ...(text === undefined ? {} : { yaml: { text, file, startLine: yamlStartLine } }) } };
}
