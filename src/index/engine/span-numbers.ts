/**
 * Numbers by folded ASCII token, found from the token's characters where it stands in a text (a
 * span of {@link Fts5Tokenizer.forEachFoldedSpan}): the ingest's per-token lookup without making
 * a string for the token or hashing one. Open addressing, linear probing. A slot is four 32-bit
 * words side by side (hash, number, where the token's characters start in one shared pool, its
 * length), so a probe reads one cache line and the characters it compares lie together. With a
 * string per slot and separate arrays of hashes and numbers, a look-up touched four places in
 * memory: tokenizing and looking up the 10.3M tokens of the 100k bench chunks took 1,309 ms
 * (best of 12, median 1,550) against 1,113 (median 1,381) now (docs/performance.md).
 *
 * @example
 * const numbers = new SpanNumbers();
 * numbers.insert('retries', foldedHash('retries'), 7);
 * numbers.find('Retries back off', 0, 7, foldedHash('retries'), true); // 7
 */
export class SpanNumbers {
  /** How many tokens it holds. */
  size = 0;
  /** Per slot: hash, number (-1: empty), start in `chars`, length. */
  private slots: Int32Array;
  private mask: number;
  /** The characters of every token held, one after another (UTF-16 units). */
  private chars: Uint16Array;
  private used = 0;

  constructor(capacity = 1 << 12) {
    const count = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.slots = emptySlots(count);
    this.mask = count - 1;
    this.chars = new Uint16Array(count * 8);
  }

  /** The number of the folded token `text[start..end)` (A-Z read as a-z when `upper`), or -1. */
  find(text: string, start: number, end: number, hash: number, upper: boolean): number {
    const { slots, chars } = this;
    const length = end - start;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const at = slot * 4;
      const value = slots[at + 1]!;
      if (value < 0) return -1;
      if (slots[at] !== hash || slots[at + 3] !== length) continue;
      const from = slots[at + 2]!;
      let same = true;
      for (let i = 0; i < length; i++) {
        let code = text.charCodeAt(start + i);
        if (upper && code >= 0x41 && code <= 0x5a) code += 32;
        if (code !== chars[from + i]) {
          same = false;
          break;
        }
      }
      if (same) return value;
    }
  }

  /** Adds `folded` (not held yet), whose hash is `hash`, with number `value` (at least 0); `hash` is fts5-tokens.ts's `foldedHash`. */
  insert(folded: string, hash: number, value: number): void {
    if ((this.size + 1) * 2 > this.mask + 1) this.grow();
    if (this.used + folded.length > this.chars.length) {
      const grown = new Uint16Array(Math.max(this.chars.length * 2, this.used + folded.length));
      grown.set(this.chars.subarray(0, this.used));
      this.chars = grown;
    }
    for (let i = 0; i < folded.length; i++) this.chars[this.used + i] = folded.charCodeAt(i);
    this.place(this.slots, this.mask, hash, value, this.used, folded.length);
    this.used += folded.length;
    this.size += 1;
  }

  clear(): void {
    this.slots.fill(-1);
    this.used = 0;
    this.size = 0;
  }

  private place(slots: Int32Array, mask: number, hash: number, value: number, start: number, length: number): void {
    let slot = hash & mask;
    while (slots[slot * 4 + 1]! >= 0) slot = (slot + 1) & mask;
    slots[slot * 4] = hash;
    slots[slot * 4 + 1] = value;
    slots[slot * 4 + 2] = start;
    slots[slot * 4 + 3] = length;
  }

  private grow(): void {
    const old = this.slots;
    const count = (this.mask + 1) * 2;
    this.slots = emptySlots(count);
    this.mask = count - 1;
    for (let at = 0; at < old.length; at += 4) {
      if (old[at + 1]! >= 0) this.place(this.slots, this.mask, old[at]!, old[at + 1]!, old[at + 2]!, old[at + 3]!);
    }
  }
}

/** `count` empty slots: every word -1 (an empty slot's number is -1). */
function emptySlots(count: number): Int32Array {
  return new Int32Array(count * 4).fill(-1);
}
