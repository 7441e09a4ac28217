// For tests: a Hono app served on loopback by @hono/node-server at a free port.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';

/** A running loopback server of an app. */
export interface ListeningApp {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

/**
 * Serves `app` on `127.0.0.1` at a port the OS picks (port 0), as `atlas serve` does.
 *
 * @example
 * const server = await listenOnLoopback(app);
 * await fetch(`${server.url}/v1/models`);
 * await server.close();
 */
export async function listenOnLoopback(app: { fetch: (request: Request) => Response | Promise<Response> }): Promise<ListeningApp> {
  let server: ReturnType<typeof serve> | undefined;
  const port = await new Promise<number>((resolve, reject) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    server.once('error', reject);
  });
  const running = server!;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        running.close((error) => (error ? reject(error) : resolve()));
        if ('closeAllConnections' in running) running.closeAllConnections();
      }),
  };
}
