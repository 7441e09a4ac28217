import { describe, expect, it } from 'vitest';
import { runPool, withRetry } from './pool.ts';

/** A promise the test resolves by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('runPool', () => {
  it('keeps at most `concurrency` in flight and returns results in input order', async () => {
    const gates = [0, 1, 2, 3, 4].map(() => deferred<void>());
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const pool = runPool([10, 20, 30, 40, 50], 2, async (item, position) => {
      started.push(position);
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await gates[position]?.promise;
      inFlight -= 1;
      return item * 2;
    });
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    // Finish out of order: 1, then 0, then the rest.
    for (const position of [1, 0, 4, 3, 2]) {
      gates[position]?.resolve();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await pool).toEqual([20, 40, 60, 80, 100]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('handles an empty list and a concurrency above the item count', async () => {
    expect(await runPool([], 4, async () => 1)).toEqual([]);
    expect(await runPool(['a'], 8, async (item) => item.toUpperCase())).toEqual(['A']);
  });
});

describe('withRetry', () => {
  it('retries a thrown task once after the backoff and returns the second result', async () => {
    const slept: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        calls += 1;
        if (calls === 1) throw new Error('429 Too Many Requests');
        return 'ok';
      },
      { sleep: async (ms) => void slept.push(ms), onRetry: (attempt, reason) => slept.push(attempt, reason.length) },
    );
    expect(result).toBe('ok');
    expect(slept).toEqual([1, '429 Too Many Requests'.length, 2000]);
  });

  it('returns the last failed result, and rethrows when every attempt threw', async () => {
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    expect(await withRetry(async () => 'error', { failed: (value) => value === 'error', retries: 2, backoffMs: 10, sleep })).toBe('error');
    expect(slept).toEqual([10, 20]);
    await expect(withRetry(async () => Promise.reject(new Error('down')), { sleep })).rejects.toThrow('down');
  });
});
