import { describe, expect, it } from 'vitest';
import { anchorMatcher } from './anchor-match.ts';

/** How each section of a page (its heading path) matches `anchor`. */
function matches(anchor: string, paths: string[][]): Array<string | undefined> {
  const matcher = anchorMatcher(anchor);
  return paths.map((path) => matcher.match(path));
}

describe('anchorMatcher', () => {
  it('names a Sphinx object in its own letter case before one that only slugs to it', () => {
    expect(matches('typing.final', [['typing', 'typing.Final'], ['typing', '@typing.final']])).toEqual(['slug', 'name']);
    expect(anchorMatcher('typing.final').slugSpelled).toBe(false);
  });

  it("reads a signature's name, a member after its owner, a domain's or a kind's prefix", () => {
    expect(matches('asyncio.create_task', [['Tasks', 'asyncio.create_task(coro, *, name=None, context=None)']])).toEqual(['name']);
    // `output` of TimeoutExpired, not the `output` of CalledProcessError before it.
    expect(
      matches('subprocess.TimeoutExpired.output', [
        ['subprocess', 'exception subprocess.CalledProcessError'],
        ['subprocess', 'exception subprocess.CalledProcessError', 'output'],
        ['subprocess', 'exception subprocess.TimeoutExpired'],
        ['subprocess', 'exception subprocess.TimeoutExpired', 'output'],
      ]),
    ).toEqual([undefined, 'tail', undefined, 'member']);
    // `datetime.isoformat()` of the class datetime, not `date.isoformat()` of the class date.
    expect(
      matches('datetime.datetime.isoformat', [
        ['datetime', 'class datetime.date()', 'date.isoformat()'],
        ['datetime', 'class datetime.datetime()', 'datetime.isoformat(sep=\'T\', timespec=\'auto\')'],
      ]),
    ).toEqual(['tail', 'member']);
    expect(matches('datetime.datetime.isoformat', [['datetime', 'date Objects', 'date.isoformat()'], ['datetime', 'datetime Objects', 'datetime.isoformat(sep=\'T\')']])).toEqual(['tail', 'member']);
    expect(matches('c.PyMem_RawRealloc', [['Memory', 'void *PyMem_RawRealloc(void *p, size_t n)']])).toEqual(['tail']);
    expect(matches('envvar-PYTHONDEBUG', [['Command line', 'PYTHONDEBUG']])).toEqual(['tail']);
    expect(matches('term-bytecode', [['Glossary', 'bytecode'], ['Glossary', 'bytecodes']])).toEqual(['kind', undefined]);
  });

  it('matches a slug, a slug that ends a heading or the heading above it with it, and nothing else', () => {
    expect(anchorMatcher('expect-hasassertions').slugSpelled).toBe(true);
    expect(matches('expect-hasassertions', [['expect', 'expect.hasAssertions'], ['expect', 'Assertions']])).toEqual(['slug', undefined]);
    expect(matches('hasassertions', [['expect', 'expect.hasAssertions']])).toEqual(['suffix']);
    expect(matches('retry-count', [['retry', 'retry'], ['retry', 'count']])).toEqual([undefined, 'slug']);
    expect(matches('count', [['Options', 'retry.count']])).toEqual(['suffix']);
    // A slug's last word is no name: "clearing" does not end `#printing-and-clearing`.
    expect(matches('printing-and-clearing', [['Errors', 'Clearing'], ['Errors', 'Printing and clearing']])).toEqual([undefined, 'slug']);
  });
});
