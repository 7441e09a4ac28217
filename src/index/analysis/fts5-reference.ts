import Database from 'better-sqlite3';

/** The tokens a real SQLite FTS5 table makes of texts: the reference {@link createFts5Tokenizer} is tested against. */
export interface Fts5Reference {
  /** Every text's tokens in order (duplicates kept), read back through an `fts5vocab` instance table. */
  tokens(texts: readonly string[]): string[][];
  close(): void;
}

/**
 * Opens an in-memory FTS5 table with `[porter] unicode61 remove_diacritics 2` (the tokenizers
 * of an Atlas index, schema.ts) to read how FTS5 itself tokenizes texts. For tests and benches.
 *
 * @example
 * const reference = createFts5Reference({ porter: true });
 * reference.tokens(['Retrying jobs']); // [['retri', 'job']]
 * reference.close();
 */
export function createFts5Reference(options: { porter: boolean }): Fts5Reference {
  const db = new Database(':memory:');
  const tokenize = `${options.porter ? 'porter ' : ''}unicode61 remove_diacritics 2`;
  db.exec(`CREATE VIRTUAL TABLE reference_fts USING fts5(body, content='', contentless_delete=1, tokenize='${tokenize}');
    CREATE VIRTUAL TABLE reference_vocab USING fts5vocab(reference_fts, 'instance');`);
  const insert = db.prepare('INSERT INTO reference_fts(rowid, body) VALUES (?, ?)');
  const read = db.prepare('SELECT doc, term FROM reference_vocab ORDER BY doc, offset').raw();
  const clear = db.prepare('DELETE FROM reference_fts');
  return {
    tokens(texts) {
      db.transaction(() => texts.forEach((text, index) => insert.run(index + 1, text)))();
      const tokens: string[][] = texts.map(() => []);
      for (const [doc, term] of read.all() as Array<[number, string]>) tokens[doc - 1]?.push(term);
      clear.run();
      return tokens;
    },
    close() {
      db.close();
    },
  };
}
