import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import { compareCases, type EvalCase } from '../cases.ts';
import { runCompare } from '../compare.ts';
import { loadDataset } from '../dataset/dataset.ts';
import { compareReport, type CompareReport } from './report-json.ts';
import { renderReportHtml } from './report-html.ts';
import { answerHtml } from './report-trace.ts';
import { TINY, TINY_SCRIPTS } from '../../cli/test-cli.ts';
import { createPolicyModel } from '../test-model.ts';

const CHROMIUM = '/usr/bin/chromium';
const HOSTILE = '<img src=x onerror="alert(1)"><script>alert(2)</script> & more';

let report: CompareReport;
let html: string;

beforeAll(async () => {
  const dataset = await loadDataset(TINY);
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest(dataset.docs);
  const hostile: EvalCase = { id: 'hostile', kind: 'qa', question: HOSTILE, gold: ['flows'], version: null, facts: [] };
  const result = await runCompare({
    cases: [...compareCases(dataset), hostile],
    docs: dataset.docs,
    index,
    model: createPolicyModel(TINY_SCRIPTS),
    price: { input: 1, output: 2 },
    now: () => 0,
    budgets: [1, 6],
  });
  await index.close();
  report = compareReport(result, { dataset: 'tiny <demo>', model: 'scripted', maxSearches: 6, concurrency: 4 });
  html = renderReportHtml(report);
});

describe('renderReportHtml', () => {
  it('escapes every dataset and model text and loads nothing from the network', () => {
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt; &amp; more');
    expect(html).toContain('<h1>Atlas eval: classic vs agentic on tiny &lt;demo&gt;</h1>');
    expect(html).not.toMatch(/<script|<img|<link|@import|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
  });

  it('explains correct and factRecall under the results table', () => {
    expect(html).toContain('<th>read recall</th><th>pass</th><th>correct</th><th>factRecall</th>');
    expect(html).toContain('<li>pass: cites a gold page (abstains where there is none)</li>');
    expect(html).toContain('counts as correct when it passes); abstained where there is no gold page. 5 of the 9 cases list facts</li>');
  });

  it('draws one bar per kind and arm with a value (recall is n/a where there is no gold)', () => {
    // 5 kinds x 4 arms; the unanswerable kind has no recall bars.
    expect(html.match(/<rect class="bar"/g)).toHaveLength(16 + 20);
    expect(html).toContain('<title>unanswerable / agentic: n/a</title>');
    expect(html).toContain('<title>multi_hop / agentic: 0.33</title>');
    expect(html).toContain('Cost per question (USD)');
  });

  it('lists the failed cases with their bucket, expandable to the trace', () => {
    // Agentic: 4 cases that do not pass, qa-1 that passes without its facts, and the hostile case
    // (it fails in every arm); each classic arm: hop-1, version-1 and the hostile case; auto: the
    // 4 agentic failures (all escalated) and the hostile case, while qa-1 keeps classic's full answer.
    expect(html.match(/<details class="case"/g)).toHaveLength(6 + 3 + 3 + 5);
    expect(html).toContain('<h2>Failed cases (17: not passed or not correct)</h2>');
    expect(html).toContain('<span class="bucket bucket-planning">planning</span> <code>hop-1</code>');
    expect(html).toContain('<tr><th>stop reason</th><td><code>model-done</code></td></tr>');
    expect(html).toContain('<tr><th>facts</th><td><ul><li><q>ORB-1202</q> or <q>PayloadTooLarge</q> <span class="note">missing</span></li><li><q>max_payload_kb</q> <span class="note">missing</span></li></ul></td></tr>');
    expect(html).toContain('<tr><th>facts</th><td><em>none listed</em></td></tr>');
    expect(html).toContain('<li><q>leases</q> <span class="muted">[version 2.x]</span> &rarr; new docs: <code class="">leases-2x</code> <span class="note">weak-matches</span></li>');
  });
});

describe('report.html in headless Chromium', () => {
  const installed = existsSync(CHROMIUM);
  const title = installed ? 'shows the charts and expands a failed case to its trace' : 'chromium not installed (apt-get install chromium)';
  it.skipIf(!installed)(title, async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
      const requests: string[] = [];
      const dialogs: string[] = [];
      await page.route('**/*', (route) => {
        requests.push(route.request().url());
        return route.abort();
      });
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.setContent(html, { waitUntil: 'load' });

      const bars = page.locator('svg.chart rect.bar');
      expect(await bars.count()).toBe(36);
      await expect.poll(() => bars.first().isVisible()).toBe(true);
      const firstBar = await bars.first().boundingBox();
      expect(firstBar?.height).toBeGreaterThan(0);

      const failed = page.locator('details.case', { hasText: 'hop-1' }).first();
      const trace = failed.locator('table.trace');
      expect(await trace.isVisible()).toBe(false);
      await failed.locator('summary').click();
      await expect.poll(() => trace.isVisible()).toBe(true);
      expect(await trace.locator('tr', { hasText: 'stop reason' }).innerText()).toBe('stop reason\tmodel-done');
      expect(await trace.locator('tr', { hasText: 'searches' }).innerText()).toContain('ORB-1202');

      await page.locator('details.case', { hasText: 'onerror' }).first().locator('summary').click();
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([]);

      const artifacts = path.join(process.cwd(), 'test-artifacts');
      await mkdir(artifacts, { recursive: true });
      await page.screenshot({ path: path.join(artifacts, 'report.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});

describe('unsupported claims in the report', () => {
  it('counts them per arm and marks each in its answer, escaped', () => {
    expect(html).toContain('<h2>Unsupported claims (');
    expect(html).toContain('<tr><th>arm</th><th>unsupported claims</th><th>claims</th></tr>');
    const claims = { text: 'Leases last <45> minutes; set lease_seconds.', claims: [
      { text: 'Leases last <45> minutes;', supported: false, score: 0.2, citations: [0] },
      { text: 'set lease_seconds.', supported: true, score: 1, citations: [0] },
    ] };
    expect(answerHtml(claims)).toBe(
      '<mark class="unsupported" title="no verified quote supports this claim (score 0.2)">Leases last &lt;45&gt; minutes;</mark> <span class="note">[unsupported]</span> set lease_seconds.',
    );
    expect(answerHtml({ text: 'No claims & all.' })).toBe('No claims &amp; all.');
  });
});
