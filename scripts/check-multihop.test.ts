import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkMultiHop, findLeaks, keyTermsOfPages, type MultiHopCheck, type PageSource } from './check-multihop.ts';

const orbitDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'datasets', 'orbit');

const fixturePages: PageSource[] = [
  {
    docId: 'dead-letters',
    title: 'Dead-letter queues',
    body: '# Dead-letter queues\n\nJobs of a queue land in `billing.dlq` with `ORB-1301 RetriesExhausted`.\n\n## Flows and the DLQ\n\n```bash\norbit dlq purge_all_fenced\n```\n',
  },
  {
    docId: 'troubleshooting-memory',
    title: 'Troubleshooting memory growth',
    body: '# Troubleshooting memory growth\n\nA queue worker grows. Set `[worker] max_tasks_per_child` or run `orbit config check --config x`.\n',
  },
  { docId: 'troubleshooting-stuck-jobs', title: 'Troubleshooting stuck jobs', body: '# Troubleshooting stuck jobs\n\nRun `orbit jobs requeue` on the queue.\n' },
  { docId: 'troubleshooting-duplicates', title: 'Troubleshooting duplicate jobs', body: '# Troubleshooting duplicate jobs\n\nSee the lease of the queue.\n' },
];

describe('checkMultiHop on datasets/orbit', () => {
  let checks: MultiHopCheck[] = [];
  beforeAll(async () => {
    checks = await checkMultiHop(orbitDir);
  });

  it('checks at least 20 multi_hop queries and finds no leak', () => {
    expect(checks.length).toBeGreaterThanOrEqual(20);
    expect(checks.filter((check) => check.leaked.length > 0)).toEqual([]);
    expect(checks.every((check) => check.keyTerms.length > 0)).toBe(true);
  });

  it('knows the key terms of the real dead-letters page', () => {
    const check = checks.find((item) => item.lastDoc === 'dead-letters');
    expect(check?.keyTerms).toEqual(expect.arrayContaining(['dead-letter', 'DLQ', 'ORB-1301', 'billing.dlq', 'orbit dlq list']));
  });
});

describe('keyTermsOfPages', () => {
  it('takes identifiers from code spans and headings, rare heading acronyms and rare title words, but not fenced code or generic words', () => {
    const terms = keyTermsOfPages(fixturePages);
    expect(terms.get('dead-letters')).toEqual(['DLQ', 'ORB-1301', 'RetriesExhausted', 'billing.dlq', 'dead-letter']);
    expect(terms.get('troubleshooting-memory')).toEqual(['growth', 'max_tasks_per_child', 'memory', 'orbit config check']);
  });
});

describe('findLeaks', () => {
  const terms = keyTermsOfPages(fixturePages);

  it('reports a query that names the last page in other inflections', () => {
    const query = 'My job gave up; how do I replay the Dead Letters of billing?';
    expect(findLeaks(query, terms.get('dead-letters') ?? [])).toEqual(['dead-letter']);
  });

  it('reports identifiers case-insensitively on word boundaries only', () => {
    expect(findLeaks('What is MAX_TASKS_PER_CHILD?', terms.get('troubleshooting-memory') ?? [])).toEqual(['max_tasks_per_child']);
    expect(findLeaks('What is ORBIT_MAX_TASKS_PER_CHILD_X?', terms.get('troubleshooting-memory') ?? [])).toEqual([]);
    expect(findLeaks('what is a dlq, and orb-1301?', terms.get('dead-letters') ?? [])).toEqual(['DLQ', 'ORB-1301']);
  });

  it('ignores words common to many titles and lets a described query pass', () => {
    expect(findLeaks('Troubleshooting: my jobs keep failing', terms.get('troubleshooting-memory') ?? [])).toEqual([]);
    expect(findLeaks('Why this memory growth in my workers?', terms.get('troubleshooting-memory') ?? [])).toEqual(['growth', 'memory']);
    expect(findLeaks('The worker uses more RAM every day; which knob recycles children?', terms.get('troubleshooting-memory') ?? [])).toEqual([]);
  });
});
