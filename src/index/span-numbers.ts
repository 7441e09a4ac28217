/**
 * Numbers by folded ASCII token, found from the token's characters where it stands in a text (a
 * span of {@link Fts5Tokenizer.forEachFoldedSpan}): the ingest's per-token lookup without making
 * a string for the token or hashing one. Open addressing, linear probing, stored hashes.
 *
 * @example
 * const numbers = new SpanNumbers();
 * numbers.insert('retries', foldedHash('retries'), 7);
 * numbers.find('Retries back off', 0, 7, foldedHash('retries'), true); // 7
 */
export class SpanNumbers {
  /** How many tokens it holds. */
  size = 0;
  private keys: string[];
  private hashes: Int32Array;
  /** The number per slot; -1 marks an empty slot. */
  private values: Int32Array;
  private mask: number;

  constructor(capacity = 1 << 12) {
    const slots = 2 ** Math.ceil(Math.log2(Math.max(16, capacity)));
    this.keys = new Array<string>(slots).fill('');
    this.hashes = new Int32Array(slots);
    this.values = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
  }

  /** The number of the folded token `text[start..end)` (A-Z read as a-z when `upper`), or -1. */
  find(text: string, start: number, end: number, hash: number, upper: boolean): number {
    const length = end - start;
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const value = this.values[slot]!;
      if (value < 0) return -1;
      if (this.hashes[slot] !== hash) continue;
      const key = this.keys[slot]!;
      if (key.length === length && sameFolded(key, text, start, upper)) return value;
    }
  }

  /** Adds `folded` (not held yet), whose hash is `hash`, with number `value` (at least 0); `hash` is fts5-tokens.ts's `foldedHash`. */
  insert(folded: string, hash: number, value: number): void {
    if ((this.size + 1) * 2 > this.values.length) this.grow();
    this.place(folded, hash, value);
    this.size += 1;
  }

  clear(): void {
    this.keys.fill('');
    this.values.fill(-1);
    this.size = 0;
  }

  private place(folded: string, hash: number, value: number): void {
    let slot = hash & this.mask;
    while (this.values[slot]! >= 0) slot = (slot + 1) & this.mask;
    this.keys[slot] = folded;
    this.hashes[slot] = hash;
    this.values[slot] = value;
  }

  private grow(): void {
    const { keys, hashes, values } = this;
    const slots = values.length * 2;
    this.keys = new Array<string>(slots).fill('');
    this.hashes = new Int32Array(slots);
    this.values = new Int32Array(slots).fill(-1);
    this.mask = slots - 1;
    for (let slot = 0; slot < values.length; slot += 1) if (values[slot]! >= 0) this.place(keys[slot]!, hashes[slot]!, values[slot]!);
  }
}

/** Whether `key` is the token at `start` of `text` (its A-Z read as a-z when `upper`). */
function sameFolded(key: string, text: string, start: number, upper: boolean): boolean {
  for (let i = 0; i < key.length; i++) {
    let code = text.charCodeAt(start + i);
    if (upper && code >= 0x41 && code <= 0x5a) code += 32;
    if (code !== key.charCodeAt(i)) return false;
  }
  return true;
}
