// Headless Chromium for the web page's tests: Debian's /usr/bin/chromium through playwright-core
// (no browser download), and pages that may reach only the server under test. Not exported by
// atlas-rag/testing: playwright-core is a development dependency.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Debian's chromium package puts the browser (.ci/run installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether {@link CHROMIUM} is installed; browser tests are skipped, saying so, when it is not. */
export const chromiumInstalled = existsSync(CHROMIUM);

/**
 * A test's title, or with the reason it is skipped when Chromium is not installed.
 *
 * @example
 * it.skipIf(!chromiumInstalled)(browserTestTitle('shows the answer'), async () => { ... });
 */
export function browserTestTitle(title: string): string {
  return chromiumInstalled ? title : `${title}: skipped, chromium not installed at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`;
}

/**
 * Launches headless Chromium with no sandbox, GPU, QUIC or background traffic.
 *
 * @example
 * const browser = await launchChromium(); // ... await browser.close();
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A page of {@link openGuardedPage} and what it recorded. */
export interface GuardedPage {
  page: Page;
  /** Requests to anywhere but the origin (each was aborted). */
  foreign: string[];
  /** Console errors (but the expected 401 and 404 probes), uncaught errors and dialogs. */
  problems: string[];
}

/**
 * A page that may only reach `origin`: any other request is aborted and recorded, as are console
 * errors, uncaught errors and dialogs (`alert` included, which dismisses it). The page probes
 * POST /v1/conversations (404 without that API) and /v1/facets (401 before the token): those
 * console lines are expected, not problems.
 *
 * @example
 * const { page, foreign, problems } = await openGuardedPage(browser, server.url, { width: 390, height: 844 });
 */
export async function openGuardedPage(browser: Browser, origin: string, viewport = { width: 1100, height: 1400 }): Promise<GuardedPage> {
  const page = await browser.newPage({ viewport });
  const foreign: string[] = [];
  const problems: string[] = [];
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return route.continue();
    foreign.push(url);
    return route.abort();
  });
  page.on('console', (message) => {
    const expected = /^Failed to load resource: the server responded with a status of (401|404)/.test(message.text());
    if (message.type() === 'error' && !expected) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, foreign, problems };
}
