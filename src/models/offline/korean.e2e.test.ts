import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agenticRun } from '../../agent/run.ts';
import { loadCorpus } from '../../corpus/index.ts';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../../index/types.ts';
import { createOfflineModel } from './model.ts';

/** Two short Korean pages written for this test (src/testing/__fixtures__/korean): Seoul, Busan. */
const KOREAN_DOCS = fileURLToPath(new URL('../../testing/__fixtures__/korean', import.meta.url));

let index: IndexBackend;

beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(KOREAN_DOCS)).docs);
});

afterAll(async () => {
  await index.close();
});

async function ask(question: string) {
  return (await agenticRun(question, { model: createOfflineModel(), index })).answer;
}

describe('the offline planner in Korean', () => {
  // Korean writes a particle onto its word (수도는, 수도이자): the index reads bigrams, the
  // planner a word without its particle, and no question word (어디, 얼마) as a topic.
  it.each([
    ['대한민국의 수도는 어디인가?', '서울특별시는 대한민국의 수도이자 최대 도시이다. [1]'],
    ['부산의 인구는 얼마인가?', '부산광역시는 대한민국 남동부에 있는 항구 도시로, 인구는 약 330만 명이다. [1]'],
  ])('answers %s', async (question, text) => {
    const answer = await ask(question);
    expect([answer.abstained, answer.text]).toEqual([false, text]);
  });

  it('abstains on a page the docs do not have', async () => {
    const answer = await ask('제주도의 면적은?');
    expect([answer.abstained, answer.text]).toEqual([true, "I couldn't find this in the docs."]);
  });
});
