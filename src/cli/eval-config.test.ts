import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingIO, runEval, TINY, TINY_SCRIPTS, type RecordingIO } from './test-cli.ts';
import { createPolicyModel } from '../eval/test-model.ts';

let dir: string;
let io: RecordingIO;

const CONFIG = [
  'model_labels:',
  '  - name: team',
  '    description: Which team runs it',
  'policy:',
  '  rules:',
  '    - name: error-codes',
  '      when: { pattern: "ORB-\\\\d+" }',
  '      require: { docs: [error-codes] }',
  '',
].join('\n');

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'atlas-eval-config-'));
  await cp(TINY, path.join(dir, 'tiny'), { recursive: true });
  await writeFile(path.join(dir, 'tiny', 'docs', 'on-call.md'), '---\nid: on-call\ntitle: On call\napplies_to: all\nlabels:\n  team: ops\n---\n# On call\n\nThe ops team is paged for ORB-9000.\n');
  await writeFile(path.join(dir, 'tiny', 'atlas.config.yaml'), CONFIG);
  io = recordingIO({ cwd: dir });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The enum of the `team` argument of search_docs in a request, and whether the policy's read came first. */
function seen(request: LanguageModelV3CallOptions) {
  const tool = request.tools?.find((candidate) => candidate.name === 'search_docs');
  const schema = tool?.type === 'function' ? (tool.inputSchema as { properties: Record<string, { enum?: string[] }> }) : undefined;
  const policyRead = request.prompt.some((message) => message.role === 'assistant' && message.content.some((part) => part.type === 'tool-call' && part.toolCallId === 'policy-1'));
  return { team: schema?.properties.team?.enum, policyRead };
}

describe('atlas eval with the dataset folder\'s atlas.config.yaml', () => {
  it('eval retrieval gives the agentic arm the model labels and the policy', async () => {
    const model = createPolicyModel(TINY_SCRIPTS);
    await runEval(['eval', 'retrieval', '--data', 'tiny', '--arms', 'agentic', '--json'], io, model);
    expect(io.err[0]).toBe(`atlas: config: ${path.join('tiny', 'atlas.config.yaml')}\n`);
    const first = model.requests.map(seen);
    expect(first.every((view) => JSON.stringify(view.team) === '["ops"]')).toBe(true);
    // Of the 4 retrieval queries, the one naming an ORB code (exact-1) gets the policy's read before its first call.
    const firstCalls = model.requests.filter((request) => request.prompt.filter((message) => message.role === 'assistant').length <= 1);
    expect(firstCalls.map(seen).filter((view) => view.policyRead).map((view) => view.team)).toEqual([['ops']]);
  });

  it('eval compare takes the config policy unless --policy is given', async () => {
    const model = createPolicyModel(TINY_SCRIPTS);
    const out = JSON.parse(await runEval(['eval', 'compare', '--data', 'tiny', '--json'], io, model));
    expect(out.dataset).toBe('tiny');
    expect(model.requests.some((request) => seen(request).policyRead)).toBe(true);
    await writeFile(path.join(dir, 'other.yaml'), 'rules:\n  - name: never\n    when: { terms: [zzzz] }\n    require: { docs: [limits] }\n');
    const other = createPolicyModel(TINY_SCRIPTS);
    io.out.length = 0;
    await runEval(['eval', 'compare', '--data', 'tiny', '--policy', 'other.yaml', '--json'], io, other);
    expect(other.requests.some((request) => seen(request).policyRead)).toBe(false);
  });
});
