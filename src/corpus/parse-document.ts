import { createHash } from 'node:crypto';
import type { CorpusProblem } from '../errors.ts';
import { chunkSections } from './chunking/chunker.ts';
import { resolveChunkingOptions, type ChunkingOptions } from './chunking/chunking-options.ts';
import type { ConvertResult } from './formats/converted.ts';
import { parseFrontMatter, type FrontMatter } from './front-matter/front-matter.ts';
import { parseSections } from './markdown/sections.ts';
import { slugFromPath } from './markdown/slug.ts';
import { readPageBody, type Sidecar } from './page-body.ts';
import type { FolderRuleFields as FolderMeta } from './front-matter/folder-rule.ts';
import type { Chunk, CorpusNote, Doc } from './types.ts';

/**
 * Bumped whenever chunking changes in a way that should re-index unchanged files.
 * 2: split at `###` headings, list items and table rows; small chunks merged; HTML as text.
 * 3: blocks from markdown-it's block parser (the same chunks on the real corpora; pages where
 *    two CommonMark parsers disagree may differ, so every page is chunked anew once).
 * 4: documentation-site syntax: `:::` containers and Liquid tag lines become labels or nothing,
 *    inline Liquid tags are dropped, placeholders in angle brackets (`<queue>`) are kept.
 * 5: a list item over the bound is cut between the items it holds, and a part of half the bound
 *    is no small part (a page of links, 878e14a); a top heading that repeats the page's title is
 *    the title, not a level below it (`withTitle`).
 */
const CHUNKER_VERSION = 5;

/**
 * Bumped whenever the conversion of another format than markdown (formats/) changes what it
 * makes of a file; part of the content hash of those pages only.
 * 1: HTML, PDF, Word, AsciiDoc and text pages.
 * 2: PDF code blocks, code spans and list items; the running lines of a PDF of one page dropped.
 * 3: a block inside an HTML table cell (a paragraph, a list item) keeps its words apart from the
 *    next (`does not log on</p><p><em>logger</em>` was `log onlogger`).
 * 4: an HTML footnote or endnote written as an `<aside>` (Sphinx's) is text, not a sidebar.
 */
const CONVERTER_VERSION = 4;

/** One page as read from disk. */
export interface DocumentSource {
  /** Path relative to the docs root, forward slashes (`guides/install.md`). */
  path: string;
  bytes: Buffer;
  /** A PDF or Word page as converted when read (`readPages` converts them), or the problem converting it. */
  converted?: ConvertResult;
  /** The page's sidecar (`handbook.pdf.atlas.yaml`): the front matter of a page of another format than markdown. */
  sidecar?: Sidecar;
  /** What the folder rules above the page give it (`readFolderRules`); its front matter or sidecar wins, label by label. */
  folder?: FolderMeta;
}

/**
 * Result of {@link parseDocument}: the document, or every problem found in the page, or (no
 * problems) the note saying why a page was left out: its body is only markup, no text.
 */
export type ParseDocumentResult =
  | { ok: true; doc: Doc }
  | { ok: false; problems: CorpusProblem[]; skipped?: undefined }
  | { ok: false; problems: []; skipped: CorpusNote };

/**
 * Parses one page: decodes it (UTF-8, BOM and CRLF handled), validates its front matter, cuts the
 * markdown into sections and chunks (see `chunkSections` and docs/chunking.md). Problems are
 * values, not exceptions; all problems of the page are reported together. A page with no text
 * besides its title is a problem, unless its body holds markup that renders no text here (a
 * VitePress home page: `layout: home` and `<Home />`): that page is `skipped`, with a note, as is
 * an HTML page that asks search engines not to index it (an mdBook site's `print.html`, a copy of
 * every page, would otherwise double every search result).
 * Throws an `AtlasError` only for invalid options.
 *
 * @example
 * const result = parseDocument({ path: 'install.md', bytes: Buffer.from('# Install\n\nRun it.\n') });
 * if (result.ok) result.doc.chunks[0]; // { chunkId: 'install#0', heading: 'Install', text: 'Run it.', ... }
 */
