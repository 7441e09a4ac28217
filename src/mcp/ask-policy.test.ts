// The MCP `ask` tool applies the policy of the server (atlas mcp --policy / the config), as
// `atlas ask` does: the required retrieval runs before the model's first call, and with strict
// an answer that cites none of the required pages abstains.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePolicy, type Policy } from '../agent/policy/policy.ts';
import { loadCorpus } from '../corpus/index.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import type { IndexBackend } from '../index/types.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { createAtlasMcpServer } from './server.ts';
import { connectInMemory } from './test-client.ts';

const example = path.join(import.meta.dirname, '..', '..', 'examples', 'allergy');
const QUESTION = 'My son has a tree-nut allergy. Is your Christmas plum cake from Aundh safe for him?';
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

/** A model that searches once and answers from the recipe page only, as the seed's model did. */
const recipeOnly = () =>
  createScriptedModel([
    { toolCalls: [{ toolName: 'search_docs', input: { query: 'Christmas plum cake' } }] },
    { answer: { text: 'The plum cake is a rum-soaked fruit cake.', citations: [{ doc_id: 'plum-cake-recipe', quote: 'Our Christmas plum cake is a dark, rum-soaked fruit cake baked every year from mid-November.' }] } },
  ]);

async function ask(options: { policy?: Policy; policyStrict?: boolean }) {
  const model = recipeOnly();
  const mcp = await connectInMemory(createAtlasMcpServer({ index, ask: { model, modelSpec: 'scripted', now: () => 0, ...options } }));
  const result = (await mcp.client.callTool({ name: 'ask', arguments: { question: QUESTION } })) as CallToolResult;
  await mcp.close();
  return { result: result.structuredContent as { abstained: boolean; citations: Array<{ doc_id: string }> }, model };
}

describe('ask over MCP with a policy', () => {
  it('runs the required retrieval before the first model call, and abstains under strict when the answer skips it', async () => {
    const plain = await ask({});
    expect([plain.result.abstained, plain.result.citations.map((citation) => citation.doc_id)]).toEqual([false, ['plum-cake-recipe']]);
    expect(plain.model.requests[0]!.prompt.some((message) => message.role === 'tool')).toBe(false);

    const strict = await ask({ policy, policyStrict: true });
    // The rule's search ran in code and its result reached the model before it said anything.
    expect(strict.model.requests[0]!.prompt.some((message) => message.role === 'tool')).toBe(true);
    expect([strict.result.abstained, strict.result.citations]).toEqual([true, []]);
  });
});
