import { describe, expect, it } from 'vitest';
import { checkFacts, normalizeFactText } from './facts.ts';

describe('normalizeFactText', () => {
  it('undoes markdown escapes, joins wrapped lines, straightens quotes and lowercases', () => {
    expect(normalizeFactText('Defaults to `5\\_000`\n   ms \\| see the “Config” table')).toBe('defaults to `5_000` ms | see the "config" table');
    expect(normalizeFactText('  A\u00a0B\t\r\nC  ')).toBe('a b c');
    expect(normalizeFactText('a \\\\ b and c\\d')).toBe('a \\ b and c\\d'); // an escaped backslash; a backslash before a letter stays
  });

  it('decodes the HTML character references markdown renders, and leaves unknown ones', () => {
    expect(normalizeFactText('it&apos;s &lsquo;Runner&rsquo; &amp; &#39;x&#x27; &bogus; &#0;')).toBe("it's 'runner' & 'x' &bogus; &#0;");
  });
});

describe('checkFacts', () => {
  it('finds any accepted spelling in the answer text or a citation quote, ignoring case and wraps', () => {
    const texts = ['The default is five\nSECONDS.', 'job_key_mode = \'replace\' | preserve\\_run\\_at'];
    expect(checkFacts([['5_000', 'five seconds'], ['preserve_run_at'], ['REPLACE']], texts)).toEqual({ missing: [], recall: 1 });
  });

  it('lists the missing facts and the share present', () => {
    expect(checkFacts([['locked'], ['permanently failed', 'failed permanently'], ['replace']], ['It stays locked.'])).toEqual({
      missing: [['permanently failed', 'failed permanently'], ['replace']],
      recall: 0.3333333333333333,
    });
  });

  it('never matches a spelling across two texts', () => {
    expect(checkFacts([['job key']], ['a job', 'key'])).toEqual({ missing: [['job key']], recall: 0 });
  });

  it('has no recall when the case lists no facts', () => {
    expect(checkFacts([], ['anything'])).toEqual({ missing: [], recall: null });
  });
});
