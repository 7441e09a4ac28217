import type Database from 'better-sqlite3';
import { DIACRITIC, TOKEN_CHAR } from './fts5-unicode.ts';

/** What a real FTS5 `unicode61 remove_diacritics 2` table does with every code point. */
export interface Fts5CodePointBehaviour {
  /** Class of every code point 0..0x10FFFF (SEPARATOR, TOKEN_CHAR, DIACRITIC of fts5-unicode.ts; surrogates stay SEPARATOR). */
  classes: Uint8Array;
  /** Code point -> what it folds to inside a token (0 = dropped), for those that change. */
  folds: Map<number, number>;
}

const MAX_CODE_POINT = 0x10ffff;
const BATCH = 4096;

/**
 * Asks a real FTS5 table how it tokenizes every code point, by inserting probe documents and
 * reading the terms back through an `fts5vocab` instance table. This is the reference the
 * tables of fts5-unicode-data.ts are generated from (scripts/fts5-unicode-tables.ts) and tested
 * against (fts5-tokens.test.ts), so they reproduce SQLite's own (Unicode 6.1-era) data.
 *
 * Two probes per code point c: `q<c>q` is one token when c continues a token (its middle is the
 * fold of c) and two `q` tokens when c separates; `z <c>q` tells a token character (`<fold>q`)
 * from a diacritic, which cannot start a token (`q`).
 *
 * @example
 * const behaviour = probeFts5CodePoints(new Database(':memory:')); // about 2 s
 * behaviour.classes[0x301]; // DIACRITIC
 * behaviour.folds.get(0xc9); // 0x65 ('É' -> 'e')
 */
export function probeFts5CodePoints(db: Database.Database): Fts5CodePointBehaviour {
  db.exec(`CREATE VIRTUAL TABLE temp.probe_fts USING fts5(body, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE temp.probe_vocab USING fts5vocab(temp, probe_fts, 'instance');`);
  const insert = db.prepare('INSERT INTO temp.probe_fts(rowid, body) VALUES (?, ?)');
  const read = db.prepare('SELECT term FROM temp.probe_vocab WHERE doc = ? ORDER BY offset').pluck();
  const remove = db.prepare('DELETE FROM temp.probe_fts WHERE rowid = ?');
  const classes = new Uint8Array(MAX_CODE_POINT + 1);
  const folds = new Map<number, number>();
  let rowid = 0;
  for (let first = 0; first <= MAX_CODE_POINT; first += BATCH) {
    const codePoints: number[] = [];
    for (let cp = first; cp < Math.min(first + BATCH, MAX_CODE_POINT + 1); cp++) {
      if (cp < 0xd800 || cp > 0xdfff) codePoints.push(cp);
    }
    const chars = codePoints.map((cp) => String.fromCodePoint(cp));
    const inside = ++rowid;
    insert.run(inside, chars.map((char) => `q${char}q`).join(' '));
    const start = ++rowid;
    insert.run(start, chars.map((char) => `z ${char}q`).join(' '));
    const insideTerms = read.all(inside) as string[];
    const startTerms = read.all(start) as string[];
    remove.run(inside);
    remove.run(start);
    let at = 0;
    let startAt = 0;
    for (const cp of codePoints) {
      const term = insideTerms[at++] ?? '';
      if (term === 'q' && insideTerms[at] === 'q') {
        at++;
        startAt += 2;
        continue;
      }
      const folded = term.slice(1, -1);
      const foldedCodePoint = folded === '' ? 0 : (folded.codePointAt(0) ?? 0);
      if (foldedCodePoint !== cp) folds.set(cp, foldedCodePoint);
      startAt++; // 'z'
      const second = startTerms[startAt++];
      classes[cp] = second === `${folded}q` && folded !== '' ? TOKEN_CHAR : DIACRITIC;
    }
  }
  db.exec('DROP TABLE temp.probe_vocab; DROP TABLE temp.probe_fts;');
  return { classes, folds };
}
