import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { createTestSchemas, testPostgres } from '../../testing/postgres-server.ts';
import { describeIndexBackend } from '../contract/backend-suite.ts';
import { createPostgresIndex } from './postgres.ts';
import { parsePostgresUrl } from './postgres-url.ts';
import { createTestDoc } from '../test-docs.ts';

const server = testPostgres(process.env);
const failure = (promise: Promise<unknown>): Promise<AtlasError> =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(AtlasError);
      return error as AtlasError;
    },
  );

describe('PostgreSQL backend without a server', () => {
  it('names host, port, database and the fix when nothing listens, never the password', async () => {
    const index = createPostgresIndex({ url: 'postgres://atlas:hunter2@127.0.0.1:1/docs?schema=team_a' });
    const error = await failure(index.stats());
    expect(error.message).toBe(
      'Atlas: cannot connect to PostgreSQL at 127.0.0.1:1, database "docs" as user "atlas": connect ECONNREFUSED 127.0.0.1:1. Check that the server is running and listens on that host and port.',
    );
    expect(error.code).toBe('index-io');
    await index.close();
  });
});

describe.skipIf(server.url === undefined)(`PostgreSQL backend${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const url = server.url ?? 'postgres://unused';
  const schemas = createTestSchemas(url, 'pgtest');
  afterAll(() => schemas.dropAll());
  const sql = async (schemaUrl: string, text: string): Promise<Array<Record<string, unknown>>> => {
    const target = parsePostgresUrl(schemaUrl);
    const client = new pg.Client({ connectionString: target.connectionString, options: `-c search_path=${target.schema}` });
    await client.connect();
    try {
      return (await client.query(text)).rows as Array<Record<string, unknown>>;
    } finally {
      await client.end();
    }
  };
  const retries = createTestDoc({ docId: 'retries', sections: ['Failed jobs are retried with backoff.', 'Backoff doubles.'] });
  const leases = createTestDoc({ docId: 'leases', sections: ['A worker holds a lease.'] });

  describeIndexBackend('postgres', async () => createPostgresIndex({ url: schemas.fresh() }));

  it('says which database is missing and how to create it', async () => {
    const missing = new URL(url);
    missing.pathname = '/atlas_no_such_db';
    const target = parsePostgresUrl(missing.href);
    const index = createPostgresIndex({ url: missing.href });
    expect((await failure(index.stats())).message).toBe(
      `Atlas: cannot connect to PostgreSQL at ${target.host}:${target.port}, database "atlas_no_such_db" as user "${target.user}": database "atlas_no_such_db" does not exist. Create the database (createdb) or fix the database name of --db.`,
    );
    await index.close();
  });

  it('reads no index where none was built, naming the command that builds it', async () => {
    const fresh = schemas.fresh();
    const index = createPostgresIndex({ url: fresh, readonly: true });
    const error = await failure(index.search('lease', { k: 5 }));
    expect(error.code).toBe('index-missing');
    expect(error.message).toBe(`Atlas: no index in schema "${parsePostgresUrl(fresh).schema}" of ${fresh}. Build it first: atlas ingest <docs-dir> --db ${fresh}`);
    await index.close();
  });

  it('refuses an index of another schema version with the rebuild command, and --rebuild replaces it in one transaction', async () => {
    const fresh = schemas.fresh();
    const first = createPostgresIndex({ url: fresh });
    await first.ingest([retries]);
    await first.close();
    await sql(fresh, "UPDATE meta SET value = '0' WHERE key = 'schemaVersion'");
    const old = createPostgresIndex({ url: fresh });
    const error = await failure(old.search('backoff', { k: 5 }));
    expect(error.code).toBe('index-schema');
    expect(error.message).toBe(
      `Atlas: the index in schema "${parsePostgresUrl(fresh).schema}" of ${fresh} has schema version 0 but this Atlas needs 5. Rebuild it: atlas ingest <docs-dir> --db ${fresh} --rebuild`,
    );
    await old.close();
    const rebuilt = createPostgresIndex({ url: fresh, rebuild: true });
    const broken = { ...leases, chunks: [leases.chunks[0]!, leases.chunks[0]!] };
    await expect(rebuilt.ingest([broken])).rejects.toThrow(AtlasError);
    expect(await sql(fresh, "SELECT value FROM meta WHERE key = 'schemaVersion'")).toEqual([{ value: '0' }]);
    expect(await rebuilt.ingest([leases])).toMatchObject({ added: ['leases'], removed: [], chunks: 1 });
    expect((await rebuilt.search('lease', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['leases#0']);
    await rebuilt.close();
  });

  it('refuses another tokenizer for an index with content', async () => {
    const fresh = schemas.fresh();
    const index = createPostgresIndex({ url: fresh });
    await index.ingest([retries]);
    await index.close();
    const other = createPostgresIndex({ url: fresh, tokenizer: { porter: false } });
    expect((await failure(other.stats())).message).toBe(
      `Atlas: the index in schema "${parsePostgresUrl(fresh).schema}" of ${fresh} was built with tokenizer {"porter":true,"identifiers":true} but {"porter":false,"identifiers":true} was requested. Rebuild it: atlas ingest <docs-dir> --db ${fresh} --rebuild`,
    );
    await other.close();
  });

  it('leaves the rows of unchanged documents untouched: same ids, not rewritten', async () => {
    const fresh = schemas.fresh();
    const index = createPostgresIndex({ url: fresh });
    await index.ingest([retries, leases]);
    const rows = "SELECT c.chunk_id, c.id, c.xmin::text AS version, s.xmin::text AS search_version FROM chunks c JOIN chunk_search s ON s.id = c.id WHERE c.doc_id = 'retries' ORDER BY c.chunk_id";
    const before = await sql(fresh, rows);
    const leasesChanged = createTestDoc({ docId: 'leases', sections: ['A worker renews its lease.'] });
    expect(await index.ingest([retries, leasesChanged])).toMatchObject({ unchanged: ['retries'], updated: ['leases'] });
    expect(await sql(fresh, rows)).toEqual(before);
    expect((await index.search('renews', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['leases#0']);
    await index.close();
  });

  it('keeps BM25 statistics exact across incremental ingests: the same scores as a fresh index', async () => {
    const a = createTestDoc({ docId: 'a', sections: ['Lease lease renewal for workers.', 'Workers renew.'] });
    const b = createTestDoc({ docId: 'b', sections: ['Retries back off; the lease ends.'] });
    const bChanged = createTestDoc({ docId: 'b', sections: ['Retries back off exponentially; workers wait.'] });
    const c = createTestDoc({ docId: 'c', sections: ['Lease metrics and worker lease counts.'] });
    const incremental = createPostgresIndex({ url: schemas.fresh() });
    await incremental.ingest([a, b, c]);
    await incremental.ingest([a, bChanged]);
    const fresh = createPostgresIndex({ url: schemas.fresh() });
    await fresh.ingest([a, bChanged]);
    for (const query of ['lease workers', 'retries wait', 'metrics']) {
      const scores = async (index: typeof fresh) => (await index.search(query, { k: 5 })).map((hit) => [hit.chunkId, hit.score]);
      expect(await scores(incremental)).toEqual(await scores(fresh));
    }
    expect(await incremental.search('metrics', { k: 5 })).toEqual([]);
    await Promise.all([incremental.close(), fresh.close()]);
  });

  it('stores text of any script as it came (sent as UTF-8 bytes), and finds it', async () => {
    const index = createPostgresIndex({ url: schemas.fresh() });
    const text = 'Zoë’s café — 東京 retries 🎉 naïve \\x00 "quoted" \'single\' {braces,commas}';
    await index.ingest([createTestDoc({ docId: 'scripts', sections: [text, 'Plain second section.'] })]);
    expect((await index.getChunk('scripts#0'))?.text).toBe(text);
    expect((await index.getChunk('scripts#1'))?.text).toBe('Plain second section.');
    expect((await index.search('café', { k: 5 })).map((hit) => hit.chunkId)).toEqual(['scripts#0']);
    await index.close();
  });

  it('lists the release lines, and keeps the docs root it is given', async () => {
    const index = createPostgresIndex({ url: schemas.fresh() });
    expect(await index.releaseLines!()).toEqual([]);
    expect(await index.docsRoot()).toBeUndefined();
    await index.ingest([
      createTestDoc({ docId: 'new', appliesTo: '3.x', sections: ['New.'] }),
      createTestDoc({ docId: 'old', appliesTo: '2.x', sections: ['Old.'] }),
      createTestDoc({ docId: 'older', appliesTo: '10.x', sections: ['Older.'] }),
      createTestDoc({ docId: 'shared', sections: ['Shared.'] }),
    ]);
    expect(await index.releaseLines!()).toEqual(['10.x', '2.x', '3.x']);
    await index.recordDocsRoot('/srv/docs');
    await index.recordDocsRoot('/srv/docs');
    expect(await index.docsRoot()).toBe('/srv/docs');
    await index.close();
  });

  it('refuses a NUL character with the chunk and field, and writes nothing', async () => {
    const index = createPostgresIndex({ url: schemas.fresh() });
    await index.ingest([leases]);
    const bad = createTestDoc({ docId: 'bad', sections: ['Fine.', 'Broken\u0000text.'] });
    const error = await failure(index.ingest([leases, bad]));
    expect(error.message).toBe(
      'Atlas: chunk "bad#1" (bad.md) has a NUL character (U+0000) in its text, which PostgreSQL text cannot hold; nothing was written to the index. Remove it from the page.',
    );
    expect(await index.stats()).toEqual({ docs: 1, chunks: 1 });
    await index.close();
  });

  it('serialises two writers on one index: each ingest is whole, the last one wins', async () => {
    const fresh = schemas.fresh();
    const [one, two] = [createPostgresIndex({ url: fresh }), createPostgresIndex({ url: fresh })];
    await one.ingest([]);
    const [a, b] = await Promise.all([one.ingest([retries]), two.ingest([leases])]);
    // Whichever commits second saw the first one's document and removed it.
    const later = a!.removed.length > 0 ? a! : b!;
    const earlier = later === a ? b! : a!;
    expect(earlier.removed).toEqual([]);
    expect(later.removed).toEqual(earlier.added);
    expect(await one.stats()).toEqual({ docs: 1, chunks: later.chunks });
    await Promise.all([one.close(), two.close()]);
  });
});
