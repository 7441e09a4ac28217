/** Values a front matter label can take. */
export type LabelValue = string | string[];

/** One section of one document: the unit that is indexed, searched, read and cited. */
export interface Chunk {
  /** Stable id `<docId>#<ord>`. */
  chunkId: string;
  docId: string;
  /** Title of the document. */
  title: string;
  /**
   * The heading the chunk is named after, the last of `headingPath`: the heading it starts at
   * (the title for the top of the page), or the heading after a small lead-in merged in front.
   */
  heading: string;
  /** Title, then the `##` heading, then deeper headings (`###` ...) down to `heading`. */
  headingPath: string[];
  /**
   * The chunk's markdown: the source verbatim, without the line of the heading it starts at, with
   * HTML markup replaced by its text, and with a table's header rows repeated when the chunk
   * starts inside the table.
   */
  text: string;
  /** Release line this chunk applies to (`"2.x"`, `"3.x"` or `"all"`). */
  appliesTo: string;
  /** Position of the chunk in its document, from 0. */
  ord: number;
  labels: Record<string, LabelValue>;
  /** Source file relative to the docs root, forward slashes. */
  sourcePath: string;
  /**
   * 1-based first and last line of the chunk in the source file, front matter lines included.
   * A chunk named after a heading it starts at starts at that heading's line (the heading is not in `text`).
   */
  startLine: number;
  endLine: number;
  prevChunkId?: string;
  nextChunkId?: string;
}

/** A parsed document with its chunks, ready to be indexed. */
export interface Doc {
  docId: string;
  title: string;
  appliesTo: string;
  labels: Record<string, LabelValue>;
  sourcePath: string;
  /** sha256 of the raw file bytes plus the chunking options: unchanged docs are skipped on re-ingest. */
  contentHash: string;
  chunks: Chunk[];
}

/**
 * A page left out on purpose, with the reason: not a problem, the ingest goes on. A page whose
 * body is only markup (a VitePress home page: `layout: home` front matter and a `<Home />`
 * component) has no text of its own to index.
 */
export interface CorpusNote {
  /** Path relative to the docs root, with forward slashes. */
  file: string;
  /** The aspect the note is about (`content`). */
  field: string;
  /** What was done and why, in one sentence. */
  message: string;
}
