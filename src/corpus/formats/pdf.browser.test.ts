import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserTestTitle as reason, chromiumInstalled as installed, launchChromium } from '../../testing/headless-chromium.ts';
import { DEFAULT_FORMAT_LIMITS } from './limits.ts';
import { convertPdf } from './pdf.ts';

// A page as pandoc renders a markdown page to HTML, printed by Chromium (a tagged PDF, as its
// headless print and DevTools' Page.printToPDF make by default): bullets drawn as shapes, code in
// the default monospace font, inline code at 85%.
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Queues</title>
<style>body { font-family: serif; font-size: 12pt; } code { font-size: 85%; } li { max-width: 18em; }</style></head><body>
<h1>Queues</h1>
<p>Call <code>addJob()</code> with a <a href="https://example.org/tasks">task</a> name.</p>
<ul>
<li>Jobs of one queue run one at a time, in the order they were added to it</li>
<li>Set <code>queueName</code><ul><li>on the job</li></ul></li>
</ul>
<ol><li>Install it.</li><li>Run it.</li></ol>
<pre><code>await addJob({
  queue: 'emails',
});

run();</code></pre>
<p>That is all.</p>
</body></html>`;

let browser: Browser | undefined;

beforeAll(async () => {
  if (installed) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('convertPdf on a page printed by Chromium', () => {
  it.skipIf(!installed)(reason('reads its headings, links, code spans, list items (bullets drawn, nested, numbered) and code block'), async () => {
    const page = await browser!.newPage();
    await page.setContent(PAGE);
    const pdf = await page.pdf({ format: 'Letter', tagged: true });
    await page.close();
    expect(await convertPdf(pdf, DEFAULT_FORMAT_LIMITS)).toEqual({
      ok: true,
      page: {
        title: 'Queues',
        markdown:
          '# Queues\n\nCall `addJob()` with a [task](https://example.org/tasks) name.\n\n' +
          '- Jobs of one queue run one at a time, in the order they were added to it\n\n- Set `queueName`\n\n  - on the job\n\n' +
          "1. Install it.\n\n2. Run it.\n\n```\nawait addJob({\n  queue: 'emails',\n});\n\nrun();\n```\n\nThat is all.\n",
        linePages: Array.from({ length: 23 }, () => 1),
      },
    });
  });
});
