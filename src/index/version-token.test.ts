import { describe, expect, it } from 'vitest';
import { versionMatch, versionToken } from './version-token.ts';

describe('versionToken', () => {
  it('is one digit-only token after a v for any value, distinct per value', () => {
    expect(versionToken('3.x')).toBe('v051046120');
    expect(versionToken('all')).toBe('v097108108');
    expect(versionToken('é')).toBe('v195169');
    expect(new Set(['2.x', '3.x', '3.X', 'all', 'v3']).size).toBe(new Set(['2.x', '3.x', '3.X', 'all', 'v3'].map(versionToken)).size);
  });
});

describe('versionMatch', () => {
  it('keeps the terms and the version or "all", in the versions column', () => {
    expect(versionMatch('"lease" OR "timeout"', '3.x')).toBe('("lease" OR "timeout") AND versions : ("v051046120" OR "v097108108")');
    expect(versionMatch('"lease"', 'all')).toBe('("lease") AND versions : ("v097108108")');
  });
});
