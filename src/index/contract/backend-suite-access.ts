import { describe, expect, it } from 'vitest';
import type { LabelValue } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';
import type { Principal, SearchFilter } from '../types.ts';

const ids = (hits: Array<{ chunkId: string }>): string[] => hits.map((hit) => hit.chunkId).sort();

/** A public page whose middle section is for admins only, an admin page, a page for staff or admins. */
const handbook = createTestDoc({
  docId: 'handbook',
  sections: [
    'Vault rotation overview for everyone.',
    { heading: 'Break glass', text: 'Vault root token lives in the red envelope.', labels: { acl: ['admins'] } },
    'Vault questions go to the help desk.',
  ],
});
const adminPage = createTestDoc({ docId: 'admin-page', labels: { acl: 'admins' }, sections: ['Vault unseal keys: ADMINONLY.', 'Vault audit log.'] });
const staffPage = createTestDoc({ docId: 'staff-page', appliesTo: '3.x', labels: { acl: ['staff', 'admins'], team: 'ops' }, sections: ['Vault on-call rota.'] });

const as = (groups: string[], filter: SearchFilter = {}): SearchFilter => ({ ...filter, principal: { groups } });

/** Access groups (`labels.acl`): search, getChunk and neighbors hide what the principal may not see. Part of the shared suite. */
export function describeAccessContract(context: BackendSuiteContext): void {
  describe('access groups', () => {
    it('finds restricted chunks only for a principal in one of their groups', async () => {
      const index = context.index();
      await index.ingest([handbook, adminPage, staffPage]);
      const search = (filter?: SearchFilter) => index.search('vault', { k: 20, ...(filter ? { filter } : {}) }).then(ids);
      const publicIds = ['handbook#0', 'handbook#2'];
      expect(await search()).toEqual(publicIds);
      expect(await search(as([]))).toEqual(publicIds);
      expect(await search(as(['guests']))).toEqual(publicIds);
      expect(await search(as(['staff']))).toEqual([...publicIds, 'staff-page#0']);
      expect(await search(as(['admins']))).toEqual(['admin-page#0', 'admin-page#1', 'handbook#0', 'handbook#1', 'handbook#2', 'staff-page#0']);
      expect(await search(as(['guests', 'staff'], { version: '2.x' }))).toEqual(publicIds);
      expect(await index.search('ADMINONLY', { k: 5, filter: { version: '3.x' } })).toEqual([]);
      expect(await index.search('ADMINONLY', { k: 5, filter: as(['staff'], { version: '3.x' }) })).toEqual([]);
      expect(ids(await index.search('ADMINONLY', { k: 5, filter: as(['admins']) }))).toEqual(['admin-page#0']);
    });

    it('treats a restricted chunk like an unknown id in getChunk and neighbors', async () => {
      const index = context.index();
      await index.ingest([handbook, adminPage, staffPage]);
      for (const filter of [undefined, as([]), as(['staff'])]) {
        expect(await index.getChunk('handbook#1', filter)).toBeUndefined();
        expect(await index.getChunk('admin-page#0', filter)).toBeUndefined();
        expect(await index.neighbors('admin-page#0', filter)).toEqual([]);
        expect(await index.neighbors('handbook#1', filter)).toEqual([]);
        expect(await index.neighbors('handbook#0', filter)).toEqual([]);
        expect(await index.neighbors('handbook#2', filter)).toEqual([]);
        expect(await index.getChunk('handbook#2', filter)).toEqual(handbook.chunks[2]);
      }
      expect(await index.getChunk('staff-page#0', as(['staff']))).toEqual(staffPage.chunks[0]);
      expect(await index.getChunk('staff-page#0')).toBeUndefined();
      expect(await index.getChunk('handbook#1', as(['admins']))).toEqual(handbook.chunks[1]);
      expect(await index.neighbors('handbook#0', as(['admins']))).toEqual([handbook.chunks[1]]);
      expect(await index.neighbors('admin-page#1', as(['admins']))).toEqual([adminPage.chunks[0]]);
    });

    it('keeps a restricted definition of an identifier out of the definitions-first lift', async () => {
      const index = context.index();
      const codes = createTestDoc({
        docId: 'codes',
        labels: { acl: 'admins' },
        sections: ['Error codes.', { heading: 'ORB-9001 VaultSealed', text: 'Raised when the vault is sealed; unseal with the red envelope.' }],
      });
      const faq = createTestDoc({ docId: 'faq', sections: ['Got ORB-9001? ORB-9001 means ask an admin. ORB-9001 again.'] });
      await index.ingest([codes, faq]);
      expect((await index.search('ORB-9001', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['faq#0']);
      expect((await index.search('ORB-9001', { k: 5, filter: as(['staff']) })).map((hit) => hit.chunkId)).toEqual(['faq#0']);
      expect((await index.search('ORB-9001', { k: 5, filter: as(['admins']) })).map((hit) => hit.chunkId)).toEqual(['codes#1', 'faq#0']);
    });

    it('never lets a label filter widen access, whatever it names', async () => {
      const index = context.index();
      await index.ingest([handbook, adminPage, staffPage]);
      const attempts: Array<Record<string, LabelValue>> = [{ acl: 'admins' }, { acl: ['staff', 'admins', 'all'] }, { acl: [] }, { team: 'ops' }];
      for (const labels of attempts) {
        const hits = ids(await index.search('vault', { k: 20, filter: { labels } }));
        expect(hits).toEqual(['handbook#0', 'handbook#2']);
        expect(await index.getChunk('admin-page#0', { labels })).toBeUndefined();
      }
      expect(ids(await index.search('vault', { k: 20, filter: as(['staff'], { labels: { team: 'billing' } }) }))).toEqual(['handbook#0', 'handbook#2']);
    });

    it('hides pages that gain an acl label in a later ingest', async () => {
      const index = context.index();
      const open = createTestDoc({ docId: 'admin-page', sections: ['Vault unseal keys: ADMINONLY.'] });
      await index.ingest([open]);
      expect(ids(await index.search('ADMINONLY', { k: 5 }))).toEqual(['admin-page#0']);
      await index.ingest([adminPage]);
      expect(await index.search('ADMINONLY', { k: 5 })).toEqual([]);
      expect(await index.getChunk('admin-page#0')).toBeUndefined();
    });

    it('refuses an ingest whose acl names no group, and writes nothing', async () => {
      const index = context.index();
      await index.ingest([handbook]);
      for (const acl of [[], [''], ' '] as LabelValue[]) {
        const open = createTestDoc({ docId: 'open', sections: ['Vault notes.', { heading: 'Keys', text: 'Vault keys.', labels: { acl } }] });
        const error = await index.ingest([handbook, open]).then(() => undefined, (caught: unknown) => caught);
        expect(error).toBeInstanceOf(AtlasError);
        expect((error as AtlasError).message).toBe(
          `Atlas: chunk "open#1" (open.md) has labels.acl ${JSON.stringify(acl)}, which names no group; nothing was written to the index. Name at least one group (acl: ["staff"]), or remove acl to make the page public.`,
        );
      }
      expect(await index.stats()).toEqual({ docs: 1, chunks: 3 });
    });

    it('rejects a malformed principal with a message naming the value and the fix', async () => {
      const index = context.index();
      await index.ingest([handbook]);
      for (const principal of [{ groups: 'admins' }, { groups: [''] }, {}, { groups: [7] }] as unknown as Principal[]) {
        const error = await index.search('vault', { k: 5, filter: { principal } }).then(() => undefined, (caught: unknown) => caught);
        expect(error).toBeInstanceOf(AtlasError);
        expect((error as AtlasError).message).toBe(
          `Atlas: principal.groups must be a list of non-empty group names, got ${JSON.stringify((principal as { groups?: unknown }).groups)}. Pass e.g. { groups: ["staff"] } (or { groups: [] } for public pages only).`,
        );
      }
    });
  });
}
