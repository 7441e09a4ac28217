import type { AddressInfo } from 'node:net';

/** A PGlite database (PostgreSQL compiled to WebAssembly, in this process) served on a loopback port. */
export interface PgliteServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: what `pg` (and so PostgresIndex) connects to. */
  url: string;
  /** Stops the listener and closes the database. */
  close(): Promise<void>;
}

/**
 * Starts an in-memory PGlite with its pgvector extension (`@electric-sql/pglite-pgvector`) and
 * serves it over the PostgreSQL wire protocol (`@electric-sql/pglite-socket`) on
 * `127.0.0.1:<free port>`, so the real `pg` client of the PostgreSQL backend runs against it: a
 * server with pgvector for tests, where the test PostgreSQL 15 has none. PGlite is one session:
 * every connection shares it, so open one connection at a time (`maxConnections: 1`) and give
 * each index its own schema. Dev dependencies only; loaded on call.
 *
 * @example
 * const server = await startPgliteServer();
 * const index = createPostgresIndex({ url: `${server.url}?schema=docs`, maxConnections: 1 });
 * await server.close();
 */
export async function startPgliteServer(): Promise<PgliteServer> {
  const [{ PGlite }, { vector }, { PGLiteSocketServer }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    import('@electric-sql/pglite-socket'),
  ]);
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  const address = (server as unknown as { server: { address(): AddressInfo } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
    async close() {
      await server.stop();
      await db.close();
    },
  };
}
