import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { SearchSession } from './search-session.ts';
import { executeToolCall } from './tools.ts';

const index = createMemoryIndex([makeDoc('notes', 'all', [['Notes', 'aaaa bbbb cccc dddd eeee.\n\nffff gggg hhhh iiii']])]);
const offsetRule =
  'offset: offset must be a whole number of characters from 0: use 0 for the start, or the next_offset of the page you read last';
const invalid = (issue: string) => ({
  ok: false,
  error: `invalid arguments for read_section: ${issue}. Send a JSON object matching the tool schema.`,
});

describe('executeToolCall', () => {
  it('reads on from the offset the model passes', async () => {
    const session = new SearchSession({ index, readTokens: 10 });
    const first = await executeToolCall(session, 'read_section', { chunk_id: 'notes#0' });
    expect(first.ok && [first.value.text, first.value.next_offset]).toEqual(['aaaa bbbb cccc dddd eeee.\n\n', 27]);
    const second = await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 27 });
    expect(second.ok && [second.value.text, second.value.complete]).toEqual(['ffff gggg hhhh iiii', true]);
  });

  it('answers an offset that is negative, fractional or not a number with the rule and the fix', async () => {
    const session = new SearchSession({ index });
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: -5 })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 2.5 })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: '27' })).toEqual(invalid(offsetRule));
    expect(await executeToolCall(session, 'read_section', { chunk_id: 'notes#0', offset: 46 })).toEqual({
      ok: false,
      error: 'offset 46 is past the end of "notes#0" (46 characters, last offset 45); use 0 for the start, or the next_offset of the page you read last.',
    });
  });

});
