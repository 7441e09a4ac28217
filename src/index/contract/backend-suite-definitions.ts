import { describe, expect, it } from 'vitest';
import type { BackendSuiteContext } from './backend-suite-context.ts';
import { createTestDoc } from '../test-docs.ts';

const ids = (hits: Array<{ chunkId: string }>): string[] => hits.map((hit) => hit.chunkId);
const filler = 'Payload errors come from clients, workers and the broker alike, and each has its own page. '.repeat(6);

/** A long `##` chunk with the `###` definitions inside its text, as a chunker that splits at `##` only makes them. */
const errors = createTestDoc({
  docId: 'errors',
  title: 'Error codes',
  sections: [
    'Every error carries a code.',
    {
      heading: '12xx Payloads',
      text: `${filler}\n\n### ORB-1201 PayloadInvalid\n\nThe payload is not valid JSON.\n\n### ORB-1202 PayloadTooLarge\n\nThe payload is over the limit. ${filler}`,
    },
  ],
});
/** The same definition split at `###`: the heading path names the code. */
const splitErrors = createTestDoc({
  docId: 'split-errors',
  title: 'Error codes',
  sections: [
    'Every error carries a code.',
    { heading: 'ORB-1201 PayloadInvalid', parents: ['12xx Payloads'], text: 'The payload is not valid JSON.' },
    { heading: 'ORB-1202 PayloadTooLarge', parents: ['12xx Payloads'], text: `The payload is over the limit. ${filler}` },
  ],
});
/** Mentions ORB-1202 often in a short chunk: plain ranking puts it first. */
const faq = createTestDoc({ docId: 'faq', sections: ['Failed with ORB-1202? ORB-1202 means shrink it: ORB-1202 again.'] });
const limits = createTestDoc({
  docId: 'limits',
  sections: ['Limits of the gateway.', { heading: 'Reference', text: `| Key | Type |\n|---|---|\n| \`max_payload_kb\` | integer |\n| \`rate\` | number |\n\n${filler}` }],
});
const uploads = createTestDoc({ docId: 'uploads', sections: ['Raise max_payload_kb for big uploads; max_payload_kb is in KiB.'] });
const cli = createTestDoc({
  docId: 'cli',
  sections: ['The command line.', { heading: 'Options', text: '```\n  -c, --connection  Database URL\n  -s, --schema      The schema to use\n```' }],
});
const options = createTestDoc({
  docId: 'options',
  sections: [{ heading: 'worker.schema', parents: ['Worker options'], text: 'The schema name, owner and search path.' }],
});
const sql = createTestDoc({ docId: 'sql', title: 'SQL', sections: ['Jobs from SQL.', { heading: '`graphile_worker.add_job()`', text: 'Adds a job from SQL: add job.' }] });
const js = createTestDoc({ docId: 'js', title: 'addJob()', sections: ['Adds a job from JavaScript.'] });
const options3 = createTestDoc({
  docId: 'options-3x',
  appliesTo: '3.x',
  sections: [{ heading: 'Options', text: '```ts\n{\n  gracefulShutdownAbortTimeout?: number;\n}\n```' }],
});
const shutdown = createTestDoc({
  docId: 'shutdown',
  appliesTo: '2.x',
  sections: ['On 2.x gracefulShutdownAbortTimeout is gracefulShutdownAbortTimeout, read at start.'],
});
/** Says "schema" most often, defines nothing. */
const notes = createTestDoc({ docId: 'notes', sections: ['Schema notes: the schema of the schema, schema by schema, schema to schema.'] });
const corpus = [errors, faq, limits, uploads, cli, options, sql, js, options3, shutdown, notes];

/** Identifier-first ranking: the chunk that defines a name the query names comes first. Part of the shared suite. */
export function describeDefinitionsContract(context: BackendSuiteContext): void {
  describe('identifier queries rank the defining chunk first', () => {
    it('finds a definition heading inside a long chunk before a short chunk that repeats the name', async () => {
      const index = context.index();
      await index.ingest(corpus);
      expect(ids(await index.search('orb 1202', { k: 1 }))).toEqual(['faq#0']);
      expect(ids(await index.search('ORB-1202', { k: 2 }))).toEqual(['errors#1', 'faq#0']);
      expect(ids(await index.search('What does PayloadTooLarge mean?', { k: 1 }))).toEqual(['errors#1']);
    });

    it('looks further down the ranking when the definition ranks below the first window', async () => {
      const index = context.index();
      const mentions = Array.from({ length: 60 }, (_, n) =>
        createTestDoc({ docId: `mention-${String(n).padStart(2, '0')}`, sections: ['ORB-1202 again: ORB-1202, ORB-1202.'] }),
      );
      await index.ingest([errors, ...mentions]);
      expect(ids(await index.search('orb 1202', { k: 61 }))[60]).toBe('errors#1');
      expect(ids(await index.search('ORB-1202', { k: 2 }))).toEqual(['errors#1', 'mention-00#0']);
    });

    it('finds the chunk whose heading path names it, and returns that heading path', async () => {
      const index = context.index();
      await index.ingest([splitErrors, faq]);
      const [first, second] = await index.search('ORB-1202', { k: 2 });
      expect([first!.chunkId, second!.chunkId]).toEqual(['split-errors#2', 'faq#0']);
      expect(first!.headingPath).toEqual(['Error codes', '12xx Payloads', 'ORB-1202 PayloadTooLarge']);
      expect(first!.score).toBeGreaterThan(second!.score);
    });

    it('finds a table row, a declaration or a help line that defines it', async () => {
      const index = context.index();
      await index.ingest(corpus);
      expect(ids(await index.search('max_payload_kb', { k: 2 }))).toEqual(['limits#1', 'uploads#0']);
      expect(ids(await index.search('--schema', { k: 1 }))).toEqual(['cli#1']);
      expect(ids(await index.search('gracefulShutdownAbortTimeout', { k: 2 }))).toEqual(['options-3x#0', 'shutdown#0']);
    });

    it('prefers the definition spelled like the query', async () => {
      const index = context.index();
      await index.ingest(corpus);
      expect(ids(await index.search('add_job', { k: 1 }))).toEqual(['sql#1']);
      expect(ids(await index.search('addJob()', { k: 1 }))).toEqual(['js#0']);
      expect(ids(await index.search('`schema`', { k: 2 }))).toEqual(['options#0', 'notes#0']);
    });

    it('forgets the definitions of removed and changed documents', async () => {
      const index = context.index();
      await index.ingest(corpus);
      await index.ingest(corpus.filter((doc) => doc !== errors));
      expect(ids(await index.search('ORB-1202', { k: 1 }))).toEqual(['faq#0']);
      const noTable = createTestDoc({ docId: 'limits', sections: ['Limits of the gateway.', { heading: 'Reference', text: 'Uploads are capped.' }] });
      await index.ingest([...corpus.filter((doc) => doc !== limits), noTable]);
      expect(ids(await index.search('max_payload_kb', { k: 1 }))).toEqual(['uploads#0']);
      await index.ingest(corpus);
      expect(ids(await index.search('ORB-1202 and max_payload_kb', { k: 2 })).sort()).toEqual(['errors#1', 'limits#1']);
    });

    it('leaves plain words alone, and applies the filter to the definitions', async () => {
      const index = context.index();
      await index.ingest(corpus);
      expect(ids(await index.search('schema', { k: 1 }))).toEqual(['notes#0']);
      expect(ids(await index.search('gracefulShutdownAbortTimeout', { k: 2, filter: { version: '2.x' } }))).toEqual(['shutdown#0']);
    });
  });
}
