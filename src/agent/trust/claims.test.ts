import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../../index/types.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { createOrbitIndex } from '../../testing/orbit-index.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { ABSTAIN_TEXT, type Citation } from './answer.ts';
import { applyClaimSupport, assessClaims, claimSupport, markUnsupported, NO_SUPPORTED_CLAIM, splitClaims } from './claims.ts';
import { classicAsk } from '../classic.ts';
import { createOfflineModel } from '../../models/offline/model.ts';
import { plainText } from '../../models/offline/plain-text.ts';
import { routedAsk } from '../policy/route.ts';
import { agenticRun } from '../run.ts';

const citation = (quote: string): Citation => ({ docId: 'd', quote, chunkId: 'd#0', heading: 'H', headingPath: ['H'], sourcePath: 'd.md', startLine: 1, endLine: 1 });

describe('splitClaims', () => {
  it('splits Chinese at 。！？；and Hindi at ।, spaces or not, a closing quote kept with its sentence', () => {
    expect(splitClaims('锣鼓经是记谱方法。它称为「锣鼓点」。 真的吗？是的 [1]')).toEqual(['锣鼓经是记谱方法。', '它称为「锣鼓点」。', '真的吗？', '是的 [1]']);
    expect(splitClaims('लाल किला शाहजहाँ ने बनवाया था। यह दिल्ली में है [1]')).toEqual(['लाल किला शाहजहाँ ने बनवाया था।', 'यह दिल्ली में है [1]']);
  });

  it('splits at sentence ends and semicolons, never inside code spans, decimals, abbreviations or initials', () => {
    expect(splitClaims('Leases last 45 minutes; set lease_seconds.')).toEqual(['Leases last 45 minutes;', 'set lease_seconds.']);
    expect(splitClaims('Use e.g. `a.b; c. D`. It takes 1.5 s, i.e. fast! J. R. R. Tolkien wrote it. Done?')).toEqual([
      'Use e.g. `a.b; c. D`.',
      'It takes 1.5 s, i.e. fast!',
      'J. R. R. Tolkien wrote it.',
      'Done?',
    ]);
    expect(splitClaims('Albert (c. 1338 – 1 April 1412) was King of Sweden. He died in 1412.')).toEqual(['Albert (c. 1338 – 1 April 1412) was King of Sweden.', 'He died in 1412.']);
  });

  it('makes each list item and line a claim of its own, without its marker, and skips pieces with no word', () => {
    expect(splitClaims('## Setup\n\n- Run `orbit init`. Then deploy.\n2. Set ORBIT_HOME.\n---\n> Quoted line')).toEqual([
      'Setup',
      'Run `orbit init`.',
      'Then deploy.',
      'Set ORBIT_HOME.',
      'Quoted line',
    ]);
  });

  it('keeps the citation markers after a sentence with it, and reads no number from them', () => {
    expect(splitClaims('The step fails with ORB-1202. [1] The result is over the limit. [2][3]\nRetry it [4]. Then stop.')).toEqual([
      'The step fails with ORB-1202. [1]',
      'The result is over the limit. [2][3]',
      'Retry it [4].',
      'Then stop.',
    ]);
    expect(claimSupport('The result is over the limit. [2]', ['The result is over the limit.'])).toEqual({ score: 1, missing: [] });
    expect(claimSupport('Retry the job [4].', ['Retry the job.'])).toEqual({ score: 1, missing: [] });
  });
});

