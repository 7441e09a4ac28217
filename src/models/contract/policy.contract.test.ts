import { describe, expect, it } from 'vitest';
import { parsePolicy } from '../../agent/policy/policy.ts';
import { jsonResponse } from '../../testing/loopback-server.ts';
import { asRecord, readProviderFixture, runOverLoopback } from './scenario.ts';

/**
 * The required retrieval of a policy reaches real provider clients as an ordinary earlier tool
 * call and its result, wired by call id, in the FIRST request (before the model said anything).
 */
const policy = parsePolicy('rules:\n  - name: leases\n    when: { terms: [lease] }\n    require: { search: "lease" }\n', 'leases.yaml');

describe('contract: policy retrievals over real provider clients', () => {
  it('openai (Responses API): request 1 holds the function_call policy-1 and its function_call_output', async () => {
    const { run, requests } = await runOverLoopback({
      spec: () => 'openai:gpt-5-mini',
      env: (url) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(readProviderFixture('openai-responses-search-call.json')), jsonResponse(readProviderFixture('openai-responses-final-answer.json'))],
      run: { policy },
    });
    const input = asRecord(requests[0]?.body).input as Array<Record<string, unknown>>;
    expect(input.slice(2).map((item) => [item.type, item.call_id, item.name ?? null])).toEqual([
      ['function_call', 'policy-1', 'search_docs'],
      ['function_call_output', 'policy-1', null],
    ]);
    expect(JSON.parse(input[2]?.arguments as string)).toEqual({ query: 'lease' });
    expect(JSON.parse(input[3]?.output as string).policy).toEqual({ rule: 'leases', must_cite: ['leases'] });
    expect([run.trace.policy?.fired.map((firing) => [firing.rule, firing.cited]), run.answer.abstained]).toEqual([[['leases', true]], false]);
  });

  it('anthropic (Messages API): request 1 holds the tool_use policy-1 and its tool_result', async () => {
    const { run, requests } = await runOverLoopback({
      spec: () => 'anthropic:claude-haiku-4-5',
      env: (url) => ({ ANTHROPIC_API_KEY: 'ak-contract', ANTHROPIC_BASE_URL: `${url}/v1` }),
      script: [jsonResponse(readProviderFixture('anthropic-messages-tool-use.json')), jsonResponse(readProviderFixture('anthropic-messages-final-answer.json'))],
      run: { policy },
    });
    const messages = asRecord(requests[0]?.body).messages as Array<{ role: string; content: Array<Record<string, unknown>> }>;
    expect(messages.map((message) => [message.role, message.content.map((part) => [part.type, part.id ?? part.tool_use_id ?? null])])).toEqual([
      ['user', [['text', null]]],
      ['assistant', [['tool_use', 'policy-1']]],
      ['user', [['tool_result', 'policy-1']]],
    ]);
    expect(messages[1]?.content[0]?.input).toEqual({ query: 'lease' });
    expect([run.trace.policy?.fired.map((firing) => [firing.rule, firing.cited]), run.answer.abstained]).toEqual([[['leases', true]], false]);
  });
});
