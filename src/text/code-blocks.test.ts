import { describe, expect, it } from 'vitest';
import { codeAfter, codeEntries, showsDiff } from './code-blocks.ts';

const help = [
  'Options:',
  '      --help                    Show help                              [boolean]',
  '  -m, --max-pool-size           maximum size of the PostgreSQL pool     [number]',
  '      --poll-interval           how long to wait between polling for jobs in',
  '                                milliseconds (for jobs scheduled in the',
  '                                future/retries)                         [number]',
  '      --cleanup                 Clean the database, then exit. Accepts a',
  '                                comma-separated list of cleanup tasks:',
  '                                GC_TASK_IDENTIFIERS, GC_JOB_QUEUES,',
  '                                DELETE_PERMAFAILED_JOBS                 [string]',
].join('\n');

describe('codeEntries', () => {
  it('reads a --help listing as its options, each with its wrapped description, whatever the option column\'s indent', () => {
    const lines = help.split('\n');
    expect(codeEntries(help)).toEqual([lines[0], lines[1], lines[2], lines.slice(3, 6).join('\n'), lines.slice(6, 9).join('\n')]);
  });

  it('gives a line that opens a block alone, a call its continuation, and a comment to the line below it', () => {
    const code = ['interface Events {', '  /**', '   * When a job fails permanently', '   */', '  "job:failed": { job: Job };', '', 'run(a,', '    b)', 'x = 1'].join('\n');
    expect(codeEntries(code)).toEqual([
      'interface Events {',
      '  /**\n   * When a job fails permanently\n   */\n  "job:failed": { job: Job };',
      'run(a,\n    b)',
      'x = 1',
    ]);
  });

  it('keeps the nearest 4 comment lines above an entry', () => {
    const comment = ['# one', '# two', '# three', '# four', '# five'];
    expect(codeEntries([...comment, 'run --fast'].join('\n'))).toEqual([[...comment.slice(1), 'run --fast'].join('\n')]);
  });
});

describe('codeAfter', () => {
  it('finds the code block after a sentence wrapped over lines, with the quote of both', () => {
    const text = 'The following CLI options\nare available:\n\n```\n-j, --jobs  number of jobs\n```\n\nMore.';
    expect(codeAfter(['Other text.', text], 'The following CLI options are available:')).toEqual({
      code: '-j, --jobs  number of jobs',
      quote: 'The following CLI options\nare available:\n\n```\n-j, --jobs  number of jobs\n```',
    });
    expect(codeAfter([text], 'More.')).toBeUndefined();
  });
});

describe('showsDiff', () => {
  it('tells a VitePress diff from code that only writes a comment', () => {
    expect(showsDiff('timeout: 5000, // [!code --]\ntimeout: 10_000, // [!code ++]')).toBe(true);
    expect(showsDiff('timeout: 5000, // [!code warning]')).toBe(false);
  });
});
