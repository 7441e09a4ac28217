import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load.ts';
import type { AtlasConfig } from '../../config/schema.ts';
import { loadCorpus } from '../../corpus/index.ts';
import { AtlasError } from '../../errors.ts';
import { createSqliteIndex } from '../../index/sqlite/sqlite.ts';
import { createTestDoc } from '../../index/test-docs.ts';
import type { IndexBackend } from '../../index/types.ts';
import { createMemoryIndex } from '../../testing/memory-index.ts';
import { createScriptedModel } from '../../testing/scripted-model.ts';
import { classicAsk } from '../classic.ts';
import { modelLabelChoices, narrowLabels } from './model-labels.ts';
import { createOfflineModel } from '../../models/offline/model.ts';
import { agenticRun } from '../run.ts';

const example = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/allergy');
const QUESTION = 'My son has a tree-nut allergy. Is your Christmas plum cake from Aundh safe for him?';
const COUNTER = 'which store opens its pickup counter';
const STORE_DESCRIPTION = 'Narrows the search to pages whose store label is this value (pages for all and pages without a store label stay in). Leave it out to search every store.';

let index: IndexBackend;
let config: AtlasConfig;

beforeAll(async () => {
  index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(path.join(example, 'docs'))).docs);
  config = (await loadConfig({ cwd: path.resolve(example, '../..'), docsRoot: example }))!;
});

afterAll(async () => {
  await index.close();
});

/** The JSON schema of search_docs as the AI SDK handed it to the model. */
function searchDocsSchema(request: LanguageModelV3CallOptions): unknown {
  const tool = request.tools?.find((candidate) => candidate.name === 'search_docs');
  return tool?.type === 'function' ? tool.inputSchema : undefined;
}

/** The tool results of a request: each search_docs result's doc ids and note, or the error text. */
function results(request: LanguageModelV3CallOptions): unknown[] {
  return request.prompt.flatMap((message) =>
    message.role !== 'tool'
      ? []
      : message.content.flatMap((part): unknown[] => {
          if (part.type !== 'tool-result') return [];
          if (part.output.type !== 'json') return [part.output.type === 'error-text' ? part.output.value : part.output.type];
          const value = part.output.value as { results: Array<{ chunk_id: string }>; note?: string };
          return [{ chunkIds: value.results.map((result) => result.chunk_id), ...(value.note ? { note: value.note } : {}) }];
        }),
  );
}

const answer = { answer: { text: 'Done.', citations: [{ doc_id: 'delivery', quote: 'Orders above Rs 1,500 are delivered free within 8 km of the store' }] } };

