/**
 * Combining marks, the one reading every reader of Atlas shares (the index's tokenizer, the
 * offline planner's words, the function-word lists): which belong to their word's spelling (an
 * Indic vowel sign) and which a reader may leave out (an accent, Arabic harakat, a nukta).
 */

/**
 * The blocks whose combining marks belong to their word: the vowel signs and viramas of the Indic
 * scripts (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam,
 * Sinhala and their extensions; not the nukta, {@link NUKTAS}), Tibetan, Thaana, and the scripts
 * of South-East Asia.
 * Without them Hindi's `किला` (fort), `कला` (art) and `काला` (black) are one word, and FTS5's
 * `unicode61`, which splits at every such mark, makes `कि`+`ला` the two tokens `क` and `ल`. The
 * marks of other scripts are optional in writing (Latin, Greek and Cyrillic accents, Arabic
 * harakat, Hebrew points) and fold away.
 */
const WORD_MARK_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0780, 0x07bf], // Thaana
  [0x0900, 0x0dff], // Devanagari .. Sinhala
  [0x0e00, 0x0eff], // Thai, Lao
  [0x0f00, 0x0fff], // Tibetan
  [0x1000, 0x109f], // Myanmar
  [0x1780, 0x17ff], // Khmer
  [0x1900, 0x194f], // Limbu
  [0x1a20, 0x1aaf], // Tai Tham
  [0x1b00, 0x1bbf], // Balinese, Sundanese
  [0x1cd0, 0x1cff], // Vedic extensions
  [0xa800, 0xa82f], // Syloti Nagri
  [0xa880, 0xa8ff], // Saurashtra, Devanagari extended
  [0xa980, 0xa9ff], // Javanese, Myanmar extended B
  [0xaa60, 0xaa7f], // Myanmar extended A
  [0xabc0, 0xabff], // Meetei Mayek
];

/**
 * The nukta of the Indic scripts (`क़` is `क` and a nukta): left out as often as written (`क़ुतुब`
 * and `कुतुब`), so it folds away, as Lucene's Hindi and Bengali normalizers drop it.
 */
const NUKTAS: ReadonlySet<number> = new Set([0x093c, 0x09bc, 0x0a3c, 0x0abc, 0x0b3c, 0x0cbc]);

/** Whether a combining mark at `code` (a UTF-16 unit) is part of its word's spelling ({@link WORD_MARK_RANGES}, but not a {@link NUKTAS} one). */
export function isWordMark(code: number): boolean {
  if (NUKTAS.has(code)) return false;
  for (const [first, last] of WORD_MARK_RANGES) if (code >= first && code <= last) return true;
  return false;
}

/**
 * Marks written for one another, read as one: Devanagari's chandrabindu as its anusvara (`कहाँ`
 * and `कहां`, `ऊँचाई` and `ऊंचाई`: the same words, spelled either way), as Lucene's Hindi normalizer
 * reads them.
 */
export const MARK_VARIANTS: ReadonlyMap<number, number> = new Map([[0x0901, 0x0902]]);

/**
 * `text` without its optional combining marks (every mark but a {@link isWordMark} one), after
 * NFKD: the accents a reader may leave out (`naïve`, `Aschenbrödel`, Arabic `كَتَبَ`, a nukta) are
 * gone, a Hindi word keeps its vowel signs ({@link MARK_VARIANTS} read as one).
 *
 * @example
 * withoutOptionalMarks('Ærø café'.normalize('NFKD')); // 'Ærø cafe'
 * withoutOptionalMarks('किला'); // 'किला'
 */
export function withoutOptionalMarks(text: string): string {
  return text.replace(/\p{M}/gu, (mark) => {
    const code = mark.charCodeAt(0);
    if (!isWordMark(code)) return '';
    const variant = MARK_VARIANTS.get(code);
    return variant === undefined ? mark : String.fromCharCode(variant);
  });
}
