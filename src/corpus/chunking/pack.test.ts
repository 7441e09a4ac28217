import { describe, expect, it } from 'vitest';
import { isLeadIn } from './pack.ts';

describe('isLeadIn', () => {
  it.each([
    ['a sentence ending with a colon', 'The following CLI options are available (`graphile-worker --help`):', true],
    ['two sentences', 'It is fast. Run it like this:', false],
    ['no colon at the end', 'Run it like this.', false],
    ['an admonition fence', ':::', false],
    ['a long paragraph', `${'word '.repeat(60)}as follows:`, false],
  ])('%s', (_name, text, expected) => {
    expect(isLeadIn({ type: 'paragraph', text })).toBe(expected);
  });

  it('is only ever a paragraph', () => {
    expect(isLeadIn({ type: 'code', text: 'key:' })).toBe(false);
  });
});
