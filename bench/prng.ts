/** A seeded pseudo-random generator: same seed, same corpus and queries on every machine. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/**
 * mulberry32: small, fast, good enough for synthetic data.
 *
 * @example
 * const random = createRandom(42);
 * random.int(1, 6); // always the same first roll for seed 42
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

/**
 * Draws ranks 0..size-1 with probability proportional to 1 / (rank + 1)^exponent (Zipf).
 *
 * @example
 * const rank = createZipf(10_000, 1.05)(random); // small ranks are far more frequent
 */
export function createZipf(size: number, exponent: number): (random: Random) => number {
  const cumulative = new Float64Array(size);
  let total = 0;
  for (let rank = 0; rank < size; rank += 1) {
    total += 1 / (rank + 1) ** exponent;
    cumulative[rank] = total;
  }
  return (random) => {
    const target = random.next() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}
