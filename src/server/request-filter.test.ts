import { describe, expect, it } from 'vitest';
import { narrowFilter } from './request-filter.ts';

describe('narrowFilter', () => {
  const staff = { groups: ['staff'] };

  it('without a server filter the request sets it; the principal is always the token\'s', () => {
    expect(narrowFilter(undefined, { version: '2.x', labels: { store: ['Aundh'] } }, staff)).toEqual({ filter: { version: '2.x', labels: { store: ['Aundh'] }, principal: staff }, notes: [] });
    expect(narrowFilter(undefined, {}, undefined)).toEqual({ filter: undefined, notes: [] });
  });

  it('the same release line keeps it; another keeps only pages for all versions, with a note', () => {
    expect(narrowFilter({ version: '3.x' }, { version: '3.x' }, undefined).filter).toEqual({ version: '3.x' });
    expect(narrowFilter({ version: '3.x' }, {}, undefined).filter).toEqual({ version: '3.x' });
    expect(narrowFilter({ version: '3.x' }, { version: '2.x' }, undefined)).toEqual({
      filter: { version: 'all' },
      notes: ['version "2.x" is outside the server\'s release line "3.x"; only pages for all versions match.'],
    });
  });

  it('label values intersect with the server\'s; none left keeps only the pages for all values', () => {
    const server = { labels: { store: ['Aundh', 'Baner'], section: 'guides' } };
    expect(narrowFilter(server, { labels: { store: ['Baner'] } }, undefined)).toEqual({ filter: { labels: { store: ['Baner'], section: 'guides' } }, notes: [] });
    expect(narrowFilter(server, { labels: { store: ['Baner', 'Kothrud'], region: ['west'] } }, undefined)).toEqual({
      filter: { labels: { store: ['Baner'], section: 'guides', region: ['west'] } },
      notes: ['labels.store: "Kothrud" is outside the server\'s filter (Aundh, Baner); only Baner match.'],
    });
    expect(narrowFilter(server, { labels: { section: ['api', 'concepts'] } }, undefined)).toEqual({
      filter: { labels: { store: ['Aundh', 'Baner'], section: ['all'] } },
      notes: ['labels.section: "api", "concepts" are outside the server\'s filter (guides); pages for all values of "section" match.'],
    });
    expect(narrowFilter(server, { labels: { store: ['all'] } }, undefined).filter).toEqual({ labels: { store: ['all'], section: 'guides' } });
  });

  it('refuses labels.acl: access comes from the token', () => {
    expect(() => narrowFilter(undefined, { labels: { acl: ['admins'] } }, undefined)).toThrow('Atlas: labels.acl: access is not a label filter');
  });
});
