// Test helper: the real `atlas serve` process on loopback, as a team starts it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.join(import.meta.dirname, '..', '..');

/** A running `atlas serve`: its URL, its stderr so far, and its exit code once it ends. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/**
 * Spawns `node bin/atlas.js serve --port 0 ...args` and resolves once it prints its
 * `listening on` line (rejects, with its stderr, when it exits before).
 *
 * @example
 * const server = await spawnServe(['--db', db], { ATLAS_TOKEN: token });
 * await fetch(`${server.url}/healthz`);
 * server.child.kill('SIGTERM'); await server.exited; // 0
 */
export async function spawnServe(args: string[], env: Record<string, string>): Promise<ServeProcess> {
  const child = spawn(process.execPath, ['bin/atlas.js', 'serve', '--port', '0', ...args], { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (text: string) => {
      stderr += text;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stderr);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`atlas serve exited ${code} before listening:\n${stderr}`)));
  });
  return { child, url, stderr: () => stderr, exited };
}
