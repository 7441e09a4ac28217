import type { IndexBackend } from './types.ts';

/**
 * One version of an index, held for a piece of work (a request, a tool call, an agent run): every
 * call made inside {@link IndexLease.run}, and inside the async work it starts, reads that
 * version, even when the index is replaced meanwhile (`atlas ingest --rebuild` renames a new file
 * over the old one). Release it when the work is done; the old version is closed once no lease
 * holds it.
 */
export interface IndexLease {
  /** Runs `work`; the index calls it makes (and those of the async work it starts) read this lease's version. */
  run<T>(work: () => T): T;
  /** Lets the version go. Calling it again does nothing. */
  release(): void;
}

/**
 * An index that follows a replaced index file ({@link createLiveSqliteIndex}): each call outside a
 * lease reads the newest version; a lease keeps one version for a whole piece of work.
 */
export interface LeasableIndex {
  lease(): IndexLease;
}

/**
 * Whether `index` hands out leases (a live SQLite index does; a PostgreSQL index, whose rebuild
 * is one transaction, and the in-memory one have no versions to hold).
 *
 * @example
 * if (isLeasableIndex(index)) { const lease = index.lease(); ... }
 */
export function isLeasableIndex(index: IndexBackend | LeasableIndex): index is IndexBackend & LeasableIndex {
  return typeof (index as Partial<LeasableIndex>).lease === 'function';
}

/**
 * Runs `work` on one version of `index` (under a lease, released when `work` settles), or simply
 * runs it when `index` has no versions to hold. Inside a lease already taken, it keeps that one.
 *
 * @example
 * const run = await withIndexLease(index, () => agenticRun(question, { model, index })); // one version, start to end
 */
export async function withIndexLease<T>(index: IndexBackend, work: () => Promise<T>): Promise<T> {
  if (!isLeasableIndex(index)) return work();
  const lease = index.lease();
  try {
    return await lease.run(work);
  } finally {
    lease.release();
  }
}
