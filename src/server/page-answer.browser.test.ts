// Reading the answer on a 390 px phone: the answer scrolled into view when it arrives, its [n]
// markers tied to the citation cards, source links that open the page's text at the cited lines,
// the closest passages of an abstention, a timed-out run shown as a failure, and a version switch
// that starts a new conversation visibly.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConversationStore } from '../conversations/sqlite-store.ts';
import type { IndexBackend } from '../index/types.ts';
import { browserTestTitle as reason, chromiumInstalled as installed, launchChromium, openGuardedPage } from '../testing/headless-chromium.ts';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { closestAnswerTurns, MARKED_ANSWER_TEXT, markedAnswerTurns, PAYLOAD_QUESTION, PAYLOAD_QUOTE, RESULTS_QUOTE } from '../testing/orbit-answers.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createScriptedModel, type ScriptedTurn } from '../testing/scripted-model.ts';
import { createApp, type AppOptions } from './app.ts';
import { conversationsApp } from './conversations.ts';
import { listenOnLoopback, type ListeningApp } from './test-listen.ts';
import type { ServerDeps } from './types.ts';

const PHONE = { width: 390, height: 844 };
/** Where the screenshots go (gitignored, beside serve-page.png). */
const ARTIFACTS = path.join(process.cwd(), 'test-artifacts');

let index: IndexBackend;
let browser: Browser | undefined;

beforeAll(async () => {
  index = await createOrbitIndex();
  if (installed) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await index.close();
});

async function serve(model: LanguageModelV3, overrides: Partial<ServerDeps> = {}, options: AppOptions = {}): Promise<ListeningApp> {
  const deps: ServerDeps = { index, model, modelSpec: 'scripted', price: null, now: () => 0, ...overrides };
  return listenOnLoopback(createApp(deps, options));
}

/** Opens the page and waits for its facets. */
async function openPhonePage(url: string) {
  const opened = await openGuardedPage(browser!, url, PHONE);
  await opened.page.goto(`${url}/`);
  await expect.poll(() => opened.page.locator('#version option').count()).toBeGreaterThan(1);
  return opened;
}

async function ask(page: Page, question: string) {
  await page.locator('#question').fill(question);
  await page.locator('#question').press('Enter');
}

/** The element's top and bottom in the viewport, in CSS pixels. */
function viewportBox(page: Page, selector: string, nth = 0) {
  return page.locator(selector).nth(nth).evaluate((element) => {
    const box = element.getBoundingClientRect();
    // || 0: a top of -0.4 rounds to -0, which is not 0 to toBe.
    return { top: Math.round(box.top) || 0, bottom: Math.round(box.bottom), viewport: window.innerHeight };
  });
}

