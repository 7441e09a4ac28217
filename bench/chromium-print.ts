/**
 * Chromium's headless print to PDF, one browser for many pages: the DevTools protocol over
 * `--remote-debugging-pipe` (JSON messages ended by a NUL byte on file descriptors 3 and 4).
 * The same print as `chromium --headless --print-to-pdf=out.pdf page.html` (Letter paper, the
 * date and title above each page and the URL and page number below), without starting a browser
 * per page: starting one takes seconds on a loaded machine, printing a page a fraction of that.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/** A running headless Chromium that prints pages. */
export interface ChromiumPrinter {
  /** Prints the page at a `file://` URL, resolving to the PDF's bytes. */
  print(url: string): Promise<Buffer>;
  close(): Promise<void>;
}

interface Reply {
  id?: number;
  method?: string;
  sessionId?: string;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * Starts Chromium with a profile folder of its own.
 *
 * @example
 * const printer = await startChromiumPrinter('/tmp/profile');
 * writeFileSync('page.pdf', await printer.print('file:///tmp/site/page.html'));
 * await printer.close();
 */
export async function startChromiumPrinter(profile: string): Promise<ChromiumPrinter> {
  const child = spawn('chromium', ['--headless', '--disable-gpu', '--no-sandbox', '--no-first-run', `--user-data-dir=${profile}`, '--remote-debugging-pipe'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const connection = connect(child);
  return {
    async print(url) {
      const { targetId } = (await connection.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
      const { sessionId } = (await connection.send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
      try {
        await connection.send('Page.enable', {}, sessionId);
        const loaded = connection.waitFor('Page.loadEventFired', sessionId);
        await connection.send('Page.navigate', { url }, sessionId);
        await loaded;
        const { data } = (await connection.send('Page.printToPDF', { displayHeaderFooter: true, preferCSSPageSize: false }, sessionId)) as { data: string };
        return Buffer.from(data, 'base64');
      } finally {
        await connection.send('Target.closeTarget', { targetId });
      }
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill();
      await exited;
    },
  };
}

function connect(child: ChildProcess) {
  const input = child.stdio[3] as Writable;
  const output = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();
  const waiting: Array<{ method: string; sessionId: string; resolve: () => void }> = [];
  let buffered = '';
  output.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    let end: number;
    while ((end = buffered.indexOf('\0')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, end)) as Reply;
      buffered = buffered.slice(end + 1);
      if (reply.id !== undefined) {
        const call = pending.get(reply.id);
        pending.delete(reply.id);
        if (reply.error) call?.reject(new Error(`chromium: ${reply.error.message}`));
        else call?.resolve(reply.result ?? {});
      } else {
        const at = waiting.findIndex((wait) => wait.method === reply.method && wait.sessionId === reply.sessionId);
        if (at >= 0) waiting.splice(at, 1)[0]!.resolve();
      }
    }
  });
  child.once('exit', () => {
    for (const call of pending.values()) call.reject(new Error('chromium exited'));
  });
  return {
    send(method: string, params: Record<string, unknown>, sessionId?: string): Promise<Record<string, unknown>> {
      const id = nextId++;
      input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
    },
    waitFor(method: string, sessionId: string): Promise<void> {
      return new Promise((resolve) => waiting.push({ method, sessionId, resolve }));
    },
  };
}
