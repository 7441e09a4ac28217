/**
 * The index layer: the {@link IndexBackend} boundary and its SQLite FTS5 implementation.
 * The shared test suite lives in `./contract/backend-suite.ts` (it imports vitest, so it is not re-exported).
 *
 * @example
 * import { createSqliteIndex } from './index/index.ts';
 * const index = createSqliteIndex({ path: '.atlas/index.db' });
 */
export {
  createSqliteIndex,
  DEFAULT_WEIGHTS,
  type ColumnWeights,
  type SqliteIndex,
  type SqliteIndexOptions,
} from './sqlite/sqlite.ts';
export { SCHEMA_VERSION } from './sqlite/schema.ts';
export { createPostgresIndex, type PostgresIndex, type PostgresIndexOptions, type PostgresRanking } from './postgres/postgres.ts';
export { POSTGRES_SCHEMA_VERSION } from './postgres/postgres-schema.ts';
export { isPostgresUrl } from './postgres/postgres-url.ts';
export { definitionsOf, type Definitions } from './analysis/definitions.ts';
export { headingPathText, HEADING_PATH_SEPARATOR } from './heading-path.ts';
export { queryIdentifiers, type QueryIdentifier } from './analysis/identifiers.ts';
export { DEFAULT_TOKENIZER, type TokenizerOptions } from './analysis/tokenize.ts';
export { computeIndexVersion } from './index-version.ts';
export { ingestItems, ingestPageWorker } from './sqlite/ingest-items.ts';
export type { IngestItem } from './sqlite/ingest-session.ts';
export type { IngestSource, IngestStreamOptions } from './sqlite/ingest.ts';
export { createTestDoc, type TestDocSpec, type TestSection } from './test-docs.ts';
export type { Hit, IndexBackend, IngestReport, Principal, SearchFilter, SearchOptions } from './types.ts';
export { ACL_LABEL, ALL_VALUE, filterClause, passesLabels, principalGroups } from './filter.ts';
