import { describe, expect, it } from 'vitest';
import { isInformativeTerm } from './informative.ts';

describe('isInformativeTerm', () => {
  it.each([
    ['gracefulShutdownAbortTimeout', true],
    ['GRAPHILE_ENABLE_DANGEROUS_LOGS', true],
    ['Results backend', true],
    ['Hank Snow', true],
    ['issue #118', false],
    ['#4554', false],
    ['utm_campaign', false],
    ['https://github.com/sponsors/benjie', false],
    ['?utm_source=x', false],
    ['dist/cli.js', false],
    ['LoadTaskFromJsPlugin.ts', false],
    ['docker-compose.yml', false],
    ['number | undefined', false],
    ['<h1 align="center">', false],
    ['&mdash;', false],
    ['\u2764\ufe0f sponsor', false],
    ['ARRAY SELECT', false],
    ['JSON API', false],
    ['function', false],
    ['2024', false],
  ])('%s -> %s', (term, expected) => {
    expect(isInformativeTerm(term)).toBe(expected);
  });
});
