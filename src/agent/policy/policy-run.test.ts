import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../corpus/index.ts';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../../index/types.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { createScriptedModel, type ScriptedTurn } from '../../testing/scripted-model.ts';
import { createOfflineModel } from '../../models/offline/model.ts';
import { parsePolicy, type Policy } from './policy.ts';
import { classicAsk } from '../classic.ts';
import { agenticRun } from '../run.ts';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/allergy');
const QUESTION = 'My son has a tree-nut allergy. Is your Christmas plum cake from Aundh safe for him?';
const POLICY_SEARCH = 'allergen labelling policy shared production line MAY CONTAIN NUTS';

let index: IndexBackend;
let policy: Policy;

beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(path.join(example, 'docs'))).docs);
  policy = parsePolicy(readFileSync(path.join(example, 'policy.yaml'), 'utf8'), 'examples/allergy/policy.yaml');
});

afterAll(async () => {
  await index.close();
});

/** The tool results of a request, in order: [toolName, doc ids shown]. */
function toolResults(request: LanguageModelV3CallOptions): Array<[string, string[]]> {
  return request.prompt.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part) => {
          if (part.type !== 'tool-result' || part.output.type !== 'json') return [];
          const value = part.output.value as { results?: Array<{ doc_id: string }>; doc_id?: string };
          return [[part.toolName, value.results ? value.results.map((result) => result.doc_id) : [value.doc_id ?? '']] as [string, string[]]];
        }),
  );
}

/** The `policy` notes of the tool results of a request, in order. */
function policyNotes(request: LanguageModelV3CallOptions): unknown[] {
  return request.prompt.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part) => (part.type === 'tool-result' && part.output.type === 'json' ? [(part.output.value as { policy?: unknown }).policy].filter(Boolean) : [])),
  );
}

/**
 * A model that answers from the first passage of each tool result it was shown, quoting that
 * passage's first sentence: it trusts whatever came first, like the seed's model that found a
 * nut-free ingredient list and stopped.
 */
const answerFromFirstPassages: ScriptedTurn = (request) => {
  const citations = request.prompt.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part) => {
          if (part.type !== 'tool-result' || part.output.type !== 'json') return [];
          const first = (part.output.value as { results?: Array<{ doc_id: string; text?: string; snippet?: string }> }).results?.[0];
          if (!first) return [];
          const text = (first.text ?? first.snippet ?? '').replace(/^…\s*/, '');
          return [{ doc_id: first.doc_id, quote: text.split(/(?<=\.)\s/)[0] ?? text }];
        }),
  );
  return { answer: { text: 'The plum cake recipe has no nuts.', citations } };
};

/** A model that searches once for the recipe, then answers from the first passages it saw. */
function oneSearchModel() {
  return createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: 'Christmas plum cake ingredients' } }] }, answerFromFirstPassages]);
}

