import { CLASS_RUNS, FOLD_RUNS } from './fts5-unicode-data.ts';
import { isWordMark, MARK_VARIANTS, withoutOptionalMarks } from '../../text/marks.ts';

/** Code point classes of FTS5 `unicode61` (the values of fts5-unicode-data.ts's CLASS_RUNS). */
export const SEPARATOR = 0;
/** Starts and continues a token (categories L*, N*, Co and unassigned code points, per SQLite). */
export const TOKEN_CHAR = 1;
/** Continues a token that has started (a few combining marks, U+0300..U+0331), never starts one. */
export const DIACRITIC = 2;

/**
 * FTS5's per-code-point data in the shape the tokenizer reads fast: flat arrays for the Basic
 * Multilingual Plane, binary search and a map above it (rare in text: emoji, historic scripts).
 * A lone surrogate reads as U+FFFD, as it does once better-sqlite3 has encoded a JS string as
 * UTF-8 for SQLite.
 */
export interface Fts5UnicodeTables {
  /** Class of every UTF-16 code unit value (surrogates: the class of U+FFFD). */
  bmpClass: Uint8Array;
  /** What each BMP code point folds to inside a token: itself, another, or 0 (dropped). */
  bmpFold: Uint16Array;
  /** Class of a code point above U+FFFF. */
  astralClass(codePoint: number): number;
  /** Fold of a code point above U+FFFF (0 = dropped). */
  astralFold(codePoint: number): number;
}

/**
 * Builds the lookup tables from the generated runs (under 1 ms; a tokenizer makes its own).
 *
 * @example
 * const tables = createFts5UnicodeTables();
 * tables.bmpClass[0x301]; // DIACRITIC
 * String.fromCharCode(tables.bmpFold[0xc9]!); // 'e'
 */
export function createFts5UnicodeTables(): Fts5UnicodeTables {
  const bmpClass = new Uint8Array(0x10000);
  const astralStarts: number[] = [];
  const astralClasses: number[] = [];
  for (let i = 0; i < CLASS_RUNS.length; i += 2) {
    const start = CLASS_RUNS[i] ?? 0;
    const end = CLASS_RUNS[i + 2] ?? 0x110000;
    const cls = CLASS_RUNS[i + 1] ?? SEPARATOR;
    if (start < 0x10000) bmpClass.fill(cls, start, Math.min(end, 0x10000));
    if (end > 0x10000) {
      astralStarts.push(Math.max(start, 0x10000));
      astralClasses.push(cls);
    }
  }
  bmpClass.fill(bmpClass[0xfffd] ?? SEPARATOR, 0xd800, 0xe000);
  const bmpFold = new Uint16Array(0x10000);
  for (let cp = 0; cp < 0x10000; cp++) bmpFold[cp] = cp;
  bmpFold.fill(0xfffd, 0xd800, 0xe000);
  const astralFolds = new Map<number, number>();
  for (let i = 0; i < FOLD_RUNS.length; i += 4) {
    const [start = 0, count = 0, stride = 0, delta = 0] = FOLD_RUNS.slice(i, i + 4);
    for (let k = 0; k < count; k++) {
      const cp = start + k * stride;
      if (cp < 0x10000) bmpFold[cp] = cp + delta;
      else astralFolds.set(cp, cp + delta);
    }
  }
  return {
    bmpClass,
    bmpFold,
    astralClass(codePoint) {
      let low = 0;
      let high = astralStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((astralStarts[middle] ?? 0) <= codePoint) low = middle;
        else high = middle - 1;
      }
      return astralClasses[low] ?? SEPARATOR;
    },
    astralFold(codePoint) {
      return astralFolds.get(codePoint) ?? codePoint;
    },
  };
}

/** What {@link readMarks} changes in FTS5's tables, the same for every tokenizer: made on first use. */
let markChanges: { marks: Uint16Array; accented: Uint16Array; bases: Uint16Array } | undefined;

/**
 * An Atlas index's reading of accents and combining marks, where FTS5 knows only Latin accents
 * and splits a word at any other mark:
 * - a combining mark continues the token it follows (never starts one); a mark that spells its
 *   word (a Hindi vowel sign, text/marks.ts `isWordMark`) stays in it, any other (Arabic harakat,
 *   Hebrew points, the Indic nukta) is dropped, as `remove_diacritics` drops a Latin accent, and a
 *   chandrabindu reads as an anusvara (text/marks.ts `MARK_VARIANTS`). So `किला` is one token, not
 *   `क` and `ल`, and `كَتَبَ` is `كتب`, the word as most text writes it;
 * - a letter written with such an optional mark folds to its base letter in every script, as a
 *   Latin one does in FTS5: Greek `ά` to `α` (Greek is often typed without its accents), Cyrillic
 *   `ё` and `й` to `е` and `и`, Arabic `أ` and `آ` to `ا`. The offline planner folds words the same
 *   way (text/function-words.ts `fold`), so the words it searches for match the index's.
 */
export function readMarks(bmpClass: Uint8Array, bmpFold: Uint16Array): void {
  if (markChanges === undefined) {
    const marks: number[] = [];
    const accented: number[] = [];
    const bases: number[] = [];
    for (let code = 0; code < 0xd800; code++) {
      const char = String.fromCharCode(code);
      if (bmpClass[code] === SEPARATOR && /\p{M}/u.test(char)) {
        marks.push(code);
        continue;
      }
      if (bmpClass[code] !== TOKEN_CHAR || bmpFold[code] === 0) continue;
      const base = withoutOptionalMarks(char.normalize('NFD'));
      if (base.length === 1 && base !== char && !/\p{M}/u.test(base)) {
        accented.push(code);
        bases.push(base.charCodeAt(0));
      }
    }
    markChanges = { marks: Uint16Array.from(marks), accented: Uint16Array.from(accented), bases: Uint16Array.from(bases) };
  }
  for (const code of markChanges.marks) {
    bmpClass[code] = DIACRITIC;
    bmpFold[code] = isWordMark(code) ? (MARK_VARIANTS.get(code) ?? code) : 0;
  }
  markChanges.accented.forEach((code, at) => {
    bmpFold[code] = bmpFold[markChanges!.bases[at]!]!;
  });
}
