import { createHash } from 'node:crypto';
import type { Chunk, Doc, LabelValue } from '../corpus/types.ts';

/** One section of a {@link TestDocSpec}. */
export interface TestSection {
  /** Defaults to the title for section 0, `Section <n>` after. */
  heading?: string;
  /** Headings between the title and `heading` in the heading path (a `###` chunk's `##`). */
  parents?: string[];
  text: string;
  /** Labels of this chunk only (default: the document's). */
  labels?: Record<string, LabelValue>;
}

/** A compact description of a document, for tests and benchmarks. */
export interface TestDocSpec {
  docId: string;
  /** Defaults to `Doc <docId>`. */
  title?: string;
  /** Defaults to `all`. */
  appliesTo?: string;
  labels?: Record<string, LabelValue>;
  sections: Array<TestSection | string>;
}

/**
 * Builds a {@link Doc} the way the corpus layer would (ids `<docId>#<n>`, prev/next links,
 * heading paths, line numbers, a content hash over everything), without markdown parsing.
 *
 * @example
 * const doc = createTestDoc({ docId: 'retries', appliesTo: '3.x', sections: ['Retries back off.'] });
 * doc.chunks[0].chunkId // 'retries#0'
 */
export function createTestDoc(spec: TestDocSpec): Doc {
  const title = spec.title ?? `Doc ${spec.docId}`;
  const appliesTo = spec.appliesTo ?? 'all';
  const labels = spec.labels ?? {};
  const sourcePath = `${spec.docId}.md`;
  let line = 1;
  const chunks = spec.sections.map((section, ord): Chunk => {
    const { heading: explicitHeading, parents = [], text, labels: chunkLabels } =
      typeof section === 'string' ? { heading: undefined, parents: [], text: section, labels: undefined } : section;
    const heading = explicitHeading ?? (ord === 0 ? title : `Section ${ord}`);
    const startLine = line;
    const endLine = startLine + text.split('\n').length;
    line = endLine + 2;
    const chunk: Chunk = {
      chunkId: `${spec.docId}#${ord}`,
      docId: spec.docId,
      title,
      heading,
      headingPath: ord === 0 && parents.length === 0 ? [title] : [title, ...parents, heading],
      text,
      appliesTo,
      ord,
      labels: chunkLabels ?? labels,
      sourcePath,
      startLine,
      endLine,
    };
    if (ord > 0) chunk.prevChunkId = `${spec.docId}#${ord - 1}`;
    if (ord < spec.sections.length - 1) chunk.nextChunkId = `${spec.docId}#${ord + 1}`;
    return chunk;
  });
  const contentHash = createHash('sha256').update(JSON.stringify({ title, appliesTo, labels, chunks })).digest('hex');
  return { docId: spec.docId, title, appliesTo, labels, sourcePath, contentHash, chunks };
}
