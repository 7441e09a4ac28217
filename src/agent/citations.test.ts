import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { verifyCitations } from './citations.ts';
import { SearchSession } from './search-session.ts';

/** 40 hard-wrapped lines of 50 characters: two pages at 300 tokens (1,200 characters). */
const lines = Array.from({ length: 40 }, (_, line) => `Line ${String(line).padStart(2, '0')} says that setting ${String(line).padStart(2, '0')} is on.`.padEnd(49, '.'));
const longText = lines.join('\n');
const index = createMemoryIndex([
  makeDoc('settings', 'all', [
    ['Settings', 'Every setting is listed below.'],
    ['All settings', longText],
  ]),
]);

describe('verifyCitations', () => {
  it('verifies a quote from page 2 of a long section only after page 2 was read, located with its heading path', async () => {
    const session = new SearchSession({ index, readTokens: 300 });
    const citation = { doc_id: 'settings', quote: 'Line 30 says that setting 30 is on.' };
    const first = await session.readSection({ chunk_id: 'settings#1' });
    expect(first.ok && [first.value.next_offset, first.value.text.includes('Line 30')]).toEqual([1200, false]);
    expect(verifyCitations([citation], session.evidence)).toEqual({
      kept: [],
      dropped: [
        {
          docId: 'settings',
          quote: 'Line 30 says that setting 30 is on.',
          reason: 'quote does not occur in the passages of "settings" that this run saw or read',
        },
      ],
    });
    await session.readSection({ chunk_id: 'settings#1', offset: 1200 });
    expect(verifyCitations([citation], session.evidence)).toEqual({
      kept: [
        {
          docId: 'settings',
          quote: 'Line 30 says that setting 30 is on.',
          chunkId: 'settings#1',
          heading: 'All settings',
          headingPath: ['Settings', 'All settings'],
          sourcePath: 'settings.md',
          startLine: 34,
          endLine: 34,
        },
      ],
      dropped: [],
    });
  });
});