describe('model labels from atlas.config.yaml on the allergy example', () => {
  it('gives search_docs an optional enum argument per label, and lists it in the system prompt', async () => {
    const model = createScriptedModel([answer]);
    await agenticRun('Do you deliver?', { model, index, modelLabels: config.modelLabels, firstTurn: 'auto' });
    const request = model.requests[0]!;
    expect(searchDocsSchema(request)).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, description: 'Keywords or a question. Use exact identifiers (error codes, setting names) when you know them.' },
        version: { type: 'string', description: 'Release line to restrict to, e.g. "3.x". Omit to search every version.' },
        page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: '1 (default) for the best results; 2, 3, ... for the next results of the same query.' },
        store: { type: 'string', enum: ['Aundh', 'Baner'], description: `Which bakery store the question is about. ${STORE_DESCRIPTION}` },
      },
      required: ['query'],
      additionalProperties: false,
    });
    const system = request.prompt.find((message) => message.role === 'system')?.content;
    expect(system).toContain(
      'search_docs also takes this label, each narrowing a search to pages with that value (pages for all stay in): store (Which bakery store the question is about): Aundh, Baner. Set one only when the question is about one of its values; leave it out otherwise.',
    );
  });

  it('a scripted model that sets store: "Aundh" gets only Aundh, all-store and unlabelled pages', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: COUNTER, store: 'Aundh' } }] },
      { toolCalls: [{ toolName: 'search_docs', input: { query: COUNTER } }] },
      answer,
    ]);
    const run = await agenticRun('Which store opens its pickup counter?', { model, index, modelLabels: config.modelLabels });
    // Aundh (aundh-production), store: all (bakery-handbook by its sidecar, allergy-faq), no store label (gift-vouchers); never Baner.
    expect(results(model.requests[1]!)).toEqual([
      { chunkIds: ['bakery-handbook#4', 'allergy-faq#0', 'gift-vouchers#0', 'bakery-handbook#0', 'aundh-production#0'], note: 'weak matches: rewrite the query or conclude' },
    ]);
    // The same words without the label are another search, and find the Baner page.
    expect(results(model.requests[2]!)[1]).toEqual({
      chunkIds: ['baner-counter#0', 'delivery#0', 'bakery-handbook#2'],
      note: '5 already-seen passages skipped: bakery-handbook#4 "Nut-free options", allergy-faq#0 "Where do I find the allergens of a product?", gift-vouchers#0 "Gift vouchers", bakery-handbook#0 "Bakery operations handbook", aundh-production#0 "Aundh production schedule" (read_section re-reads one)',
    });
    expect(run.trace.steps.map((step) => step.filter)).toEqual([{ labels: { store: ['Aundh'] } }, {}]);
    expect(run.trace.errors).toEqual([]);
  });

  it('cannot widen an enforced --label store=Baner: the search runs with Baner, and the result and trace say so', async () => {
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: COUNTER, store: 'Aundh' } }] }, answer]);
    const run = await agenticRun('Which store opens its pickup counter?', { model, index, modelLabels: config.modelLabels, filter: { labels: { store: ['Baner'] } } });
    const conflict = 'store "Aundh" is outside the filter this conversation is held to (store=Baner): searched with store=Baner';
    expect(results(model.requests[1]!)).toEqual([{ chunkIds: ['baner-counter#0', 'bakery-handbook#4', 'allergy-faq#0', 'gift-vouchers#0', 'bakery-handbook#0'], note: conflict }]);
    expect(run.trace.steps.map((step) => [step.filter, step.labelConflicts])).toEqual([[{ labels: { store: ['Baner'] } }, [conflict]]]);
    expect(run.trace.errors).toEqual([`search_docs label refused: ${conflict}`]);
    // The enum still lists every store the asker may read: the enforced values apply when the model chooses.
    expect((searchDocsSchema(model.requests[0]!) as { properties: { store: { enum: string[] } } }).properties.store.enum).toEqual(['Aundh', 'Baner']);
  });

  it('narrows an enforced store=Aundh,Baner to the one the model chose', async () => {
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: COUNTER, store: 'Baner' } }] }, answer]);
    const run = await agenticRun('Which store opens its pickup counter?', { model, index, modelLabels: config.modelLabels, filter: { labels: { store: ['Aundh', 'Baner'] } } });
    expect(run.trace.steps.map((step) => step.filter)).toEqual([{ labels: { store: ['Baner'] } }]);
    expect(results(model.requests[1]!)).toEqual([{ chunkIds: ['baner-counter#0', 'bakery-handbook#4', 'allergy-faq#0', 'gift-vouchers#0', 'bakery-handbook#0'] }]);
  });

  it('rejects a value outside the enum with the allowed values, and runs no search', async () => {
    const model = createScriptedModel([{ toolCalls: [{ toolName: 'search_docs', input: { query: COUNTER, store: 'Kothrud' } }] }, answer]);
    const run = await agenticRun('Which store opens its pickup counter?', { model, index, modelLabels: config.modelLabels });
    const error = 'invalid arguments for search_docs: store: must be one of "Aundh", "Baner" (or left out), got "Kothrud". Send e.g. {"query": "lease timeout"}.';
    expect(results(model.requests[1]!)).toEqual([error]);
    expect(run.trace.steps).toEqual([]);
    expect(run.trace.errors).toEqual([`tool call rejected: search_docs {"query":"${COUNTER}","store":"Kothrud"}: ${error}`]);
  });

  it('the policy of the config fires on the allergy question; the offline planner sets no label', async () => {
    const run = await agenticRun(QUESTION, { model: createOfflineModel(), index, modelLabels: config.modelLabels, ...(config.policy ? { policy: config.policy } : {}) });
    expect(run.trace.policy?.source).toBe('examples/allergy/atlas.config.yaml');
    expect(run.trace.policy?.fired.map((firing) => [firing.rule, firing.matched, firing.cited])).toEqual([['allergen-labels', 'allergy', true]]);
    expect(run.answer.citations.map((citation) => citation.docId)).toContain('bakery-handbook');
    expect(run.trace.steps.every((step) => step.filter.labels === undefined)).toBe(true);
  });

  it('refuses acl as a model label on every route, before any model call', async () => {
    const model = createScriptedModel([]);
    for (const ask of [agenticRun, classicAsk]) {
      const error = await ask(QUESTION, { model, index, modelLabels: [{ name: 'acl' }] }).then(() => undefined, (caught: unknown) => caught);
      expect(error).toBeInstanceOf(AtlasError);
      expect((error as AtlasError).message).toBe(
        "Atlas: modelLabels[0].name: acl cannot be a model label: access comes from the asker's groups (--groups, ATLAS_GROUPS or the principal option), never from the model; remove it.",
      );
    }
    expect(model.requests).toEqual([]);
  });
});

