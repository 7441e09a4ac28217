import { describe, expect, it } from 'vitest';
import { createIngestWatcher, type WatchEvent } from './ingest-watcher.ts';
import { manualTimers, scriptedWatcher } from './test-watch.ts';

/** A watcher over a scripted folder whose ingest the test settles by hand. */
function setup(options: { fail?: (call: number) => boolean } = {}) {
  const timers = manualTimers();
  const folder = scriptedWatcher();
  const events: Array<WatchEvent<number>> = [];
  const calls: string[][] = [];
  let release: (() => void) | undefined;
  const watcher = createIngestWatcher<number>({
    root: '/docs',
    timers,
    createWatcher: folder.create,
    onEvent: (event) => events.push(event),
    ingest: (changes) => {
      calls.push(changes);
      const call = calls.length;
      return new Promise<number>((resolve, reject) => {
        release = () => (options.fail?.(call) ? reject(new Error(`ingest ${call} failed`)) : resolve(call));
      });
    },
  });
  const finish = async () => {
    release?.();
    release = undefined;
    await watcher.idle();
  };
  return { timers, folder, events, calls, watcher, finish };
}

describe('createIngestWatcher', () => {
  it('ingests a burst of changes once, 300 ms after the last of them', async () => {
    const { timers, folder, calls, events, finish } = setup();
    folder.change('/docs/guide.md');
    timers.advance(100);
    folder.change('/docs/guide.md.tmp-123');
    folder.change('/docs/faq.md');
    timers.advance(299);
    expect(calls).toEqual([]);
    timers.advance(1);
    expect(calls).toEqual([['/docs/faq.md', '/docs/guide.md', '/docs/guide.md.tmp-123']]);
    timers.advance(50);
    await finish();
    expect(events).toEqual([
      { type: 'ingest-start', changes: ['/docs/faq.md', '/docs/guide.md', '/docs/guide.md.tmp-123'] },
      { type: 'ingest-end', changes: ['/docs/faq.md', '/docs/guide.md', '/docs/guide.md.tmp-123'], result: 1, ms: 50 },
    ]);
  });

  it('changes that keep coming are ingested 1 s after the first, not never', async () => {
    const { timers, folder, calls } = setup();
    for (let at = 0; at < 1000; at += 200) {
      folder.change(`/docs/page-${at}.md`);
      timers.advance(200);
    }
    expect(calls).toEqual([['/docs/page-0.md', '/docs/page-200.md', '/docs/page-400.md', '/docs/page-600.md', '/docs/page-800.md']]);
  });

  it('ingests never overlap: changes made during an ingest are ingested once after it', async () => {
    const { timers, folder, calls, finish } = setup();
    folder.change('/docs/a.md');
    timers.advance(300);
    folder.change('/docs/b.md');
    folder.change('/docs/c.md');
    timers.advance(5000);
    expect(calls).toEqual([['/docs/a.md']]);
    await finish();
    expect(timers.pending()).toBe(1);
    timers.advance(300);
    expect(calls).toEqual([['/docs/a.md'], ['/docs/b.md', '/docs/c.md']]);
  });

  it('a failed ingest is reported and watching goes on', async () => {
    const { timers, folder, calls, events, finish } = setup({ fail: (call) => call === 1 });
    folder.change('/docs/broken.md');
    timers.advance(300);
    await finish();
    folder.change('/docs/broken.md');
    timers.advance(300);
    await finish();
    expect(calls).toEqual([['/docs/broken.md'], ['/docs/broken.md']]);
    expect(events.map((event) => (event.type === 'ingest-error' ? `${event.type}: ${(event.error as Error).message}` : event.type))).toEqual(['ingest-start', 'ingest-error: ingest 1 failed', 'ingest-start', 'ingest-end']);
  });

  it('a watch error is reported as an event', () => {
    const { folder, events } = setup();
    folder.error(new Error('EMFILE: too many open files'));
    expect(events).toEqual([{ type: 'watch-error', error: new Error('EMFILE: too many open files') }]);
  });

  it('close cancels a pending ingest, closes the file watcher and waits for the running ingest', async () => {
    const { timers, folder, calls, watcher, finish } = setup();
    folder.change('/docs/a.md');
    timers.advance(300);
    folder.change('/docs/b.md');
    let closed = false;
    const closing = watcher.close().then(() => (closed = true));
    await Promise.resolve();
    expect(folder.closed()).toBe(true);
    expect(closed).toBe(false);
    await finish();
    await closing;
    expect(closed).toBe(true);
    timers.advance(10_000);
    expect(calls).toEqual([['/docs/a.md']]);
    expect(timers.pending()).toBe(0);
  });
});