describe('mandatory retrievals on the allergy example', () => {
  it('the offline planner sees the label policy first and cites it', async () => {
    const run = await agenticRun(QUESTION, { model: createOfflineModel(), index, policy });
    expect(run.trace.steps[0]?.query).toBe(POLICY_SEARCH);
    expect(run.answer.abstained).toBe(false);
    expect(run.answer.citations.map((citation) => citation.docId)).toContain('bakery-handbook');
    expect(run.answer.citations.find((citation) => citation.docId === 'bakery-handbook')?.quote).toContain('safe for a customer with a tree-nut');
    expect(run.trace.policy).toEqual({
      source: 'examples/allergy/policy.yaml',
      fired: [
        {
          rule: 'allergen-labels',
          matched: 'allergy',
          require: { search: POLICY_SEARCH },
          requiredDocIds: ['bakery-handbook'],
          chunkIds: ['bakery-handbook#3', 'bakery-handbook#2', 'bakery-handbook#1', 'bakery-handbook#4', 'aundh-production#2'],
          missingDocIds: [],
          cited: true,
        },
      ],
      flags: [],
      strict: false,
    });
  });

  it('a scripted model that stops after one search is given the policy passage before its first call, and cites it', async () => {
    const model = oneSearchModel();
    const run = await agenticRun(QUESTION, { model, index, policy });
    // The first request already holds the policy search as a tool call and its full-text results.
    expect(toolResults(model.requests[0]!)).toEqual([['search_docs', ['bakery-handbook', 'bakery-handbook', 'bakery-handbook', 'bakery-handbook', 'aundh-production']]]);
    expect(policyNotes(model.requests[0]!)).toEqual([{ rule: 'allergen-labels', must_cite: ['bakery-handbook'] }]);
    expect(model.requests).toHaveLength(2);
    expect(run.trace.steps.map((step) => step.query)).toEqual([POLICY_SEARCH, 'Christmas plum cake ingredients']);
    expect(run.answer.citations.map((citation) => [citation.docId, citation.quote])).toEqual([
      ['bakery-handbook', 'Labels follow what a product may come into contact with, not only its recipe.'],
      // The recipe passage comes whole in the search result: its first sentence, line breaks as written.
      ['plum-cake-recipe', 'One 1 kg cake takes 250 g plain flour, 200 g dark brown sugar, 200 g butter, 4 eggs, 300 g\nraisins, 150 g black currants, 100 g candied orange peel, 80 g glacé cherries, 1 teaspoon of mixed\nspice, the zest of one orange and 60 ml dark rum.'],
    ]);
    expect(run.trace.policy?.fired.map((firing) => firing.cited)).toEqual([true]);
    expect(run.trace.policy?.flags).toEqual([]);
  });

  it('without the policy the same model never sees the label policy (the failure the policy prevents)', async () => {
    const run = await agenticRun(QUESTION, { model: oneSearchModel(), index });
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['plum-cake-recipe']);
    expect(run.trace.policy).toBeUndefined();
  });

  it('an answer citing none of the required pages is flagged, and abstains with policyStrict', async () => {
    // aundh-production#2 came with the policy search; citing it alone does not cite the required page.
    const recipeOnly: ScriptedTurn = {
      answer: { text: 'It has no nuts.', citations: [{ doc_id: 'aundh-production', quote: 'Line 2 bakes the Christmas plum cake on Mondays, Wednesdays and Fridays' }] },
    };
    const flagged = await agenticRun(QUESTION, { model: createScriptedModel([recipeOnly]), index, policy, firstTurn: 'auto' });
    expect([flagged.answer.abstained, flagged.trace.policy?.flags, flagged.trace.policy?.fired[0]?.cited]).toEqual([false, ['policy-evidence-not-cited'], false]);

    const strict = await agenticRun(QUESTION, { model: createScriptedModel([recipeOnly]), index, policy, firstTurn: 'auto', policyStrict: true });
    expect(strict.answer).toEqual({ text: "I couldn't find this in the docs.", citations: [], abstained: true });
    expect(strict.trace.abstainReason).toBe('policy-evidence-not-cited: rule "allergen-labels" requires citing bakery-handbook');
    expect([strict.trace.policy?.flags, strict.trace.policy?.strict]).toEqual([['policy-evidence-not-cited'], true]);
  });

  it('a question no rule matches runs as without a policy, recording that nothing fired', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'delivery' } }] },
      { answer: { text: 'Free above Rs 1,500.', citations: [{ doc_id: 'delivery', quote: 'Orders above Rs 1,500 are delivered free within 8 km of the store' }] } },
    ]);
    const run = await agenticRun('Do you deliver cakes for free?', { model, index, policy });
    expect(toolResults(model.requests[0]!)).toEqual([]);
    expect(run.trace.steps.map((step) => step.query)).toEqual(['delivery']);
    expect(run.trace.policy).toEqual({ source: 'examples/allergy/policy.yaml', fired: [], flags: [], strict: false });
    expect(run.answer.abstained).toBe(false);
  });
});

