import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL server for tests, from `ATLAS_TEST_POSTGRES_URL`, and why tests skip without one. */
export interface TestPostgres {
  url: string | undefined;
  /** The reason a test that needs the server gives when it skips. */
  absent: string;
}

/**
 * The test server: `ATLAS_TEST_POSTGRES_URL` (scripts/test-postgres.sh start prints one;
 * `.ci/run` sets it). Tests that need it skip with {@link TestPostgres.absent} when it is unset.
 *
 * @example
 * const server = testPostgres(process.env);
 * describe.skipIf(server.url === undefined)(`postgres${server.url ? '' : ` (skipped: ${server.absent})`}`, () => { ... });
 */
export function testPostgres(env: Record<string, string | undefined>): TestPostgres {
  const url = env.ATLAS_TEST_POSTGRES_URL?.trim() || undefined;
  return { url, absent: 'ATLAS_TEST_POSTGRES_URL is not set (start a server: export ATLAS_TEST_POSTGRES_URL=$(scripts/test-postgres.sh start))' };
}

/**
 * The streaming standby of the test server: `ATLAS_TEST_POSTGRES_STANDBY_URL`
 * (scripts/test-postgres.sh standby prints one; `.ci/run` sets it). Tests of read replicas skip
 * with {@link TestPostgres.absent} without it (or without the primary).
 *
 * @example
 * const standby = testPostgresStandby(process.env);
 * describe.skipIf(standby.url === undefined)(`standby${standby.url ? '' : ` (skipped: ${standby.absent})`}`, () => { ... });
 */
export function testPostgresStandby(env: Record<string, string | undefined>): TestPostgres {
  const url = env.ATLAS_TEST_POSTGRES_URL?.trim() ? env.ATLAS_TEST_POSTGRES_STANDBY_URL?.trim() || undefined : undefined;
  return {
    url,
    absent:
      'ATLAS_TEST_POSTGRES_URL and ATLAS_TEST_POSTGRES_STANDBY_URL are not both set (start them: export ATLAS_TEST_POSTGRES_URL=$(scripts/test-postgres.sh start) ATLAS_TEST_POSTGRES_STANDBY_URL=$(scripts/test-postgres.sh standby))',
  };
}

/**
 * `url` (a URL with `?schema=`, e.g. from {@link TestSchemas.fresh}) pointed at another server:
 * the same database, user and schema on `server`'s host and port.
 *
 * @example
 * onServer('postgres://atlas@127.0.0.1:5432/postgres?schema=s_1', 'postgres://atlas@127.0.0.1:5433/postgres'); // 'postgres://atlas@127.0.0.1:5433/postgres?schema=s_1'
 */
export function onServer(url: string, server: string): string {
  const moved = new URL(url);
  moved.host = new URL(server).host;
  return moved.href;
}

/** Schemas made by one test file, dropped together at its end. */
export interface TestSchemas {
  /** A new, empty schema's URL: `url` with `?schema=<prefix>_<random>`. */
  fresh(): string;
  /** Drops every schema made by {@link TestSchemas.fresh}. */
  dropAll(): Promise<void>;
}

/**
 * Fresh schemas on the test server, one per backend, so test files (and tests) never share
 * tables and run in parallel.
 *
 * @example
 * const schemas = createTestSchemas(server.url!, 'suite');
 * afterAll(() => schemas.dropAll());
 * createPostgresIndex({ url: schemas.fresh() });
 */
export function createTestSchemas(url: string, prefix: string): TestSchemas {
  const made: string[] = [];
  return {
    fresh() {
      const name = `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
      made.push(name);
      const withSchema = new URL(url);
      withSchema.searchParams.set('schema', name);
      return withSchema.href;
    },
    async dropAll() {
      if (made.length === 0) return;
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        for (const name of made.splice(0)) await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}
