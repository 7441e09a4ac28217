import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

const ids = (hits: Array<{ chunkId: string }>): string[] => hits.map((hit) => hit.chunkId);

/** Search: ranking, filters before top-k, identifiers, snippets, robustness. Part of the shared suite. */
export function describeSearchContract(context: BackendSuiteContext): void {
  describe('search', () => {
    it('returns the chunk fields, a positive score and a snippet', async () => {
      const index = context.index();
      const doc = createTestDoc({
        docId: 'retries',
        title: 'Retries',
        appliesTo: '3.x',
        labels: { team: 'platform' },
        sections: ['Intro to jobs.', { heading: 'Backoff', text: 'Failed jobs retry with exponential backoff.' }],
      });
      await index.ingest([doc]);
      const [hit, ...rest] = await index.search('exponential backoff', { k: 5 });
      expect(rest).toEqual([]);
      expect(hit).toEqual({ ...doc.chunks[1], score: hit!.score, snippet: 'Failed jobs retry with exponential backoff.' });
      expect(hit!.score).toBeGreaterThan(0);
    });

    it('applies the version filter before taking the top k', async () => {
      const index = context.index();
      const strong = Array.from({ length: 20 }, (_, n) =>
        createTestDoc({ docId: `old-${String(n).padStart(2, '0')}`, appliesTo: '2.x', sections: ['Quota quota quota limits.'] }),
      );
      const weak = createTestDoc({
        docId: 'new',
        appliesTo: '3.x',
        sections: ['In 3.x the scheduler, the worker pool and the admin console share one quota with many other settings.'],
      });
      const everywhere = createTestDoc({ docId: 'shared', appliesTo: 'all', sections: ['A quota is a limit on anything that is shared between all the tenants of one cluster, such as disk space, memory, network bandwidth, open connections, scheduled jobs and stored documents.'] });
      await index.ingest([...strong, weak, everywhere]);
      expect((await index.search('quota', { k: 1 }))[0]!.appliesTo).toBe('2.x');
      expect(ids(await index.search('quota', { k: 1, filter: { version: '3.x' } }))).toEqual(['new#0']);
      expect(ids(await index.search('quota', { k: 5, filter: { version: '3.x' } }))).toEqual(['new#0', 'shared#0']);
      expect(ids(await index.search('quota', { k: 1, filter: { version: '4.x' } }))).toEqual(['shared#0']);
      expect(await index.search('quota', { k: 25, filter: { version: '2.x' } })).toHaveLength(21);
    });

    it('applies label filters with the "all" rule before taking the top k', async () => {
      const index = context.index();
      const billing = Array.from({ length: 10 }, (_, n) =>
        createTestDoc({ docId: `billing-${n}`, labels: { team: 'billing' }, sections: ['Invoices invoices invoices.'] }),
      );
      const both = createTestDoc({ docId: 'both', labels: { team: ['billing', 'ops'] }, sections: ['Invoices are rebuilt nightly by the ops jobs runner.'] });
      const ops = createTestDoc({ docId: 'ops', appliesTo: '3.x', labels: { team: 'ops', tier: 'gold' }, sections: ['Invoices for the gold tier are exported on a separate queue with other exports.'] });
      const everyTeam = createTestDoc({ docId: 'every-team', labels: { team: 'all' }, sections: ['Invoices are kept for seven years, whichever team sent them.'] });
      const bare = createTestDoc({ docId: 'bare', sections: ['Invoices without any label.'] });
      await index.ingest([...billing, both, ops, everyTeam, bare]);
      const search = (filter: object, k = 20) => index.search('invoices', { k, filter }).then(ids);
      const opsOrShared = ['bare#0', 'both#0', 'every-team#0', 'ops#0'];
      expect((await search({ labels: { team: 'ops' } })).sort()).toEqual(opsOrShared);
      const [top, ...rest] = await search({ labels: { team: 'ops' } }, 1);
      expect(rest).toEqual([]);
      expect(opsOrShared).toContain(top);
      expect((await search({ labels: { team: ['ops', 'security'] } })).sort()).toEqual(opsOrShared);
      expect((await search({ labels: { team: 'ops', tier: 'silver' } })).sort()).toEqual(['bare#0', 'both#0', 'every-team#0']);
      expect((await search({ labels: { team: 'ops' }, version: '2.x' })).sort()).toEqual(['bare#0', 'both#0', 'every-team#0']);
      expect((await search({ labels: { team: 'billing' } })).length).toBe(13);
      expect((await search({ labels: { team: [] } })).sort()).toEqual(['bare#0', 'every-team#0']);
      expect(await search({ labels: {} })).toHaveLength(14);
    });

    it('weights a heading match above the same match in the body', async () => {
      const index = context.index();
      await index.ingest([
        createTestDoc({ docId: 'in-body', sections: ['General notes.', { heading: 'Cleaner', text: 'Old logs are deleted by the retention job.' }] }),
        createTestDoc({ docId: 'in-heading', sections: ['General notes.', { heading: 'Retention', text: 'Old logs are deleted by the cleaner job.' }] }),
      ]);
      expect(ids(await index.search('retention', { k: 5 }))).toEqual(['in-heading#1', 'in-body#1']);
    });

    it('searches the heading path and returns it with the hit', async () => {
      const index = context.index();
      const vault = createTestDoc({
        docId: 'vault',
        title: 'Vault',
        sections: ['About the vault.', { heading: 'Rotation', parents: ['Credentials'], text: 'Tokens are replaced every month.' }],
      });
      await index.ingest([vault, createTestDoc({ docId: 'other', sections: ['Tokens expire.'] })]);
      const [hit, ...rest] = await index.search('credentials', { k: 5 });
      expect(rest).toEqual([]);
      expect(hit).toEqual({ ...vault.chunks[1], score: hit!.score, snippet: 'Tokens are replaced every month.' });
      expect(hit!.headingPath).toEqual(['Vault', 'Credentials', 'Rotation']);
    });

    describe('finds identifiers however they are typed', () => {
      const corpus = [
        createTestDoc({ docId: 'orb-1202', sections: ['Error ORB-1202 means the lease expired before the worker finished.'] }),
        createTestDoc({ docId: 'orb-1201', sections: ['Error ORB-1201 means the worker could not reach the broker.'] }),
        createTestDoc({ docId: 'orb-1203', sections: ['Error ORB-1203 means a job was cancelled; ticket 1202 tracks it.'] }),
        createTestDoc({ docId: 'payload-kb', sections: ['Uploads larger than max_payload_kb are rejected by the gateway.'] }),
        createTestDoc({ docId: 'payload-words', sections: ['The max size of a payload is set in kb by the operator.'] }),
        createTestDoc({ docId: 'quartz', sections: ['Set quartz.scheduler.idleWaitTime to 30000 to poll less often.'] }),
        createTestDoc({ docId: 'quartz-words', sections: ['The quartz scheduler is idle most of the time.'] }),
        createTestDoc({ docId: 'too-large', sections: ['The API answers PayloadTooLarge (HTTP 413) when a body is over the limit.'] }),
        createTestDoc({ docId: 'large-words', sections: ['Large uploads are split into parts by the client.'] }),
        createTestDoc({ docId: 'lease', sections: ['Configure the lease:\n\n```toml\n[worker]\nlease_seconds = 30\n```'] }),
        createTestDoc({ docId: 'lease-words', sections: ['A worker holds its lease for a number of seconds.'] }),
      ];
      const cases: Array<[string, string]> = [
        ['ORB-1202', 'orb-1202#0'],
        ['orb1202', 'orb-1202#0'],
        ['what does ORB1202 mean?', 'orb-1202#0'],
        ['max_payload_kb', 'payload-kb#0'],
        ['maxpayloadkb', 'payload-kb#0'],
        ['quartz.scheduler.idleWaitTime', 'quartz#0'],
        ['idleWaitTime', 'quartz#0'],
        ['scheduler.idleWaitTime', 'quartz#0'],
        ['PayloadTooLarge', 'too-large#0'],
        ['payload too large', 'too-large#0'],
        ['[worker] lease_seconds', 'lease#0'],
        ['lease_seconds', 'lease#0'],
      ];
      for (const [query, expected] of cases) {
        it(`${query} -> ${expected}`, async () => {
          const index = context.index();
          await index.ingest(corpus);
          expect(ids(await index.search(query, { k: 1 }))).toEqual([expected]);
        });
      }
    });

    describe('snippets', () => {
      it('is the paragraph with the most query terms, whitespace collapsed', async () => {
        const index = context.index();
        const text = 'Zebras are mentioned once here.\n\nZebras and  more\n   zebras\tlive here.\n\nA third zebras paragraph.';
        await index.ingest([createTestDoc({ docId: 'z', sections: [text] })]);
        const [hit] = await index.search('zebras', { k: 1 });
        expect(hit!.snippet).toBe('Zebras and more zebras live here.');
      });

      it('cuts a long paragraph at a word boundary with an ellipsis', async () => {
        const index = context.index();
        await index.ingest([createTestDoc({ docId: 'long', sections: [`Zebra crossing ${'lorem '.repeat(80)}`] })]);
        const [hit] = await index.search('zebra', { k: 1 });
        expect(hit!.snippet).toBe(`Zebra crossing ${'lorem '.repeat(47).trimEnd()}…`);
        expect(hit!.snippet.length).toBeLessThanOrEqual(300);
      });

      it('shows a match that lies past the first 300 characters', async () => {
        const index = context.index();
        await index.ingest([createTestDoc({ docId: 'deep', sections: [`${'lorem '.repeat(80)}zebra ${'ipsum '.repeat(80)}`] })]);
        const [hit] = await index.search('zebra', { k: 1 });
        expect(hit!.snippet.startsWith('…lorem')).toBe(true);
        expect(hit!.snippet.endsWith('ipsum…')).toBe(true);
        expect(hit!.snippet).toContain(' zebra ');
        expect(hit!.snippet.length).toBeLessThanOrEqual(300);
      });
    });

    describe('accepts any query string', () => {
      const nasty = [
        '', '   ', '"', '""', '"unbalanced', 'AND', 'OR', 'NOT', 'NEAR', 'NEAR(a b, 2)', 'a AND OR NOT b',
        '*', 'zebra*', '^zebra', 'title:zebra', '-zebra', '(((', ')', '{title heading}: zebra', 'a:b:c',
        '🦓🦓', 'zebra 🦓', '\u0000', 'ẑébrâ', '日本語', "it's", 'c++', '$(rm -rf /)', 'x'.repeat(10_000),
        'why is the zebra striped? '.repeat(400),
      ];
      it('never throws on operator words, quotes, punctuation, emoji or 10 kB of text', async () => {
        const index = context.index();
        await index.ingest([createTestDoc({ docId: 'z', sections: ['Zebra stripes, NOT horses; near the title.'] })]);
        for (const query of nasty) expect(Array.isArray(await index.search(query, { k: 3 }))).toBe(true);
        expect(ids(await index.search('NOT', { k: 3 }))).toEqual(['z#0']);
        expect(ids(await index.search('"zebra', { k: 3 }))).toEqual(['z#0']);
      });

      it('never throws on random strings', async () => {
        const index = context.index();
        await index.ingest([createTestDoc({ docId: 'z', sections: ['Zebra stripes and other patterns.'] })]);
        const anyString = fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: 'grapheme', maxLength: 200 }),
          fc.array(fc.constantFrom('AND', 'OR', 'NOT', 'NEAR', '(', ')', '"', '*', ':', '^', '-', '+', 'zebra', '{', '}', ' '), { maxLength: 30 }).map((parts) => parts.join('')),
        );
        await fc.assert(
          fc.asyncProperty(anyString, async (query) => {
            expect(Array.isArray(await index.search(query, { k: 2 }))).toBe(true);
          }),
          { numRuns: 300, seed: 20240601 },
        );
      });
    });
  });
}
