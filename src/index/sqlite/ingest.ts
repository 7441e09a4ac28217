import type Database from 'better-sqlite3';
import type { Doc } from '../../corpus/types.ts';
import { createIngestSession, type IngestItem } from './ingest-session.ts';
import { useRollbackJournalWhileEmpty } from './sqlite-open.ts';
import type { TokenizerOptions } from '../analysis/tokenize.ts';
import type { IngestReport } from '../types.ts';

/**
 * Makes the index hold exactly `docs`, in one transaction: documents whose contentHash is
 * unchanged are skipped, changed ones replaced, new ones added, missing ones deleted. Any error
 * rolls everything back, so the previous index stays intact. Report lists are sorted.
 *
 * @example
 * const report = ingestDocs(db, docs, tokenizer); // { added: ['a'], updated: [], unchanged: [], removed: [], ... }
 */
export function ingestDocs(db: Database.Database, docs: Doc[], tokenizer: TokenizerOptions): IngestReport {
  const run = db.transaction((): IngestReport => {
    const session = createIngestSession(db, tokenizer, { knownDocIds: new Set(docs.map((doc) => doc.docId)) });
    session.add(docs.map((doc) => ({ doc })));
    return session.finish();
  });
  const restoreJournal = useRollbackJournalWhileEmpty(db);
  try {
    // IMMEDIATE: wait (busy timeout) for another writer instead of failing on a lock upgrade.
    return run.immediate();
  } finally {
    restoreJournal();
  }
}

/** What a streamed ingest reads: batches of documents, or of documents with their derived values. */
export type IngestSource = AsyncIterable<readonly Doc[] | readonly IngestItem[]>;

/** Options of {@link ingestDocStream}. */
export interface IngestStreamOptions {
  /**
   * Called once every batch is written and before the commit, with the report the commit would
   * make: throwing (e.g. because the source found invalid pages) rolls the whole ingest back.
   */
  beforeCommit?: (report: IngestReport) => void | Promise<void>;
}

/**
 * {@link ingestDocs} for documents that arrive in batches (parsed in worker threads while this
 * thread writes): the same rows, report and guarantees. One transaction is held open across the
 * batches; the documents no batch brought are deleted once the source has ended, so a source that
 * throws, a check that fails or a `beforeCommit` that throws rolls everything back and the
 * previous index stays exactly as it was.
 *
 * @example
 * const report = await ingestDocStream(db, parsedBatches(), tokenizer, {
 *   beforeCommit: () => { if (problems.length > 0) throw new CorpusError(problems); },
 * });
 */
export async function ingestDocStream(
  db: Database.Database,
  source: IngestSource,
  tokenizer: TokenizerOptions,
  options: IngestStreamOptions = {},
): Promise<IngestReport> {
  const restoreJournal = useRollbackJournalWhileEmpty(db);
  try {
    return await writeStream(db, source, tokenizer, options);
  } finally {
    restoreJournal();
  }
}

async function writeStream(db: Database.Database, source: IngestSource, tokenizer: TokenizerOptions, options: IngestStreamOptions): Promise<IngestReport> {
  // IMMEDIATE: wait (busy timeout) for another writer instead of failing on a lock upgrade.
  db.exec('BEGIN IMMEDIATE');
  try {
    const session = createIngestSession(db, tokenizer);
    for await (const batch of source) session.add(batch.map(toItem));
    const report = session.finish();
    await options.beforeCommit?.(report);
    db.exec('COMMIT');
    return report;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function toItem(entry: Doc | IngestItem): IngestItem {
  return 'doc' in entry ? entry : { doc: entry };
}