describe('modelLabelChoices', () => {
  const memory = createMemoryIndex([
    createTestDoc({ docId: 'aundh', labels: { store: 'Aundh' }, sections: ['Aundh line 2.'] }),
    createTestDoc({ docId: 'kothrud', appliesTo: '3.x', labels: { store: 'Kothrud', region: 'west' }, sections: ['Kothrud opens.'] }),
    createTestDoc({ docId: 'hidden', labels: { acl: 'admins', store: 'Hinjewadi' }, sections: ['Hinjewadi closes.'] }),
    createTestDoc({ docId: 'shared', labels: { store: 'all' }, sections: ['Label policy.'] }),
  ]);
  const store = [{ name: 'store' }, { name: 'colour' }];

  it('offers the values on the pages the run may read: its principal, version and other labels', async () => {
    expect(await modelLabelChoices(memory, store, undefined)).toEqual({ offered: [{ name: 'store', values: ['Aundh', 'Kothrud'] }], missing: ['colour'] });
    expect((await modelLabelChoices(memory, store, { principal: { groups: ['admins'] } })).offered).toEqual([{ name: 'store', values: ['Aundh', 'Hinjewadi', 'Kothrud'] }]);
    expect((await modelLabelChoices(memory, store, { version: '2.x' })).offered).toEqual([{ name: 'store', values: ['Aundh'] }]);
    expect((await modelLabelChoices(memory, store, { labels: { region: 'east' } })).offered).toEqual([{ name: 'store', values: ['Aundh'] }]);
    // The label's own enforced values apply when the model chooses (narrowLabels), not to the enum.
    expect((await modelLabelChoices(memory, store, { labels: { store: 'Aundh' } })).offered).toEqual([{ name: 'store', values: ['Aundh', 'Kothrud'] }]);
  });

  it('the tool schema of an anonymous run never names the value of a restricted page', async () => {
    const model = createScriptedModel([{ answer: { text: 'x', citations: [], abstained: true } }]);
    await agenticRun('Which stores close?', { model, index: memory, modelLabels: store, firstTurn: 'auto' });
    expect(JSON.stringify(model.requests[0])).not.toContain('Hinjewadi');
    expect((searchDocsSchema(model.requests[0]!) as { properties: Record<string, unknown> }).properties.colour).toBeUndefined();
  });
});

describe('narrowLabels', () => {
  it('sets a label the filter leaves open, narrows one it fixes, and never widens', () => {
    expect(narrowLabels({ version: '3.x' }, { store: 'Aundh' })).toEqual({ filter: { version: '3.x', labels: { store: ['Aundh'] } }, conflicts: [] });
    expect(narrowLabels({ labels: { store: ['Aundh', 'Baner'] } }, { store: 'Baner' })).toEqual({ filter: { labels: { store: ['Baner'] } }, conflicts: [] });
    expect(narrowLabels({ labels: { store: 'all' } }, { store: 'Aundh' })).toEqual({
      filter: { labels: { store: 'all' } },
      conflicts: ['store "Aundh" is outside the filter this conversation is held to (store=all): searched with store=all'],
    });
    expect(narrowLabels({ principal: { groups: [] } }, { acl: 'admins' })).toEqual({ filter: { principal: { groups: [] } }, conflicts: [] });
    expect(narrowLabels({}, undefined)).toEqual({ filter: {}, conflicts: [] });
  });
});
