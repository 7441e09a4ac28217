import { describe, expect, it } from 'vitest';
import type { Definitions } from './definitions.ts';
import { putDefinitionsFirst, type RankedCandidate } from './definitions-first.ts';
import { queryIdentifiers } from './identifiers.ts';

const none: Definitions = { headings: [], lines: [] };
const candidate = (id: string, score: number, definitions: Partial<Definitions> = {}): RankedCandidate => ({
  id,
  score,
  definitions: { ...none, ...definitions },
});
const run = (ranked: RankedCandidate[], definers: RankedCandidate[], query: string, k = 10) =>
  putDefinitionsFirst(ranked, definers, queryIdentifiers(query), k).map((hit) => `${hit.id}:${hit.score}`);

describe('putDefinitionsFirst', () => {
  const ranked = [candidate('a', 9), candidate('b', 7), candidate('c', 5)];

  it('moves the best definer of each identifier in front and raises its score by the best score', () => {
    const far = candidate('far', 2, { headings: ['orb-1202'] });
    const weaker = candidate('weaker', 1, { headings: ['orb-1202'] });
    expect(run(ranked, [weaker, far], 'ORB-1202')).toEqual(['far:11', 'a:9', 'b:7', 'c:5']);
    expect(run(ranked, [weaker, far], 'ORB-1202', 2)).toEqual(['far:11', 'a:9']);
  });

  it('keeps the ranking when nothing defines the names, or the query names none', () => {
    expect(run(ranked, [candidate('x', 3, { lines: ['other'] })], 'ORB-1202', 2)).toEqual(['a:9', 'b:7']);
    expect(run(ranked, [candidate('x', 3, { headings: ['orb-1202'] })], 'orb 1202')).toEqual(['a:9', 'b:7', 'c:5']);
  });

  it('prefers same spelling in a heading, then in a line, then the same key in a heading, then in a line', () => {
    const keyLine = candidate('key-line', 8, { lines: ['addjob'] });
    const keyHeading = candidate('key-heading', 6, { headings: ['graphile_worker.addjob'] });
    const spellingLine = candidate('spelling-line', 4, { lines: ['add_job'] });
    const spellingHeading = candidate('spelling-heading', 2, { headings: ['graphile_worker.add_job'] });
    const all = [keyLine, keyHeading, spellingLine, spellingHeading];
    expect(run([], all, 'add_job')[0]).toBe('spelling-heading:10');
    expect(run([], all.slice(0, 3), 'add_job')[0]).toBe('spelling-line:12');
    expect(run([], all.slice(0, 2), 'add_job')[0]).toBe('key-heading:14');
    expect(run([], all.slice(0, 1), 'add_job')).toEqual(['key-line:16']);
  });

  it('tries the whole spelling before the last segment', () => {
    const qualified = candidate('qualified', 1, { lines: ['graphile_worker.force_unlock_workers'] });
    const short = candidate('short', 5, { headings: ['forceunlockworkers'] });
    expect(run([], [short, qualified], 'graphile_worker.force_unlock_workers')).toEqual(['qualified:6']);
    expect(run([], [short], 'graphile_worker.force_unlock_workers')).toEqual(['short:10']);
  });

  it('moves one chunk per identifier, once, in score order', () => {
    const both = candidate('both', 3, { headings: ['orb-1404', 'steptimeout'] });
    const other = candidate('other', 4, { lines: ['--schema'] });
    expect(run(ranked, [both, other], 'ORB-1404 StepTimeout --schema')).toEqual(['other:13', 'both:12', 'a:9', 'b:7', 'c:5']);
    expect(run([...ranked, both], [both], 'StepTimeout')).toEqual(['both:12', 'a:9', 'b:7', 'c:5']);
  });
});
