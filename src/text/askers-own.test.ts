import { describe, expect, it } from 'vitest';
import { askersOwn, isRelativePath } from './askers-own.ts';

describe('askersOwn', () => {
  it('reads a relative path as the asker\'s own, and no absolute or home path, URL, scoped package, setting or I/O', () => {
    expect(['csrc/', 'config/settings.toml', 'out/reports/2024', './src/app.ts'].map(isRelativePath)).toEqual([true, true, true, true]);
    expect(['/etc/orbit/orbit.toml', '~/.ssh/config', '@vitest/browser', 'I/O', 'CI/CD', 'https://x.dev/a', 'cargo::metadata=include=/opt/foo/include'].map(isRelativePath)).toEqual([
      false, false, false, false, false, false, false,
    ]);
  });

  it('reads a name right after "my" or "our" as the asker\'s own, a code span\'s too, and no other name', () => {
    const question = "My `foo-sys` crate calls our HTTP API and Apache Kafka; does my team's Redis count?";
    expect(['foo-sys', 'HTTP API', 'Apache Kafka', 'Redis'].map((anchor) => askersOwn(question, anchor))).toEqual([true, true, false, false]);
  });
});
