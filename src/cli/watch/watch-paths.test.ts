import { describe, expect, it } from 'vitest';
import { watchIgnore } from './watch-paths.ts';

describe('watchIgnore', () => {
  const ignore = watchIgnore('/work/docs', ['/work/docs/index.db']);
  it.each([
    ['/work/docs', false],
    ['/work/docs/guide.md', false],
    ['/work/docs/guides/setup.html', false],
    ['/work/docs/handbook.pdf', false],
    ['/work/docs/4913', true],
    ['/work/docs/guide.md~', true],
    ['/work/docs/.guide.md.swp', true],
    ['/work/docs/#guide.md#', true],
    ['/work/docs/guide.md___jb_tmp___', true],
    ['/work/docs/guide.md___jb_old___', true],
    ['/work/docs/handbook.pdf.part', true],
    ['/work/docs/notes.tmp', true],
    ['/work/docs/.git/index', true],
    ['/work/docs/.atlas/index.db', true],
    ['/work/docs/node_modules/pkg/README.md', true],
    ['/work/docs/index.db', true],
    ['/work/docs/index.db-wal', true],
    ['/work/docs/index.db-journal', true],
    ['/work/docs/index.db.state.db', true],
  ])('%s: ignored %s', (file, expected) => {
    expect(ignore(file)).toBe(expected);
  });
});
