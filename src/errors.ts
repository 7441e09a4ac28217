/**
 * The one error base class of Atlas. Every error names the subject, the bad value and the fix.
 *
 * @example
 * throw new AtlasError('usage', 'Atlas: --k must be a positive integer, got "abc". Pass e.g. --k 5.');
 */
export class AtlasError extends Error {
  constructor(
    readonly code: AtlasErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AtlasError';
  }
}

/** What kind of failure an {@link AtlasError} is; the CLI maps `usage` to exit code 2. */
export type AtlasErrorCode =
  | 'usage'
  | 'invalid-corpus'
  | 'index-schema'
  | 'index-missing'
  /** Another connection holds the write lock past the busy timeout (a concurrent ingest). */
  | 'index-busy'
  /** The index file cannot be opened, read or written: permissions, read-only, disk full, I/O. */
  | 'index-io'
  /** The index file is truncated, corrupt or not an SQLite database. */
  | 'index-damaged'
  /** Another process created the index file while this one was building it (two first ingests at once). */
  | 'index-exists'
  /** The conversations state database has another schema version, or is not one. */
  | 'state-schema'
  /** The conversations state database cannot be opened, read or written. */
  | 'state-io'
  | 'invalid-dataset'
  | 'model-config'
  | 'model-call'
  | 'internal';

/** One problem found in one file of a docs folder. */
export interface CorpusProblem {
  /** Path relative to the docs root, with forward slashes. */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** The front matter field or aspect at fault (`id`, `applies_to`, `encoding`, `content`, ...). */
  field: string;
  /** What is wrong and how to fix it, in one sentence. */
  message: string;
}

/** Thrown when a docs folder has invalid pages; carries every problem found, not just the first. */
export class CorpusError extends AtlasError {
  constructor(readonly problems: CorpusProblem[]) {
    super('invalid-corpus', formatProblems(problems));
    this.name = 'CorpusError';
  }
}

/** Formats problems one per line: `file:line: field: message`. */
export function formatProblems(problems: CorpusProblem[]): string {
  const lines = problems.map(
    (problem) =>
      `  ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.field}: ${problem.message}`,
  );
  const noun = problems.length === 1 ? 'problem' : 'problems';
  return `Atlas: ${problems.length} ${noun} in the docs folder; nothing was written to the index.\n${lines.join('\n')}\nFix them, or pass --skip-invalid to index the valid pages only.`;
}
