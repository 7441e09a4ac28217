import { describe, expect, it } from 'vitest';
import { linkTargetDocIds } from './link-targets.ts';

describe('linkTargetDocIds', () => {
  it('reads a site-rooted link with and without its leading segments', () => {
    expect(linkTargetDocIds('/docs/worker-events.md', 'techniques')).toEqual(['docs-worker-events', 'worker-events']);
    expect(linkTargetDocIds('/docs/library/add-job.md#options', 'cron')).toEqual(['docs-library-add-job', 'library-add-job', 'add-job']);
  });

  it('tries a link without a page extension as a page first, then as a folder with an index or README page', () => {
    expect(linkTargetDocIds('/docs/cli', 'techniques')).toEqual(['docs-cli', 'cli', 'docs-cli-index', 'cli-index', 'docs-cli-readme', 'cli-readme']);
    expect(linkTargetDocIds('./guides/', 'index')).toEqual(['guides', 'guides-index', 'guides-readme']);
  });

  it('resolves a relative link in every folder the linking id can stand for, deepest first', () => {
    expect(linkTargetDocIds('leases.md', 'retries')).toEqual(['leases']);
    expect(linkTargetDocIds('./add-job.md', 'library-queue')).toEqual(['library-add-job', 'add-job']);
    expect(linkTargetDocIds('../job-key.md#replacing', 'library-add-job')).toEqual(['library-job-key', 'job-key']);
    expect(linkTargetDocIds('Getting%20Started.md', 'guides-intro')).toEqual(['guides-getting-started', 'getting-started']);
    expect(linkTargetDocIds('../../a.md', 'x-y')).toEqual(['a']);
  });

  it('yields nothing for external links, mail links and pure anchors', () => {
    expect(linkTargetDocIds('https://example.com/docs/leases', 'retries')).toEqual([]);
    expect(linkTargetDocIds('//cdn.example.com/a.md', 'retries')).toEqual([]);
    expect(linkTargetDocIds('mailto:team@example.com', 'retries')).toEqual([]);
    expect(linkTargetDocIds('#options', 'retries')).toEqual([]);
    expect(linkTargetDocIds('', 'retries')).toEqual([]);
  });
});
