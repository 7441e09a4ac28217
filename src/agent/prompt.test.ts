import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, isRepairPrompt, readSystemPrompt, repairPrompt } from './prompt.ts';

describe('prompt', () => {
  it('reads back what the system prompt announces', () => {
    expect(readSystemPrompt(buildSystemPrompt({ maxSearches: 4, filter: { version: '3.x' } }))).toEqual({ maxSearches: 4, version: '3.x' });
    expect(readSystemPrompt(buildSystemPrompt({ maxSearches: 6 }))).toEqual({ maxSearches: 6 });
  });

  it('recognises its own repair request', () => {
    expect(isRepairPrompt(repairPrompt('the reply was not JSON'))).toBe(true);
    expect(isRepairPrompt('What is a lease?')).toBe(false);
  });
});