describe('claimSupport', () => {
  it('scores a Chinese claim by its bigrams against a quote (荣开 is not in it), and a number missing from the quote', () => {
    expect(claimSupport('战国无双3由光荣开发。', ['《战国无双3》是由光荣和ω-force合作开发的游戏。'])).toEqual({ score: 0.889, missing: [] });
    expect(claimSupport('战国无双4由光荣开发。', ['《战国无双3》是由光荣和ω-force合作开发的游戏。'])).toEqual({ score: 0.667, missing: ['4'] });
  });

  it('meets a word of another script than Latin in another inflection (Russian cases, tenses), not an English word in a longer one', () => {
    // "повернуть ... текст ... рисованного объекта" against "повёрнут ... тексту ... рисованный объект".
    const quote = 'Вращение применимо только к тексту, заключённому в рисованный объект.';
    expect(claimSupport('Повернуть можно только текст рисованного объекта.', [quote])).toEqual({ score: 0.75, missing: [] });
    expect(claimSupport('Повернуть можно только текст рисованного объекта.', ['Введите число градусов.'])).toEqual({ score: 0, missing: [] });
    expect(claimSupport('The statement is kept.', ['The state is kept.'])).toEqual({ score: 0.5, missing: [] });
  });

  it('scores content words (stemmed), identifiers and numbers (weight 2), and lists the anchors no quote holds', () => {
    expect(claimSupport('Leases last 45 minutes.', ['A lease lasts 60 seconds.'])).toEqual({ score: 0.4, missing: ['45'] });
    expect(claimSupport('Leases last 60 seconds.', ['A lease lasts 60 seconds.'])).toEqual({ score: 1, missing: [] });
    // ORB-1203 is in no quote: the claim loses its weight and names it.
    expect(claimSupport('Expired results raise ORB-1203.', ['Expired results raise ORB-1202.'])).toEqual({ score: 0.667, missing: ['orb-1203'] });
  });

  it('matches identifiers through markdown and number spellings through separators and words', () => {
    const quotes = ['Set `max_payload_kb` under `[limits]`, default `5_000`; pass `--max-searches` to `orbit.results.put_blob()`.', 'Jobs retry 3 times.'];
    expect(claimSupport('Set max_payload_kb (default 5000) and --max-searches for orbit.results.put_blob().', quotes)).toEqual({ score: 1, missing: [] });
    expect(claimSupport('Jobs are retried three times.', quotes)).toEqual({ score: 1, missing: [] });
    // "one" is a pronoun more often than a count: never a number a quote must hold.
    expect(claimSupport('The one that fails is retried 3 times.', quotes)).toEqual({ score: 0.8, missing: [] }); // "fails" is in no quote
    expect(claimSupport('Jobs are retried 4 times with --retries.', quotes)).toEqual({ score: 0.429, missing: ['--retries', '4'] });
  });

  it('reads no number into ordinary words or leading zeros', () => {
    expect(claimSupport('The constructor runs on 2026-01-05.', ['Its constructor runs on 2026-1-5.'])).toEqual({ score: 1, missing: [] });
  });

  it('scores a claim with no word of substance 0', () => {
    expect(claimSupport('It is so.', ['It is so.'])).toEqual({ score: 0, missing: [] });
  });
});

describe('assessClaims and applyClaimSupport', () => {
  const answer = { text: 'Leases last 45 minutes; set lease_seconds.', citations: [citation('The lease is set by [worker] `lease_seconds`.')], abstained: false };

  it('marks the claim no verified quote backs, and names the quotes that back the others', () => {
    expect(assessClaims(answer)).toEqual([
      { text: 'Leases last 45 minutes;', supported: false, score: 0.2, citations: [0] },
      { text: 'set lease_seconds.', supported: true, score: 1, citations: [0] },
    ]);
    expect(markUnsupported(applyClaimSupport(answer).answer)).toBe('Leases last 45 minutes; [unsupported] set lease_seconds.');
  });

  it('joins two quotes for one claim: each backs part of it, neither reaches the threshold alone ("marks" is in neither)', () => {
    const joined = { text: 'Orbit retries a job 25 times, then marks it dead with ORB-1301.', citations: [citation('Orbit retries a job 25 times.'), citation('A job that is dead raises ORB-1301.')], abstained: false };
    expect(assessClaims(joined)).toEqual([{ text: 'Orbit retries a job 25 times, then marks it dead with ORB-1301.', supported: true, score: 0.909, citations: [0, 1] }]);
  });

  it('strict: removes unsupported claims, keeps list markers and citations, abstains when none is left', () => {
    expect(applyClaimSupport(answer, { strict: true }).answer).toEqual({ ...answer, text: 'set lease_seconds.', claims: [{ text: 'set lease_seconds.', supported: true, score: 1, citations: [0] }] });
    const list = { ...answer, text: 'Steps:\n- Leases last 45 minutes.\n- Set lease_seconds.' };
    expect(applyClaimSupport(list, { strict: true }).answer.text).toBe('- Set lease_seconds.');
    const unbacked = { ...answer, text: 'Leases last 45 minutes.' };
    expect(applyClaimSupport(unbacked, { strict: true })).toEqual({ answer: { text: ABSTAIN_TEXT, citations: [], abstained: true }, abstainReason: NO_SUPPORTED_CLAIM });
    expect(applyClaimSupport({ text: ABSTAIN_TEXT, citations: [], abstained: true }, { strict: true })).toEqual({ answer: { text: ABSTAIN_TEXT, citations: [], abstained: true } });
  });
});

