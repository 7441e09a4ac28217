// The OpenAI options Atlas cannot honour are refused with a 400 naming them (never silently
// ignored), tested with the official openai client against the app on loopback.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexBackend } from '../index/types.ts';
import { createOrbitIndex } from '../testing/orbit-index.ts';
import { createApp } from './app.ts';
import { listenOnLoopback, type ListeningApp } from './test-listen.ts';
import { testDeps } from './test-server.ts';

let index: IndexBackend;
let server: ListeningApp;
let client: OpenAI;
beforeAll(async () => {
  index = await createOrbitIndex();
  server = await listenOnLoopback(createApp(testDeps(index)));
  client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 });
});
afterAll(async () => {
  await server.close();
  await index.close();
});

const messages = [{ role: 'user' as const, content: 'What does ORB-1202 mean?' }];

/** The error the client raised for `request`, or a failure when it raised none. */
async function refusal(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.BadRequestError>> {
  const error = await request.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OpenAI.BadRequestError);
  return error as InstanceType<typeof OpenAI.BadRequestError>;
}

describe('response_format', () => {
  const formatMessage = (type: string) =>
    `Atlas: response_format "${type}" is not supported: Atlas answers in text with [n] citation markers and a Sources list, and its citations as data are in the "atlas" field of the reply. Leave response_format out, or send { "type": "text" }.`;

  it('json_schema through .parse() is a 400 naming response_format, not an answer .parse() cannot read', async () => {
    const schema = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'], additionalProperties: false };
    const error = await refusal(client.chat.completions.parse({ model: 'atlas', messages, response_format: { type: 'json_schema', json_schema: { name: 'error_code', schema, strict: true } } }));
    expect([error.status, error.error]).toEqual([400, { message: formatMessage('json_schema'), type: 'invalid_request_error', code: 'unsupported_parameter', param: 'response_format' }]);
  });

  it('json_object is refused the same way; text is answered', async () => {
    const error = await refusal(client.chat.completions.create({ model: 'atlas', messages, response_format: { type: 'json_object' } }));
    expect([error.status, error.param, error.message]).toEqual([400, 'response_format', `400 ${formatMessage('json_object')}`]);
    const completion = await client.chat.completions.create({ model: 'atlas', messages, response_format: { type: 'text' } });
    expect(completion.choices[0]!.message.content).toContain('ORB-1202');
  });
});

describe('tool_choice', () => {
  const tools = [{ type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];

  it('"required" or a named function is a 400 naming tool_choice', async () => {
    for (const [choice, shown] of [
      ['required', '"required"'],
      [{ type: 'function', function: { name: 'lookup' } }, '{"type":"function","function":{"name":"lookup"}}'],
    ] as const) {
      const error = await refusal(client.chat.completions.create({ model: 'atlas', messages, tools, tool_choice: choice }));
      expect([error.status, error.error]).toEqual([
        400,
        {
          message: `Atlas: tool_choice ${shown} is not supported: Atlas answers from its own searches and never calls the tools of a request. Leave tool_choice out, or send "auto" or "none".`,
          type: 'invalid_request_error',
          code: 'unsupported_parameter',
          param: 'tool_choice',
        },
      ]);
    }
  });

  it('"auto" and "none" are answered without a tool call', async () => {
    for (const choice of ['auto', 'none'] as const) {
      const completion = await client.chat.completions.create({ model: 'atlas', messages, tools, tool_choice: choice });
      expect([completion.choices[0]!.finish_reason, completion.choices[0]!.message.tool_calls ?? []]).toEqual(['stop', []]);
    }
  });
});
