import { describe, expect, it } from 'vitest';
import { ABSTAIN_TEXT } from '../../agent/trust/answer.ts';
import {
  hangResponse,
  jsonResponse,
  rateLimitedResponse,
  serverErrorResponse,
  truncatedResponse,
  type ScriptedResponse,
} from '../../testing/loopback-server.ts';
import { EXPECTED_ANSWER, readProviderFixture, runOverLoopback } from './scenario.ts';

/**
 * Provider faults against the real clients over loopback, through the real agent loop. The
 * AI SDK retries 429, 5xx and dropped connections (maxRetries 2 = 3 attempts per call); the
 * loopback faults carry `retry-after-ms: 0` so no test sleeps. A hang is cut by the run's
 * `callTimeoutMs`.
 */
const ABSTENTION = { text: ABSTAIN_TEXT, citations: [], abstained: true };

describe('faults: openai-compatible (Chat Completions)', () => {
  const toolCalls = jsonResponse(readProviderFixture('chat-completions-tool-calls.json'));
  const finalAnswer = readProviderFixture('chat-completions-final-answer.json');
  const run = (script: ScriptedResponse[], options: { callTimeoutMs?: number; deadlineMs?: number } = {}) =>
    runOverLoopback({ spec: (url) => `openai-compatible:${url}/v1#qwen3-8b`, env: () => ({}), script, run: options });

  it('a 429 is retried with the same request, then the run answers', async () => {
    const { run: result, requests } = await run([rateLimitedResponse(), toolCalls, jsonResponse(finalAnswer)]);
    expect(requests).toHaveLength(3);
    expect(requests[1]?.body).toEqual(requests[0]?.body);
    expect(result.answer).toEqual(EXPECTED_ANSWER);
    expect(result.usage.modelCalls).toBe(2);
  });

  it('a 500 on the second turn is retried with the same request, then the run answers', async () => {
    const { run: result, requests } = await run([toolCalls, serverErrorResponse(), jsonResponse(finalAnswer)]);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.body).toEqual(requests[1]?.body);
    expect(result.answer).toEqual(EXPECTED_ANSWER);
    expect(result.trace.stopReason).toBe('model-done');
  });

  it('a 429 on every attempt ends in a clean abstention that names the failure', async () => {
    const { run: result, requests } = await run([rateLimitedResponse(), rateLimitedResponse(), rateLimitedResponse()]);
    expect(requests).toHaveLength(3);
    expect(result.answer).toEqual(ABSTENTION);
    expect(result.trace.stopReason).toBe('error');
    expect(result.trace.errors).toEqual(['model call failed: Failed after 3 attempts. Last error: Rate limit reached (loopback fault).']);
  });

  it('a hang is aborted by callTimeoutMs (not retried) and the run abstains, naming the timeout', async () => {
    const { run: result, requests } = await run([toolCalls, hangResponse()], { callTimeoutMs: 100 });
    expect(requests).toHaveLength(2);
    expect(result.answer).toEqual(ABSTENTION);
    expect(result.trace.stopReason).toBe('timeout');
    expect(result.trace.errors).toEqual(['model call 2 timed out after 0.1 s (per-call timeout, retries included)']);
    expect(result.trace.calls.map((call) => call.outcome)).toEqual(['tool-calls', 'failed']);
  });

  it('a hang is cut by the run deadline when that comes before the call timeout', async () => {
    const { run: result, requests } = await run([toolCalls, hangResponse()], { callTimeoutMs: 60_000, deadlineMs: 150 });
    expect(requests).toHaveLength(2);
    expect(result.answer).toEqual(ABSTENTION);
    expect(result.trace.stopReason).toBe('deadline');
    expect(result.trace.errors).toEqual(['run deadline of 0.15 s reached at model call 2']);
  });

  it('a truncated body is retried like a dropped connection, then the run answers', async () => {
    const { run: result, requests } = await run([toolCalls, truncatedResponse(finalAnswer), jsonResponse(finalAnswer)]);
    expect(requests).toHaveLength(3);
    expect(requests[2]?.body).toEqual(requests[1]?.body);
    expect(result.answer).toEqual(EXPECTED_ANSWER);
  });

  it('a body truncated on every attempt ends in a clean abstention recorded in trace.errors', async () => {
    const truncated = truncatedResponse(finalAnswer);
    const { run: result, requests } = await run([toolCalls, truncated, truncated, truncated]);
    expect(requests).toHaveLength(4);
    expect(result.answer).toEqual(ABSTENTION);
    expect(result.trace.stopReason).toBe('error');
    expect(result.trace.errors).toHaveLength(1);
    expect(result.trace.errors[0]).toMatch(/^model call failed: Failed after 3 attempts\. /);
  });

  // Contract: "trace.errors says what happened". Today the entry reads "... Last error: Failed to
  // process successful response": the cause (the socket closed mid-body: undici "terminated",
  // "other side closed", UND_ERR_SOCKET) is on error.cause and is not reported.
  it('names the cause of a truncated body in trace.errors', async () => {
    const truncated = truncatedResponse(finalAnswer);
    const { run: result } = await run([toolCalls, truncated, truncated, truncated]);
    expect(result.trace.errors[0]).toMatch(/terminated|other side closed|UND_ERR_SOCKET/);
  });
});

describe('faults: openai (Responses API)', () => {
  const searchCall = jsonResponse(readProviderFixture('openai-responses-search-call.json'));
  const finalAnswer = jsonResponse(readProviderFixture('openai-responses-final-answer.json'));
  const run = (script: ScriptedResponse[], options: { callTimeoutMs?: number; deadlineMs?: number } = {}) =>
    runOverLoopback({
      spec: () => 'openai:gpt-5-mini',
      env: (url) => ({ OPENAI_API_KEY: 'sk-contract', OPENAI_BASE_URL: `${url}/v1` }),
      script,
      run: options,
    });

  it('a 503 on the first turn is retried, then the run answers', async () => {
    const { run: result, requests } = await run([serverErrorResponse({ status: 503 }), searchCall, finalAnswer]);
    expect(requests.map((request) => request.path)).toEqual(['/v1/responses', '/v1/responses', '/v1/responses']);
    expect(requests[1]?.body).toEqual(requests[0]?.body);
    expect(result.answer).toEqual(EXPECTED_ANSWER);
  });

  it('a hang on the first turn is aborted by callTimeoutMs and the run abstains', async () => {
    const { run: result, requests } = await run([hangResponse()], { callTimeoutMs: 100 });
    expect(requests).toHaveLength(1);
    expect(result.answer).toEqual(ABSTENTION);
    expect(result.trace.stopReason).toBe('timeout');
    expect(result.trace.errors).toEqual(['model call 1 timed out after 0.1 s (per-call timeout, retries included)']);
  });
});
