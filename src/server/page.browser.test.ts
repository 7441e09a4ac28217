import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routedAsk } from '../agent/policy/route.ts';
import type { Answer } from '../agent/trust/answer.ts';
import { createOfflineModel } from '../models/offline/index.ts';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { browserTestTitle as reason, chromiumInstalled as installed, launchChromium, openGuardedPage } from '../testing/headless-chromium.ts';
import { openConversationStore } from '../conversations/sqlite-store.ts';
import { createApp, type AppOptions } from './app.ts';
import { conversationsApp } from './conversations.ts';
import { listenOnLoopback, type ListeningApp } from './test-listen.ts';
import type { ServerDeps } from './types.ts';
// @ts-expect-error render.js is the page's own script, plain JavaScript without types.
import { quoteText } from './page/render.js';

/** The README's multi-hop demo question. */
const QUESTION =
  'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';
const TOKEN = 'page-test-token-0123456789';
/** Where the screenshot goes (gitignored; docs/server-openai-and-page.md says so). */
const ARTIFACTS = path.join(process.cwd(), 'test-artifacts');

let index: IndexBackend;
let browser: Browser | undefined;

/**
 * The offline planner with one call held until `release()`: call `heldCall` (default 2, so the
 * run has searched once and cannot have answered yet), or the second call of the next turn
 * after `holdNextTurn()`.
 */
function createHeldModel(heldCall = 2): { model: LanguageModelV3; release: () => void; holdNextTurn: () => void } {
  const offline = createOfflineModel() as LanguageModelV3;
  let release: () => void = () => {};
  let held = Promise.resolve();
  const arm = () => {
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
  };
  arm();
  let calls = 0;
  const model: LanguageModelV3 = {
    ...offline,
    async doGenerate(call: LanguageModelV3CallOptions) {
      calls += 1;
      if (calls === heldCall) await held;
      return offline.doGenerate(call);
    },
  };
  const holdNextTurn = () => {
    heldCall = calls + 2;
    arm();
  };
  return { model, release: () => release(), holdNextTurn };
}

async function serveOrbit(options: AppOptions = {}, model: LanguageModelV3 = createOfflineModel() as LanguageModelV3): Promise<ListeningApp> {
  const deps: ServerDeps = { index, model, modelSpec: 'offline', price: null, now: () => 0 };
  return listenOnLoopback(createApp(deps, options));
}

/** The run `atlas serve` makes of a question on the Orbit index with the offline planner (prepareAsk's options). */
function offlineRun(question: string) {
  return routedAsk(question, { route: 'agentic', model: createOfflineModel(), index, price: null, maxSearches: 6, firstTurn: 'required', now: () => 0 });
}

/** What a turn shows of its answer, read back from the page. */
async function shownAnswer(turn: Locator) {
  const section = turn.locator('.answer-section');
  return {
    heading: await section.locator('.answer-heading').textContent(),
    text: await section.locator('.answer').innerText(),
    citations: await section.locator('li.citation .citation-head').allInnerTexts(),
    quotes: await section.locator('li.citation blockquote').allInnerTexts(),
    closest: await section.locator('li.closest-passage .citation-head').allInnerTexts(),
    sentences: await section.locator('li.closest-passage blockquote p').allInnerTexts(),
  };
}

/** What the page must show of `answer`: {@link shownAnswer} of a turn that shows it right. */
function expectedShown(answer: Answer) {
  const closest = answer.closest ?? [];
  const place = (at: { sourcePath: string; startLine: number; endLine: number }) => `${at.sourcePath}:${at.startLine}-${at.endLine}`;
  return {
    heading: !answer.abstained ? 'Answer' : closest.length > 0 ? 'Abstained: no direct answer in the docs' : 'Abstained: the docs do not say',
    text: answer.text,
    citations: answer.citations.map((citation, position) => `[${position + 1}] ${citation.headingPath.join(' › ')} ${place(citation)} verified`),
    // The page shows a quote's markdown rendered (link targets dropped): render.js quoteText.
    quotes: answer.citations.map((citation) => quoteText(citation.quote)),
    closest: closest.map((passage) => `${passage.headingPath.join(' › ')} ${place(passage)}`),
    sentences: closest.flatMap((passage) => passage.sentences.map(quoteText)),
  };
}

