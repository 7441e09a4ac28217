import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { continuationNote, estimateTokens, offsetError, sectionPage, type SectionPage } from './section-page.ts';

/** Every page of `text` from offset 0, following nextOffset. */
function allPages(text: string, maxTokens: number): SectionPage[] {
  const pages = [sectionPage(text, { offset: 0, maxTokens })];
  for (let next = pages[0]?.nextOffset; next !== null && next !== undefined; next = pages.at(-1)?.nextOffset) {
    pages.push(sectionPage(text, { offset: next, maxTokens }));
  }
  return pages;
}

/** The first page at 10 tokens (40 characters; the cut is looked for in characters 20 to 40). */
const firstPage = (text: string) => sectionPage(text, { offset: 0, maxTokens: 10 });

describe('estimateTokens', () => {
  it('is characters / 4, rounded up', () => {
    expect(estimateTokens('lease_seconds = 30')).toBe(5);
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens(10_239)).toBe(2560);
  });
});

describe('sectionPage', () => {
  it('returns a short section whole, marked complete', () => {
    expect(firstPage('Steps run in order.')).toEqual({
      text: 'Steps run in order.',
      offset: 0,
      nextOffset: null,
      totalChars: 19,
      remainingChars: 0,
      complete: true,
    });
    expect(firstPage('')).toEqual({ text: '', offset: 0, nextOffset: null, totalChars: 0, remainingChars: 0, complete: true });
  });

  it('prefers a paragraph end, then a line end after a sentence, then a sentence end, then any line end', () => {
    expect(firstPage('aaaa bbbb cccc dddd eeee.\n\nffff gggg hhhh iiii')).toMatchObject({
      text: 'aaaa bbbb cccc dddd eeee.\n\n',
      nextOffset: 27,
      remainingChars: 19,
      complete: false,
    });
    expect(firstPage('aaaa bbbb cccc dddd eeee.\nffff gggg\nhhhh iiii jjjj').text).toBe('aaaa bbbb cccc dddd eeee.\n');
    expect(firstPage('aaaa bbbb cccc dddd eeee. ffff gggg\nhhhh iiii jjjj').text).toBe('aaaa bbbb cccc dddd eeee. ');
    expect(firstPage('aaaa bbbb cccc dddd eeee ffff\ngggg hhhh iiii').text).toBe('aaaa bbbb cccc dddd eeee ffff\n');
    expect(firstPage('| a | b |\n| c | d |\n| e | f |\n| g | h |\n| i | j |').text).toBe('| a | b |\n| c | d |\n| e | f |\n| g | h |\n');
  });

  it('ends the page before a trailing heading, with the text it introduces', () => {
    expect(firstPage('aaaa bbbb cccc dddd.\n\n## Next\n\nffff gggg hhhh')).toMatchObject({ text: 'aaaa bbbb cccc dddd.\n\n', nextOffset: 22 });
  });

  it('falls back to the last whitespace, and cuts inside a word only when one word fills the page', () => {
    expect(firstPage('aaaa bbbb cccc dddd eeee ffff gggg hhhhhhhhhh')).toMatchObject({ text: 'aaaa bbbb cccc dddd eeee ffff gggg ', nextOffset: 35 });
    expect(allPages('x'.repeat(100), 10).map((page) => [page.offset, page.text.length, page.nextOffset])).toEqual([
      [0, 40, 40],
      [40, 40, 80],
      [80, 20, null],
    ]);
    // Character 39 is the first half of an emoji: the cut moves before it.
    expect(firstPage(`a${'😀'.repeat(30)}`)).toMatchObject({ text: `a${'😀'.repeat(19)}`, nextOffset: 39 });
  });

  it('starts at the offset it is given', () => {
    expect(sectionPage('aaaa bbbb cccc dddd eeee.\n\nffff gggg hhhh iiii', { offset: 27, maxTokens: 10 })).toEqual({
      text: 'ffff gggg hhhh iiii',
      offset: 27,
      nextOffset: null,
      totalChars: 46,
      remainingChars: 0,
      complete: true,
    });
  });

  it('pages through any text exactly once, within budget, never splitting a word that fits in a page', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\n', '.', '|', '#', '😀');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }).map((units) => units.join('')), fc.integer({ min: 1, max: 40 }), (text, maxTokens) => {
        const pages = allPages(text, maxTokens);
        expect(pages.map((page) => page.text).join('')).toBe(text);
        for (const [position, page] of pages.entries()) {
          expect(page.text.length).toBeLessThanOrEqual(maxTokens * 4);
          expect(page.complete).toBe(position === pages.length - 1);
          if (page.nextOffset === null) continue;
          expect(page.nextOffset).toBeGreaterThan(page.offset);
          const code = text.charCodeAt(page.nextOffset - 1);
          expect(code >= 0xd800 && code <= 0xdbff).toBe(false);
          const midWord = /\S/.test(text[page.nextOffset - 1] ?? ' ') && /\S/.test(text[page.nextOffset] ?? ' ');
          if (midWord) expect(page.text.slice(1)).not.toMatch(/\s/);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('offsetError', () => {
  it('accepts 0 to the last character, and 0 for an empty section', () => {
    expect(offsetError(0, 'codes#1', 10)).toBeUndefined();
    expect(offsetError(9, 'codes#1', 10)).toBeUndefined();
    expect(offsetError(0, 'empty#0', 0)).toBeUndefined();
  });

  it('names the offset, the chunk and the fix', () => {
    expect(offsetError(-1, 'codes#1', 10)).toBe(
      'invalid offset -1 for "codes#1": an offset is a whole number of characters from 0; use 0 for the start, or the next_offset of the page you read last.',
    );
    expect(offsetError(2.5, 'codes#1', 10)).toBe(
      'invalid offset 2.5 for "codes#1": an offset is a whole number of characters from 0; use 0 for the start, or the next_offset of the page you read last.',
    );
    expect(offsetError(10, 'codes#1', 10)).toBe(
      'offset 10 is past the end of "codes#1" (10 characters, last offset 9); use 0 for the start, or the next_offset of the page you read last.',
    );
  });
});

describe('continuationNote', () => {
  it('says how much is left and the exact call that reads on, and nothing for a complete page', () => {
    const text = 'aaaa bbbb cccc dddd eeee.\n\nffff gggg hhhh iiii';
    expect(continuationNote('notes#2', firstPage(text))).toBe(
      '19 more characters (about 5 tokens): call read_section with chunk_id "notes#2" and offset 27 to read on.',
    );
    expect(continuationNote('notes#2', sectionPage(text, { offset: 27, maxTokens: 10 }))).toBeUndefined();
  });
});
