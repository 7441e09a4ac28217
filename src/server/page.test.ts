import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPageApp, PAGE_CSP } from './page.ts';
// @ts-expect-error render.js is the page's own script, plain JavaScript without types.
import { quoteText } from './page/render.js';

describe('createPageApp', () => {
  const app = createPageApp();

  it('serves the page, its style and its script with their types and a strict CSP', async () => {
    const cases = [
      ['/', 'text/html; charset=utf-8', '<script type="module" src="/page.js"></script>'],
      ['/page.css', 'text/css; charset=utf-8', ':focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }'],
      ['/page.js', 'text/javascript; charset=utf-8', "import { HttpError, send, sseEvents, TOKEN_KEY } from './api.js';"],
      ['/api.js', 'text/javascript; charset=utf-8', "export const TOKEN_KEY = 'atlas-token';"],
      ['/render.js', 'text/javascript; charset=utf-8', 'export function showAnswer(turn, answer) {'],
      ['/doc-view.js', 'text/javascript; charset=utf-8', 'export function renderDoc(view, body, lines) {'],
    ] as const;
    for (const [path, type, excerpt] of cases) {
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
      expect(await response.text()).toContain(excerpt);
    }
  });

  it('has no inline script, no inline style and nothing from another origin', async () => {
    const html = await (await app.request('/')).text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts).toEqual(['<script type="module" src="/page.js">']);
    expect(html).not.toMatch(/<style|style="|\son[a-z]+="|javascript:|https?:\/\//);
    expect(html.match(/<link [^>]*>/g)).toEqual(['<link rel="icon" href="data:,">', '<link rel="stylesheet" href="/page.css">']);
    for (const path of ['/page.js', '/api.js', '/render.js', '/doc-view.js']) {
      const script = await (await app.request(path)).text();
      expect(script).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function|https?:\/\//);
    }
    expect(PAGE_CSP).not.toContain('unsafe');
  });

  it('labels every control of the page', async () => {
    const html = await (await app.request('/')).text();
    const ids = [...html.matchAll(/<(?:input|textarea|select)[^>]* id="([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toEqual(['token', 'question', 'version']);
    for (const id of ids) expect(html).toContain(`<label for="${id}">`);
  });

  it('fails when made, naming the file, when a page file is missing', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'atlas-page-'));
    await writeFile(join(folder, 'index.html'), '<!doctype html>');
    expect(() => createPageApp({ assetsDir: folder })).toThrow(
      `Atlas: the web page file ${join(folder, 'page.css')} cannot be read (ENOENT: no such file or directory, open '${join(folder, 'page.css')}'). Reinstall the package, or pass assetsDir to createPageApp.`,
    );
  });
});

describe('quoteText (render.js)', () => {
  it('drops link targets and bold markers, decodes entities, and keeps code, placeholders and values', () => {
    expect(quoteText('See [**the** guide](g.md "Guide") &amp; ![a chart](c.png): `a*b` for <queue>, 2*3 &#39;x&#x2019; &bogus; &constructor;')).toBe(
      "See the guide & a chart: `a*b` for <queue>, 2*3 'x\u2019 &bogus; &constructor;",
    );
  });

  it('reads a fenced code block as its lines in code spans, without VitePress\'s notation comments', () => {
    expect(quoteText('Run it with the directory path:\n\n```sh\npython3 -m venv tutorial-env\nsource tutorial-env/bin/activate # [!code highlight]\n```')).toBe(
      'Run it with the directory path:\n\n`python3 -m venv tutorial-env` `source tutorial-env/bin/activate`',
    );
  });
});
