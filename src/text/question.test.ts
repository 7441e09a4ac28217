import { describe, expect, it } from 'vitest';
import { analyzeQuestion, detectVersion, needsSearch } from './question.ts';

describe('detectVersion', () => {
  it.each([
    ['How do I set the lease on 3.x?', '3.x'],
    ['Is this different in v2?', '2.x'],
    ['What changed in Orbit 3?', '3.x'],
    ['Does version 2 read orbit.yaml?', '2.x'],
    ['Which settings exist in Orbit 2.9.4?', '2.x'],
    ['Where is the config file on 3.2?', '3.x'],
  ])('%s -> %s', (question, version) => {
    expect(detectVersion(question)).toBe(version);
  });

  it.each(['Why does a job fail after 3 retries?', 'The lease is 60 seconds, why?', 'Can I run Worker 5 times?', 'What is ORB-1202?'])(
    'finds no release line in %s',
    (question) => {
      expect(detectVersion(question)).toBeUndefined();
    },
  );
});

describe('analyzeQuestion', () => {
  it('splits a question into the facts it needs', () => {
    const analysis = analyzeQuestion(
      'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?',
    );
    expect(analysis.parts.map((part) => part.text)).toEqual([
      'A flow step that returns a big query result fails after finishing its work',
      'which error is it',
      'what should the step return instead',
    ]);
    expect(analysis.compositional).toBe(true);
  });

  it('splits comparisons and keeps named things as key terms', () => {
    const analysis = analyzeQuestion('Does Redis versus Amazon SQS honour job priorities?');
    expect(analysis.parts.map((part) => part.text)).toEqual(['Does Redis', 'Amazon SQS honour job priorities']);
    expect(analysis.anchors).toEqual(['Redis', 'Amazon SQS']);
    expect(analysis.keyTerms).toEqual(['redis', 'amazon', 'sqs']);
  });

  it('takes no question word for a name, behind an opening mark too', () => {
    expect(analyzeQuestion('¿Cómo puedo recuperar archivos borrados en un sistema de archivos ext2?').anchors).toEqual([]);
    expect(analyzeQuestion('Walk me through Damerjog’s history').anchors).toEqual(['Damerjog']);
  });

  it("takes the names in the asker's own code for anchors, not the code: the docs do not write it", () => {
    expect(analyzeQuestion('If a command started with `subprocess.run(..., timeout=30)` runs too long, what happens?').anchors).toEqual(['subprocess.run']);
    expect(analyzeQuestion("With `d = collections.defaultdict(list)`, `d.get('x')` returns `None` and `d['x']` gives `[]`.").anchors).toEqual(['collections.defaultdict', 'd.get', 'None']);
    expect(analyzeQuestion('Declaring a field as `items: list = []` or doing `t[0] += [4]` fails.').anchors).toEqual([]);
    expect(analyzeQuestion('My root `Cargo.toml` has a `[workspace]` table, `links = "foo"` and `#[derive(Debug)]` on a struct.').anchors).toEqual([
      'Cargo.toml',
      '[workspace]',
      'links = "foo"',
      '#[derive(Debug)]',
      'Debug',
    ]);
    // Names with their own punctuation are names.
    expect(analyzeQuestion('Does `ThreadPoolExecutor()` honour `--update=none` and `injectCjsGlobals: false`?').anchors).toEqual([
      'ThreadPoolExecutor()',
      'ThreadPoolExecutor',
      '--update=none',
      'injectCjsGlobals: false',
      'injectCjsGlobals',
    ]);
  });
});

describe('needsSearch', () => {
  it.each([
    ['hi there!', false],
    ['thanks, that helped', false],
    ['what did you just say?', false],
    ['can you repeat that shorter?', false],
    ['How do I reverse a list in Python?', false],
    ['What is a mutex?', false],
    ['How do I enqueue a job from Python?', true],
    ['What does ORB-1202 mean?', true],
    ['Why do my workers run the same job twice?', true],
    ['What is a lease?', true],
    ['what is 17 times 23?', false],
    ['why did you cite that page?', false],
    ['How many workers can run 3 times faster?', true],
  ])('%s -> %s', (question, expected) => {
    expect(needsSearch(question)).toBe(expected);
  });
});