describe('reading the answer on a 390 px phone', () => {
  it.skipIf(!installed)(reason('scrolls to the answer when it arrives; each [n] marker scrolls to and highlights card n; a source link opens the page at the cited lines'), async () => {
    const model = createScriptedModel([...markedAnswerTurns(), ...markedAnswerTurns()]);
    const server = await serve(model);
    const { page, foreign, problems } = await openPhonePage(server.url);
    try {
      // Two turns: the second answer arrives below the first one's cards, well out of view.
      for (const turn of [0, 1]) {
        await ask(page, PAYLOAD_QUESTION);
        await expect.poll(() => page.locator('.turn').nth(turn).locator('.run-summary').innerText(), { timeout: 20_000 }).toBe('route agentic · 1 search · 2 reads · stop model-done · 0 ms');
      }
      const second = page.locator('.turn').nth(1);
      const answer = await viewportBox(page, '.turn .answer-section', 1);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(PHONE.height);
      expect(answer.top).toBe(12); // the answer's scroll margin, 0.75rem
      expect(await second.locator('.answer-heading').innerText()).toBe('ANSWER'); // h4 text is upper-cased by the style
      expect(await second.locator('.answer').innerText()).toBe(MARKED_ANSWER_TEXT);
      expect(await second.locator('.answer a.marker').allInnerTexts()).toEqual(['[1]', '[2]']);
      expect(await second.locator('.trace-section').evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      expect(await second.locator('.trace-section summary').innerText()).toBe('Trace: 1 search, 2 reads');
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'serve-page-phone.png') });

      const cards = second.locator('li.citation');
      expect(await cards.locator('.citation-head').allInnerTexts()).toEqual([
        '[1] Results API › Passing large data between flow steps api-results.md:69-70 verified',
        '[2] Error codes › 12xx Payloads and results › ORB-1202 PayloadTooLarge error-codes.md:90-90 verified',
      ]);
      expect(await cards.locator('blockquote').allInnerTexts()).toEqual([RESULTS_QUOTE, PAYLOAD_QUOTE]);

      await second.locator('.answer a.marker').nth(1).click();
      await expect.poll(() => cards.nth(1).getAttribute('class')).toBe('citation highlight');
      expect(await cards.nth(0).getAttribute('class')).toBe('citation');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('turn-2-citation-2');
      const card = await viewportBox(page, '.turn:nth-child(2) li.citation', 1);
      expect(card.top).toBeGreaterThanOrEqual(0);
      expect(card.bottom).toBeLessThanOrEqual(PHONE.height);
      await second.locator('.answer a.marker').nth(0).click();
      await expect.poll(() => page.locator('.citation.highlight').count()).toBe(1);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('turn-2-citation-1');

      // The source link opens the page's text (GET /v1/docs/api-results) with the cited lines marked and in view.
      await cards.nth(0).locator('a.source').click();
      const viewer = page.locator('#doc-viewer');
      await expect.poll(() => viewer.locator('.cited-line').count()).toBe(2);
      expect(await viewer.locator('#doc-title').innerText()).toBe('Results API');
      expect(await viewer.locator('#doc-source').innerText()).toBe('api-results.md, lines 69-70');
      expect(await viewer.locator('.doc-chunk.cited').evaluateAll((sections) => sections.map((section) => (section as HTMLElement).dataset.chunkId))).toEqual(['api-results#3']);
      expect(await viewer.locator('.cited-line').evaluateAll((lines) => lines.map((line) => `${(line as HTMLElement).dataset.line}: ${line.textContent}`))).toEqual([
        '69: This is the most common use of the module. A step that returns a large value directly fails with',
        '70: `ORB-1202 PayloadTooLarge` after it has done all its work. Return a reference instead, and let',
      ]);
      // The cited lines are in view inside the viewer's scrolled text, under its title and Close.
      const inView = await viewer.locator('.cited-line').first().evaluate((line) => {
        const box = line.getBoundingClientRect();
        const body = document.getElementById('doc-body')!.getBoundingClientRect();
        const title = document.getElementById('doc-title')!.getBoundingClientRect();
        return [box.top >= body.top && box.bottom <= body.bottom, title.top >= 0, document.getElementById('doc-body')!.scrollTop > 0];
      });
      expect(inView).toEqual([true, true, true]);
      expect(await page.locator('#status').innerText()).toBe('Showing api-results.md, lines 69-70.');
      await page.screenshot({ path: path.join(ARTIFACTS, 'serve-page-doc.png') });
      await viewer.locator('#doc-close').click();
      expect(await viewer.isVisible()).toBe(false);

      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it.skipIf(!installed)(reason('shows the closest passages of an abstention that found no direct answer, each with its heading path, file:lines link and sentences'), async () => {
    const server = await serve(createScriptedModel(closestAnswerTurns()));
    const { page, foreign, problems } = await openPhonePage(server.url);
    try {
      await ask(page, PAYLOAD_QUESTION);
      const answer = page.locator('.turn .answer-section');
      await expect.poll(() => page.locator('#status').innerText(), { timeout: 20_000 }).toBe('Atlas found no direct answer; the closest passages in the docs are shown.');
      expect(await answer.getAttribute('class')).toBe('answer-section abstained');
      expect(await answer.locator('.answer-heading').textContent()).toBe('Abstained: no direct answer in the docs');
      expect(await answer.locator('.answer').innerText()).toBe("I couldn't find a direct answer in the docs.");
      expect(await answer.locator('.run-notes').innerText()).toBe('Why: the model abstained: no direct answer');
      expect(await answer.locator('.citations-heading').isVisible()).toBe(false);
      expect(await answer.locator('.closest-heading').textContent()).toBe('Closest passages in the docs');
      expect(await answer.locator('.closest-heading').isVisible()).toBe(true);
      const passage = answer.locator('li.closest-passage');
      expect(await passage.count()).toBe(1);
      expect(await passage.locator('.citation-head').innerText()).toBe('Error codes › 12xx Payloads and results › ORB-1202 PayloadTooLarge error-codes.md:90-91');
      expect(await passage.locator('blockquote p').allInnerTexts()).toEqual([PAYLOAD_QUOTE, 'For arguments,\n`enqueue` raises it at once.']);
      const box = await viewportBox(page, '.turn .answer-section');
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeLessThan(PHONE.height / 2);

      await passage.locator('a.source').click();
      await expect.poll(() => page.locator('#doc-viewer .cited-line').evaluateAll((lines) => lines.map((line) => (line as HTMLElement).dataset.line))).toEqual(['90', '91']);
      expect(await page.locator('#doc-viewer #doc-title').innerText()).toBe('Error codes');
      await page.keyboard.press('Escape');
      expect(await page.locator('#doc-viewer').isVisible()).toBe(false);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it.skipIf(!installed)(reason('shows a run that timed out as a failure to try again, never as "the docs do not say"'), async () => {
    // Ask 1: the first call takes the clock past the run deadline, so call 2 is refused (stop deadline).
    // Ask 2: the model never answers, and the 50 ms per-call timeout ends the run (stop timeout).
    let clock = 0;
    const scripted = createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202 PayloadTooLarge' } }] }]);
    let calls = 0;
    const model: LanguageModelV3 = {
      ...scripted,
      async doGenerate(call: LanguageModelV3CallOptions) {
        calls += 1;
        if (calls === 1) {
          clock += 301_000;
          return scripted.doGenerate(call);
        }
        return new Promise((_, reject) => call.abortSignal?.addEventListener('abort', () => reject(call.abortSignal!.reason), { once: true }));
      },
    };
    const server = await serve(model, { now: () => clock, limits: { callTimeoutMs: 50 } });
    const { page, foreign, problems } = await openPhonePage(server.url);
    try {
      const cases: Array<[string, string]> = [
        ['Does Orbit cap payloads?', 'The run timed out after 300 s; try again.'],
        ['Does Orbit cap results?', 'The run timed out after 0.05 s waiting for the model; try again.'],
      ];
      for (const [turn, [question, message]] of cases.entries()) {
        await ask(page, question);
        const answer = page.locator('.turn').nth(turn).locator('.answer-section');
        await expect.poll(() => answer.isVisible(), { timeout: 20_000 }).toBe(true);
        expect(await answer.getAttribute('class')).toBe('answer-section failed');
        expect(await answer.locator('.answer-heading').textContent()).toBe('The run timed out');
        expect(await answer.locator('.answer').innerText()).toBe(message);
        await expect.poll(() => page.locator('#status').innerText()).toBe(message);
        expect(await answer.locator('.run-notes').innerText()).toBe('');
      }
      expect(await page.locator('.turn .run-summary').allInnerTexts()).toEqual(['route agentic · 1 search · 0 reads · stop deadline · 301000 ms', 'route agentic · 0 searches · 0 reads · stop timeout · 0 ms']);
      expect(await page.locator('body').innerText()).not.toMatch(/do not say|couldn't find/);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it.skipIf(!installed)(reason('switching the version starts a new conversation visibly: the turns go and the page says so'), async () => {
    const store = openConversationStore({ path: ':memory:' });
    const turns: ScriptedTurn[] = [...markedAnswerTurns(), ...markedAnswerTurns()];
    const deps: ServerDeps = { index, model: createScriptedModel(turns), modelSpec: 'scripted', price: null, now: () => 0 };
    const server = await listenOnLoopback(createApp(deps, { routes: [conversationsApp(deps, store)] }));
    const { page, foreign, problems } = await openPhonePage(server.url);
    const created: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/conversations') created.push(request.postData() ?? '');
    });
    try {
      await ask(page, PAYLOAD_QUESTION);
      await expect.poll(() => page.locator('.turn .run-summary').count(), { timeout: 20_000 }).toBe(1);
      await expect.poll(() => page.locator('.turn .run-summary').innerText()).not.toBe('');
      expect(await page.locator('#conversation-notice').isVisible()).toBe(false);

      await page.locator('#version').selectOption('3.x');
      expect(await page.locator('.turn').count()).toBe(0);
      expect(await page.locator('#conversation-notice').innerText()).toBe('New conversation for version 3.x.');
      expect(await page.locator('#empty-conversation').isVisible()).toBe(true);
      expect(await page.locator('#status').innerText()).toBe('New conversation for version 3.x.');

      await ask(page, PAYLOAD_QUESTION);
      await expect.poll(() => page.locator('.turn .run-summary').innerText(), { timeout: 20_000 }).not.toBe('');
      expect(await page.locator('.turn').count()).toBe(1);
      expect(await page.locator('.turn .trace li.search').first().textContent()).toMatch(/^Searched “ORB-1202 PayloadTooLarge” in 3\.x: /);
      expect(created).toEqual(['{}', '{"version":"3.x"}']);

      await page.locator('#version').selectOption('');
      expect(await page.locator('#conversation-notice').innerText()).toBe('New conversation for every version.');
      expect(await page.locator('.turn').count()).toBe(0);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
      await store.close();
    }
  });

  /**
   * Serves an index of one doc (`docId`, one section holding `text`) to a scripted model that
   * plays `turns`, asks `question` on a phone-sized page and hands the page to `check`; then
   * checks that nothing foreign was loaded and no page error occurred, and closes it all.
   */
  async function askAboutOneDoc(docId: string, text: string, turns: ScriptedTurn[], question: string, check: (page: Page) => Promise<void>) {
    const oneDoc = createMemoryIndex([makeDoc(docId, 'all', [[docId, text]])]);
    const server = await serve(createScriptedModel(turns), { index: oneDoc });
    const { page, foreign, problems } = await openGuardedPage(browser!, server.url, PHONE);
    try {
      await page.goto(`${server.url}/`);
      await ask(page, question);
      await check(page);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
      await oneDoc.close();
    }
  }

  it.skipIf(!installed)(reason('shows a quote as a reader reads it: link targets, bold markers and entities rendered, code spans and values kept'), async () => {
    const markdown = 'It&apos;s **capped**: use [`maxPoolSize`](/config/pool) &mdash; `65536*1024` for <queue>, *not* more.';
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'pool cap' } }] },
      { answer: { text: 'It is capped. [1]', citations: [{ doc_id: 'pool', quote: markdown }] } },
    ];
    await askAboutOneDoc('pool', markdown, turns, 'Is the pool capped?', async (page) => {
      const quote = page.locator('.turn li.citation blockquote');
      await expect.poll(() => quote.count(), { timeout: 20_000 }).toBe(1);
      expect(await quote.innerText()).toBe("It's capped: use `maxPoolSize` \u2014 `65536*1024` for <queue>, *not* more.");
      expect(await page.locator('.turn li.citation queue, .turn li.citation a:not(.source)').count()).toBe(0);
    });
  });

  it.skipIf(!installed)(reason('sets Arabic text right to left: the question, the answer and its quote, as their first letters say'), async () => {
    const text = 'أسّس الفاطميون مدينة القاهرة عام 969 ميلادية.';
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'القاهرة' } }] },
      { answer: { text: 'أسّس الفاطميون مدينة القاهرة. [1]', citations: [{ doc_id: 'cairo', quote: text }] } },
    ];
    await askAboutOneDoc('cairo', text, turns, 'من أسس مدينة القاهرة؟', async (page) => {
      const quote = page.locator('.turn li.citation blockquote');
      await expect.poll(() => quote.count(), { timeout: 20_000 }).toBe(1);
      const direction = (selector: string) => page.locator(selector).first().evaluate((element) => getComputedStyle(element).direction);
      expect([await direction('.turn .question'), await direction('.turn .answer'), await direction('.turn li.citation blockquote')]).toEqual(['rtl', 'rtl', 'rtl']);
      // The card's head (heading path and source link) stays left to right.
      expect(await direction('.turn li.citation .citation-head')).toBe('ltr');
    });
  });

  it.skipIf(!installed)(reason('sets quotes and document text as text, never as HTML'), async () => {
    const unsafe = 'Use <img src=x onerror="alert(1)"> to <b>break</b> pages.';
    const turns: ScriptedTurn[] = [
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'break pages' } }] },
      { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'unsafe#0' } }] },
      { answer: { text: 'It breaks pages. [1]', citations: [{ doc_id: 'unsafe', quote: unsafe }] } },
    ];
    await askAboutOneDoc('unsafe', unsafe, turns, 'How do I break pages?', async (page) => {
      const quote = page.locator('.turn li.citation blockquote');
      await expect.poll(() => quote.count(), { timeout: 20_000 }).toBe(1);
      expect(await quote.innerText()).toBe(unsafe);
      await page.locator('.turn li.citation a.source').click();
      await expect.poll(() => page.locator('#doc-viewer .doc-text').innerText()).toBe(unsafe);
      expect(await page.locator('img, b').count()).toBe(0);
    });
  });
});