describe('the classic one-pass arm', () => {
  it('runs the required search before its own retrieval, with its budget on top, and checks the citation', async () => {
    const model = createScriptedModel([answerFromFirstPassages]);
    const run = await classicAsk(QUESTION, { model, index, policy, policyStrict: true });
    expect(toolResults(model.requests[0]!).map(([toolName]) => toolName)).toEqual(['search_docs', 'search_docs']);
    expect(run.trace.steps.map((step) => [step.query, step.note])).toEqual([
      [POLICY_SEARCH, undefined],
      [QUESTION, 'weak-matches'], // not 'budget-exhausted': the policy's search is on top of the one retrieval
    ]);
    expect(run.answer.citations.map((citation) => citation.docId)).toEqual(['bakery-handbook', 'plum-cake-recipe']);
    expect(run.trace.policy?.fired.map((firing) => [firing.rule, firing.cited])).toEqual([['allergen-labels', true]]);
  });

  it('the offline planner cites the label policy in one pass', async () => {
    const run = await classicAsk(QUESTION, { model: createOfflineModel(), index, policy });
    expect(run.answer.citations.map((citation) => citation.docId)).toContain('bakery-handbook');
    expect(run.trace.policy?.flags).toEqual([]);
  });
});

describe('require: { docs }', () => {
  const docsPolicy = parsePolicy(
    'rules:\n  - name: refunds\n    when: { terms: [refund] }\n    require: { docs: [refund-policy, v3-only, no-such-doc] }\n',
    'refunds.yaml',
  );
  const memory = () =>
    createMemoryIndex([
      makeDoc('refund-policy', 'all', [
        ['Refund policy', 'Refunds are paid within 14 days.'],
        ['Exceptions', 'Custom cakes are not refunded.'],
      ]),
      makeDoc('v3-only', '3.x', [['Refunds in 3.x', 'Refunds in 3.x go to store credit.']]),
    ]);

  it('reads every chunk of each listed doc in the filter, and records unknown or filtered-out docs as missing', async () => {
    const model = createScriptedModel([
      { answer: { text: 'Within 14 days.', citations: [{ doc_id: 'refund-policy', quote: 'Refunds are paid within 14 days.' }] } },
    ]);
    const run = await agenticRun('How fast is a refund paid?', { model, index: memory(), policy: docsPolicy, filter: { version: '2.x' }, firstTurn: 'auto' });
    expect(toolResults(model.requests[0]!)).toEqual([
      ['read_section', ['refund-policy']],
      ['read_section', ['refund-policy']],
    ]);
    expect(policyNotes(model.requests[0]!)).toEqual([{ rule: 'refunds', must_cite: ['refund-policy'] }]);
    expect(run.trace.reads.map((read) => [read.chunkId, read.found])).toEqual([
      ['refund-policy#0', true],
      ['refund-policy#1', true],
      ['v3-only#0', false],
      ['no-such-doc#0', false],
    ]);
    expect(run.trace.policy?.fired).toEqual([
      {
        rule: 'refunds',
        matched: 'refund',
        require: { docs: ['refund-policy', 'v3-only', 'no-such-doc'] },
        requiredDocIds: ['refund-policy'],
        chunkIds: ['refund-policy#0', 'refund-policy#1'],
        missingDocIds: ['v3-only', 'no-such-doc'],
        cited: true,
      },
    ]);
    expect(run.answer.citations.map((citation) => citation.chunkId)).toEqual(['refund-policy#0']);
  });
});

describe('a required search that finds nothing', () => {
  it('is recorded with no required page, flagged, and makes a strict run abstain', async () => {
    const searchPolicy = parsePolicy('rules:\n  - name: recalls\n    when: { terms: [recall] }\n    require: { search: "product recall notice" }\n', 'recalls.yaml');
    const index = createMemoryIndex([makeDoc('hours', 'all', [['Opening hours', 'We open at 8:00 every day.']])]);
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'opening hours' } }] },
      { answer: { text: 'No recall.', citations: [{ doc_id: 'hours', quote: 'We open at 8:00 every day.' }] } },
    ]);
    const run = await agenticRun('Is there a recall on the cake?', { model, index, policy: searchPolicy, policyStrict: true });
    expect(run.trace.steps.map((step) => [step.query, step.chunkIds])).toEqual([
      ['product recall notice', []],
      ['opening hours', ['hours#0']],
    ]);
    expect(run.trace.policy?.fired.map((firing) => [firing.requiredDocIds, firing.chunkIds, firing.cited])).toEqual([[[], [], false]]);
    expect(run.trace.policy?.flags).toEqual(['policy-evidence-not-cited']);
    expect(run.trace.abstainReason).toBe('policy-evidence-not-cited: rule "recalls" found no required page');
    expect(run.answer.abstained).toBe(true);
  });
});
