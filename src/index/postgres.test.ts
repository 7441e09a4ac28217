import { afterAll, describe } from 'vitest';
import { createTestSchemas, testPostgres } from '../testing/postgres-server.ts';
import { describeIndexBackend } from './backend-suite.ts';
import { createPostgresIndex } from './postgres.ts';

const server = testPostgres(process.env);

describe.skipIf(server.url === undefined)(`PostgreSQL backend${server.url === undefined ? ` (skipped: ${server.absent})` : ''}`, () => {
  const schemas = createTestSchemas(server.url ?? 'postgres://unused', 'suite');
  afterAll(() => schemas.dropAll());
  describeIndexBackend('postgres', async () => createPostgresIndex({ url: schemas.fresh() }));
});