export function parseDocument(source: DocumentSource, options: ChunkingOptions = {}): ParseDocumentResult {
  const resolved = resolveChunkingOptions(options);
  const file = source.path;
  const read = readPageBody(source);
  if (!read.ok) return { ok: false, problems: [read.problem] };
  if (read.page.noindex) {
    const message = 'left out: the page asks search engines not to index it (<meta name="robots" content="noindex">), as a site\'s print view of every page, its table of contents or its search page does. Nothing to do if that is intended.';
    return { ok: false, problems: [], skipped: { file, field: 'content', message } };
  }
  const { format, yaml, body, bodyStartLine, declaredTitle, linePages } = read.page;
  const derivedId = slugFromPath(file);
  const problems: CorpusProblem[] = [];
  let frontMatter: FrontMatter = {};
  if (yaml !== undefined) {
    const parsed = parseFrontMatter({ file: yaml.file, yaml: yaml.text, yamlStartLine: yaml.startLine, derivedId });
    if (parsed.ok) frontMatter = parsed.frontMatter;
    else problems.push(...parsed.problems);
  }
  if (frontMatter.id === undefined && derivedId === '' && problems.every((problem) => problem.field !== 'id')) {
    problems.push({
      file,
      field: 'id',
      message: `id cannot be derived from the file name, got ${JSON.stringify(file)}. ${format === 'markdown' ? 'Add one to the front matter' : `Add one to its sidecar ${file}.atlas.yaml`}, e.g. id: "my-page".`,
    });
  }

  const docId = frontMatter.id ?? derivedId;
  const { folder } = source;
  const appliesTo = frontMatter.applies_to ?? folder?.applies_to ?? 'all';
  // Label by label, the page's own replaces the folder's: an acl list whole, never a union of both.
  const labels = folder?.labels === undefined ? (frontMatter.labels ?? {}) : { ...folder.labels, ...frontMatter.labels };
  const mdx = /\.mdx$/i.test(file);
  let title: string;
  let chunks: Chunk[];
  try {
    const parsedBody = parseSections({ body, bodyStartLine, mdx, splitDepth: resolved.splitDepth });
    title = frontMatter.title ?? declaredTitle ?? parsedBody.firstH1 ?? fileName(file);
    chunks = chunkSections(parsedBody.sections, { docId, title, appliesTo, labels, sourcePath: file, options: resolved });
    if (linePages !== undefined) for (const chunk of chunks) toPages(chunk, linePages);
  } catch (error) {
    // The parser and chunker are linear and bounded; should a page still break them, it is one invalid page, never a crashed ingest.
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    problems.push({ file, field: 'content', message: `the markdown could not be parsed (${reason}). Simplify the page (e.g. less deeply nested lists or quotes), or pass --skip-invalid to leave it out.` });
    return { ok: false, problems };
  }
  if (chunks.length === 0 && format !== 'markdown') {
    if (format === 'html' && problems.length === 0) {
      return { ok: false, problems: [], skipped: { file, field: 'content', message: 'left out: the page has no text in its main content (a search page or a redirect has none). Nothing to do if that is intended.' } };
    }
    problems.push({ file, field: 'content', message: `the file has no text Atlas can read, got an empty ${format} page. Write some content, or delete the file.` });
  } else if (chunks.length === 0) {
    const markup = firstMarkupLine(body, mdx);
    if (markup === undefined) {
      problems.push({
        file,
        field: 'content',
        message: 'page has no text besides its front matter and title, got an empty body. Write some content, or delete the file.',
      });
    } else if (problems.length === 0) {
      const shown = markup.length > 40 ? `${markup.slice(0, 40)}...` : markup;
      const message = `left out: the page has no text of its own, only markup (${JSON.stringify(shown)}), as a site's home page has. Nothing to do if that is intended; else write some text.`;
      return { ok: false, problems: [], skipped: { file, field: 'content', message } };
    }
  }
  if (problems.length > 0) return { ok: false, problems };

  const contentHash = createHash('sha256')
    .update(source.bytes)
    .update('\0')
    .update(JSON.stringify({ chunker: CHUNKER_VERSION, ...resolved, sourcePath: file, ...(format === 'markdown' ? {} : { converter: CONVERTER_VERSION }) }))
    .update(source.sidecar === undefined ? '' : `\0${source.sidecar.text}`)
    // Under folder rules, the fields the page ends up with (not the rules' text): a rule change re-indexes exactly the pages it changes.
    .update(folder === undefined ? '' : `\0folder:${JSON.stringify({ appliesTo, labels })}`)
    .digest('hex');
  return { ok: true, doc: { docId, title, appliesTo, labels, sourcePath: file, contentHash, chunks } };
}

/**
 * The first line of a body that yielded no chunks that is not blank, not a heading and, on an
 * MDX page, not an `import`/`export`: the markup that rendered to nothing (`<Home />`,
 * `<script setup>`), or `undefined` when the body is empty but for those.
 */
function firstMarkupLine(body: string, mdx: boolean): string | undefined {
  return body
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !/^#{1,6}(?:\s|$)/.test(line) && !(mdx && /^(?:import|export)\s/.test(line)));
}

/** `guides/Getting Started.md` -> `Getting Started`. */
function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|mdx|txt|html?|adoc|asciidoc|pdf|docx)$/i, '');
}

/** A PDF chunk's lines (of its converted markdown) replaced by the pages they come from: a PDF is cited by page. */
function toPages(chunk: Chunk, linePages: number[]): void {
  chunk.startLine = linePages[chunk.startLine - 1] ?? linePages.at(-1) ?? 1;
  chunk.endLine = Math.max(chunk.startLine, linePages[chunk.endLine - 1] ?? linePages.at(-1) ?? 1);
}
