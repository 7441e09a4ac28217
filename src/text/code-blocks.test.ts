import { describe, expect, it } from 'vitest';
import { codeAfter } from './code-blocks.ts';

describe('codeAfter', () => {
  it('finds the code block after a sentence wrapped over lines, with the quote of both', () => {
    const text = 'The following CLI options\nare available:\n\n```\n-j, --jobs  number of jobs\n```\n\nMore.';
    expect(codeAfter(['Other text.', text], 'The following CLI options are available:')).toEqual({
      code: '-j, --jobs  number of jobs',
      quote: 'The following CLI options\nare available:\n\n```\n-j, --jobs  number of jobs\n```',
    });
    expect(codeAfter([text], 'More.')).toBeUndefined();
  });
});
