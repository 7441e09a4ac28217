import { describe, expect, it } from 'vitest';
import { meaningfulLength } from './meaningful-length.ts';

describe('meaningfulLength', () => {
  it.each([
    ['a sentence: letters and digits only', 'Default value: `2000`.', 16],
    ['a badge line', '[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x) [![CI](https://ci/x.svg)](https://ci/x)', 0],
    ['a link-only table of contents', '- [Install](#install)\n  - [From npm](#from-npm)\n- [Usage](#usage)', 0],
    ['a pointer', 'See [`addJob`](./library/add-job.md) first.', 8],
    ['a bare URL and a reference definition', 'Docs: https://worker.graphile.org/docs\n\n[docs]: https://worker.graphile.org', 4],
    ['non-ASCII letters', 'Größe', 5],
    ['an empty text', '', 0],
  ])('%s', (_name, text, length) => {
    expect(meaningfulLength(text)).toBe(length);
  });

  it('stops counting at enough, and counts exactly below it', () => {
    expect(meaningfulLength('Retries back off exponentially.', 5)).toBe(5);
    expect(meaningfulLength('Retries back off exponentially.', 27)).toBe(27);
    expect(meaningfulLength('Retries back off exponentially.', 28)).toBe(27);
    expect(meaningfulLength('See [Install](./install.md) first.', 5)).toBe(5);
    expect(meaningfulLength('See [Install](./install.md) first.', 100)).toBe(8);
  });

  // A scan that restarted at every unclosed bracket would be quadratic here (2.5e9 steps) and run into vitest's own time limit.
  it('stays linear on brackets that never close', () => {
    expect(meaningfulLength('[a'.repeat(50_000))).toBe(50_000);
  });
});
