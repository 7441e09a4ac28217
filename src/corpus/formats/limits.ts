/**
 * Bounds on reading one file, so that a hostile or broken file (a PDF bomb, a 200 MB file, a
 * document that takes minutes to lay out) costs bounded time and memory and is reported by name.
 */
export interface FormatLimits {
  /** Largest file read, in bytes (default 50 MB); a larger one is a problem, not read. */
  maxFileBytes: number;
  /** Most pages of a PDF read (default 2,000). */
  maxPdfPages: number;
  /** Most characters of text taken from one file (default 20 million). */
  maxTextChars: number;
  /** Time one file may take to convert, in milliseconds (default 60 s), checked between pages. */
  timeBudgetMs: number;
  /** The clock the time budget is measured with (default `performance.now`). */
  now: () => number;
}

/** The default {@link FormatLimits}. */
export const DEFAULT_FORMAT_LIMITS: Readonly<FormatLimits> = Object.freeze({
  maxFileBytes: 50 * 1024 * 1024,
  maxPdfPages: 2000,
  maxTextChars: 20_000_000,
  timeBudgetMs: 60_000,
  now: () => performance.now(),
});

/** `52428800` -> `50 MB`. */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
