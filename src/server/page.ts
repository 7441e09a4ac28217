// The web page of `atlas serve` at `/`: static HTML, CSS and four small script modules from
// src/server/page/, served with a strict Content-Security-Policy (no inline script, nothing from
// another origin).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { AtlasError } from '../errors.ts';
import type { ServerEnv } from './types.ts';

/**
 * The folder of the page's files. The same relative path holds from src/server/page.ts and from
 * the compiled dist/server/page.js: the files stay in src/ (the package ships src/).
 */
export const PAGE_ASSETS_DIR = fileURLToPath(new URL('../../src/server/page/', import.meta.url));

/** The Content-Security-Policy of the page: its own scripts, styles and API only. */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ASSETS = [
  { path: '/', file: 'index.html', type: 'text/html; charset=utf-8' },
  { path: '/page.css', file: 'page.css', type: 'text/css; charset=utf-8' },
  { path: '/page.js', file: 'page.js', type: 'text/javascript; charset=utf-8' },
  { path: '/api.js', file: 'api.js', type: 'text/javascript; charset=utf-8' },
  { path: '/render.js', file: 'render.js', type: 'text/javascript; charset=utf-8' },
  { path: '/doc-view.js', file: 'doc-view.js', type: 'text/javascript; charset=utf-8' },
] as const;

/** Options of {@link createPageApp}. */
export interface PageAppOptions {
  /** Folder holding index.html, page.css, page.js, api.js, render.js and doc-view.js (default {@link PAGE_ASSETS_DIR}). */
  assetsDir?: string;
}

/**
 * The page as a Hono sub-app: `GET /`, `/page.css`, `/page.js` (with its modules `/api.js`,
 * `/render.js` and `/doc-view.js`), read once from `assetsDir`
 * when the app is made (a missing file is an error then, not at the first visit). Every response
 * carries {@link PAGE_CSP}, `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer`.
 * Mounted outside `/v1`, so the page loads without a token; it asks for one when the API does.
 *
 * @example
 * const app = new Hono<ServerEnv>().route('/', createPageApp()); // createApp(deps) already has it
 * // open http://127.0.0.1:8787/
 */
export function createPageApp(options: PageAppOptions = {}): Hono<ServerEnv> {
  const folder = options.assetsDir ?? PAGE_ASSETS_DIR;
  const app = new Hono<ServerEnv>();
  for (const asset of ASSETS) {
    const body = readAsset(folder, asset.file);
    app.get(asset.path, (c) => {
      c.header('content-type', asset.type);
      c.header('content-security-policy', PAGE_CSP);
      c.header('x-content-type-options', 'nosniff');
      c.header('referrer-policy', 'no-referrer');
      c.header('cache-control', 'no-cache');
      return c.body(body);
    });
  }
  return app;
}

function readAsset(folder: string, file: string): string {
  const path = join(folder, file);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new AtlasError('internal', `Atlas: the web page file ${path} cannot be read (${(error as Error).message}). Reinstall the package, or pass assetsDir to createPageApp.`, { cause: error });
  }
}