/** What the page announces when `answer` arrives. */
function announced(answer: Answer): string {
  if (!answer.abstained) return `Answer ready with ${answer.citations.length} verified citation${answer.citations.length === 1 ? '' : 's'}.`;
  return (answer.closest ?? []).length > 0 ? 'Atlas found no direct answer; the closest passages in the docs are shown.' : 'Atlas abstained: the docs do not say.';
}

/** A page that may only reach `origin` (openGuardedPage), 1100 x 1400. */
const openPage = (origin: string) => openGuardedPage(browser!, origin);

beforeAll(async () => {
  index = await createOrbitIndex();
  if (installed) browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await index.close();
});

describe('the web page in headless Chromium', () => {
  it.skipIf(!installed)(reason('streams the trace of the README question, then shows the answer first, its citation cards (or closest passages) with their quotes, and the trace folded under it'), async () => {
    // The page must show exactly the run the server makes (what the planner answers is its own tests' business).
    const expected = await offlineRun(QUESTION);
    const searchCount = expected.trace.steps.length;
    const readCount = expected.trace.reads.length;
    const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : word === 'search' ? 'es' : 's'}`;
    const held = createHeldModel();
    const server = await serveOrbit({}, held.model);
    const { page, foreign, problems } = await openPage(server.url);
    try {
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.locator('#version option').allInnerTexts()).toEqual(['Every version', '2.x', '3.x']);
      await expect.poll(() => page.locator('#index-status').innerText()).toMatch(/^46 documents, \d+ passages indexed\./);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('question');
      // Every control is found by its role and label, as assistive technology finds it.
      expect(await page.getByRole('textbox', { name: 'Your question' }).count()).toBe(1);
      expect(await page.getByRole('combobox', { name: 'Version' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Ask' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Stop' }).isDisabled()).toBe(true);

      await page.locator('#question').fill(QUESTION);
      await page.locator('#question').press('Enter');

      // The model's second call is held: the first search reached the page while the run still works.
      const answer = page.locator('.turn .answer-section');
      await expect.poll(() => page.locator('.trace li.search').count(), { timeout: 20_000 }).toBe(1);
      expect(await answer.isVisible()).toBe(false);
      expect(await page.locator('#ask-button').isDisabled()).toBe(true);
      expect(await page.locator('.turns').getAttribute('aria-busy')).toBe('true');
      held.release();

      await expect.poll(() => answer.isVisible(), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => page.locator('.run-summary').innerText()).toBe(`route agentic · ${plural(searchCount, 'search')} · ${plural(readCount, 'read')} · stop ${expected.trace.stopReason} · 0 ms`);

      expect(await page.locator('.turn .question').innerText()).toBe(QUESTION);
      expect(await page.locator('#conversation-mode').innerText()).toBe('Each question is answered on its own (this server keeps no conversations).');
      // The answer comes first; the trace is folded under it, and opens on a click.
      const trace = page.locator('.turn .trace-section');
      expect(await trace.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      expect(await trace.locator('summary').innerText()).toBe(`Trace: ${plural(searchCount, 'search')}, ${plural(readCount, 'read')}`);
      expect(await answer.evaluate((section) => section.compareDocumentPosition(section.parentElement!.querySelector('.trace-section')!) & Node.DOCUMENT_POSITION_FOLLOWING)).toBeTruthy();
      await trace.locator('summary').focus();
      await page.keyboard.press('Enter');
      expect(await trace.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(true);
      const searches = await page.locator('.trace li.search').allInnerTexts();
      // One search: the passages it read state the answer, so the planner searches no more.
      expect(searches).toHaveLength(1);
      expect(searches[0]).toMatch(/^Searched “A flow step that returns a big query result .*instead\?”: 5 passages, new documents: /);
      expect(await page.locator('.trace li.read code').allInnerTexts()).toEqual(expected.trace.reads.map((read) => read.chunkId));

      expect(await shownAnswer(page.locator('.turn').first())).toEqual(expectedShown(expected.answer));
      expect(expected.answer.citations.length + (expected.answer.closest ?? []).length).toBeGreaterThan(0);
      const source = answer.locator('a.source').first();
      expect(await source.isVisible()).toBe(true);
      const cited = expected.answer.citations[0] ?? expected.answer.closest![0]!;
      expect(await source.getAttribute('href')).toBe(`/v1/docs/${cited.docId}?lines=${cited.startLine}-${cited.endLine}`);
      await source.focus();
      expect(await source.evaluate((element) => getComputedStyle(element).outlineStyle + ' ' + getComputedStyle(element).outlineWidth)).toBe('solid 3px');
      expect(await page.locator('#status').innerText()).toBe(announced(expected.answer));

      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'serve-page.png'), fullPage: true });

      // A follow-up turn is added below the first; an unanswerable question is shown as an abstention.
      await page.locator('#question').fill('Does Orbit support Apache Kafka as a broker?');
      await page.locator('#question').press('Enter');
      const second = page.locator('.turn').nth(1).locator('.answer-section');
      await expect.poll(() => second.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await second.getAttribute('class')).toBe('answer-section abstained');
      expect(await second.locator('.answer-heading').textContent()).toBe('Abstained: the docs do not say');
      expect(await second.locator('.answer').innerText()).toBe("I couldn't find this in the docs.");
      expect(await second.locator('li.citation').count()).toBe(0);
      await expect.poll(() => page.locator('#status').innerText()).toBe('Atlas abstained: the docs do not say.');
      expect(await page.locator('.turn').count()).toBe(2);

      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it.skipIf(!installed)(reason('continues a conversation through the conversations API: a follow-up that names nothing searches with the earlier turn\'s terms'), async () => {
    const store = openConversationStore({ path: ':memory:' });
    const held = createHeldModel(Number.POSITIVE_INFINITY);
    const deps: ServerDeps = { index, model: held.model, modelSpec: 'offline', price: null, now: () => 0 };
    const server = await listenOnLoopback(createApp(deps, { routes: [conversationsApp(deps, store)] }));
    const { page, foreign, problems } = await openPage(server.url);
    // The run each turn's stream ends with (its last event), as the page received it.
    const runs: Array<Promise<any>> = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('/messages/stream')) return;
      runs.push(response.text().then((text) => JSON.parse(/event: run\ndata: (.*)\n\n$/.exec(text)![1]!)));
    });
    try {
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.locator('#version option').allInnerTexts()).toEqual(['Every version', '2.x', '3.x']);
      await page.locator('#question').fill('How do I enqueue a job in Orbit 3.x?');
      await page.locator('#question').press('Enter');
      await expect.poll(() => page.locator('.turn').nth(0).locator('.answer-section').isVisible(), { timeout: 20_000 }).toBe(true);

      // The follow-up's second model call is held: its first search streamed to the page while the turn still works.
      held.holdNextTurn();
      await page.locator('#question').fill('and how do I cancel it?');
      await page.locator('#question').press('Enter');
      const followUp = page.locator('.turn').nth(1);
      await expect.poll(() => followUp.locator('.trace li.search').count(), { timeout: 20_000 }).toBe(1);
      // While the run works, its trace is open and shows each search.
      expect(await followUp.locator('.trace li.search').first().innerText()).toMatch(/^Searched “and how do I cancel it\? Orbit enqueue job” in 3\.x: /);
      expect(await followUp.locator('.answer-section').isVisible()).toBe(false);
      expect(await followUp.locator('.trace li.run-end').count()).toBe(0);
      expect(await page.locator('#ask-button').isDisabled()).toBe(true);
      expect(await page.locator('.turns').getAttribute('aria-busy')).toBe('true');
      held.release();
      await expect.poll(() => followUp.locator('.answer-section').isVisible(), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => followUp.locator('.trace li.run-end').textContent()).toBe('Finished (stop: model-done).');
      expect(await page.locator('#conversation-mode').innerText()).toBe('Follow-up questions remember this conversation.');
      expect(await page.locator('.turn').nth(0).locator('.trace li.run-end').textContent()).toBe('Finished (stop: model-done).');
      const [first, second] = await Promise.all(runs);
      expect(await shownAnswer(page.locator('.turn').nth(0))).toEqual(expectedShown(first.answer));
      expect(await shownAnswer(followUp)).toEqual(expectedShown(second.answer));
      // The follow-up's search with the earlier turn's terms found the section on cancelling jobs.
      expect(second.trace.evidence.map((record: { chunkId: string }) => record.chunkId)).toContain('api-client#4');
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
      await store.close();
    }
  });

  it.skipIf(!installed)(reason('asks for the token when the server requires one and keeps it in localStorage'), async () => {
    const server = await serveOrbit({ auth: { tokens: [{ name: 'team', token: TOKEN, principal: undefined }], source: 'ATLAS_TOKEN' } });
    const { page, foreign, problems } = await openPage(server.url);
    try {
      await page.goto(`${server.url}/`);
      const panel = page.locator('#token-panel');
      await expect.poll(() => panel.isVisible()).toBe(true);
      expect(await page.locator('#version option').allInnerTexts()).toEqual(['Every version']);
      await page.locator('#token').fill(TOKEN);
      await page.locator('#token').press('Enter');
      await expect.poll(() => page.locator('#version option').allInnerTexts()).toEqual(['Every version', '2.x', '3.x']);
      expect(await page.evaluate(() => localStorage.getItem('atlas-token'))).toBe(TOKEN);

      await page.reload();
      await expect.poll(() => page.locator('#version option').allInnerTexts()).toEqual(['Every version', '2.x', '3.x']);
      await page.locator('#version').selectOption('3.x');
      await page.locator('#question').fill('What is ORB-1202?');
      await page.locator('#question').press('Enter');
      await expect.poll(() => page.locator('.turn .answer-section').isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await page.locator('.trace li.search').first().textContent()).toMatch(/^Searched “What is ORB-1202\?” in 3\.x: /);
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it.skipIf(!installed)(reason('marks the claims of an answer that no verified quote backs, and says how many'), async () => {
    const supported = "The job's arguments or a flow step's result are larger than the payload limit.";
    const unsupported = 'Orbit retries such a step 7 times, 30 seconds apart.';
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202 PayloadTooLarge' } }] },
      { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'error-codes#4' } }] },
      { answer: { text: `${supported} ${unsupported}`, citations: [{ doc_id: 'error-codes', quote: "The job's arguments or a flow step's result are larger than the payload limit." }] } },
    ]);
    const server = await serveOrbit({}, model as LanguageModelV3);
    const { page, foreign, problems } = await openPage(server.url);
    try {
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.locator('#version option').allInnerTexts()).toEqual(['Every version', '2.x', '3.x']);
      await page.locator('#question').fill('What is ORB-1202?');
      await page.locator('#question').press('Enter');
      const answer = page.locator('.turn .answer-section');
      await expect.poll(() => answer.isVisible(), { timeout: 20_000 }).toBe(true);
      expect(await answer.locator('.answer').innerText()).toBe(`${supported} ${unsupported}`);
      expect(await answer.locator('mark.unsupported').allInnerTexts()).toEqual([unsupported]);
      expect(await answer.locator('mark.unsupported').getAttribute('title')).toBe('No quote the run read backs this claim.');
      await expect.poll(() => page.locator('.run-notes').innerText()).toBe('1 claim is not backed by a quote (marked).');
      expect(foreign).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
      await server.close();
    }
  });
});