describe('claims of a run', () => {
  const docs = [makeDoc('leases-3x', '3.x', [['Leases in 3.x', 'The lease is set by [worker] lease_seconds.']])];
  // The case: the fabricated quote is dropped, one valid citation is left, the text it was meant to support stays.
  const fabricated = {
    text: 'Leases last 45 minutes; set lease_seconds.',
    citations: [
      { doc_id: 'leases-3x', quote: 'Leases last 45 minutes before they expire.' },
      { doc_id: 'leases-3x', quote: 'The lease is set by [worker] lease_seconds.' },
    ],
  };
  const turns = () => [{ toolCalls: [{ toolName: 'search_docs', input: { query: 'lease' } }] }, { answer: fabricated }];

  it('agenticRun marks the claim the dropped quote was meant to support', async () => {
    const run = await agenticRun('How long do leases last?', { model: createScriptedModel(turns()), index: createMemoryIndex(docs) });
    expect(run.trace.droppedCitations.map((dropped) => dropped.quote)).toEqual(['Leases last 45 minutes before they expire.']);
    expect(run.answer.text).toBe('Leases last 45 minutes; set lease_seconds.');
    expect(run.answer.claims).toEqual([
      { text: 'Leases last 45 minutes;', supported: false, score: 0.2, citations: [0] },
      { text: 'set lease_seconds.', supported: true, score: 1, citations: [0] },
    ]);
  });

  it('strictClaims removes it; an answer with no supported claim abstains, saying why', async () => {
    const strict = await agenticRun('How long do leases last?', { model: createScriptedModel(turns()), index: createMemoryIndex(docs), strictClaims: true });
    expect([strict.answer.text, strict.answer.claims?.length, strict.answer.citations.length]).toEqual(['set lease_seconds.', 1, 1]);
    const onlyFabricated = { text: 'Leases last 45 minutes.', citations: fabricated.citations };
    const model = createScriptedModel([{ answer: onlyFabricated }]);
    const abstained = await classicAsk('How long do leases last?', { model, index: createMemoryIndex(docs), strictClaims: true });
    expect([abstained.answer, abstained.trace.abstainReason]).toEqual([{ text: ABSTAIN_TEXT, citations: [], abstained: true }, NO_SUPPORTED_CLAIM]);
  });
});

describe('claims of the offline planner on Orbit', () => {
  // A question the planner answers directly on every route (the README demo question now gets the
  // closest passages: no claims to judge).
  const QUESTION = 'What port does the Orbit admin API use?';
  const QUOTES = [
    'It is a small JSON API under the `/v1` prefix, served by the `orbit admin` process on **port 8600**.',
    'It is available on both release lines (on 2.x since 2.8.0).',
  ];
  let index: IndexBackend;
  beforeAll(async () => {
    index = await createOrbitIndex();
  });
  afterAll(async () => {
    await index.close();
  });

  it('supports every claim of a direct answer on each route: each sentence with its [n] is a claim backed by citation n', async () => {
    // Each sentence is its quote as plain text (however markdown renders), followed by its marker.
    const [first, second] = QUOTES.map((quote, index) => `${plainText(quote)} [${index + 1}]`);
    for (const route of ['agentic', 'classic', 'auto'] as const) {
      const run = await routedAsk(QUESTION, { model: createOfflineModel(), index, route });
      expect([route, run.answer.text]).toEqual([route, `${first} ${second}`]);
      expect(run.answer.citations.map((item) => [item.chunkId, item.quote])).toEqual(QUOTES.map((quote) => ['admin-http-api#0', quote]));
      expect(run.answer.claims).toEqual([
        { text: first, supported: true, score: 1, citations: [0] },
        { text: second, supported: true, score: 1, citations: [1] },
      ]);
    }
  });
});
