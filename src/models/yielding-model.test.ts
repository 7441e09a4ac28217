import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { yieldingModel } from './yielding-model.ts';

const CALL: LanguageModelV3CallOptions = { prompt: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] };

describe('yieldingModel', () => {
  it('lets pending I/O callbacks run before each call, and answers what the model answers', async () => {
    const order: string[] = [];
    const inner = createScriptedModel([{ text: 'one' }, { text: 'two' }]);
    const model = yieldingModel(inner) as LanguageModelV3;
    for (const expected of ['one', 'two']) {
      setImmediate(() => order.push('io'));
      const pending = model.doGenerate(CALL).then((result) => (order.push('call'), result));
      const result = await pending;
      expect(result.content).toEqual([{ type: 'text', text: expected }]);
    }
    expect(order).toEqual(['io', 'call', 'io', 'call']);
    // Unwrapped, the call would not wait for the event loop.
    const bare: string[] = [];
    const direct = createScriptedModel([{ text: 'x' }]);
    setImmediate(() => bare.push('io'));
    await direct.doGenerate(CALL).then(() => bare.push('call'));
    expect(bare).toEqual(['call']);
  });

  it('keeps `this` and every other member of a class-based model', async () => {
    class Provider {
      readonly specificationVersion = 'v3';
      readonly provider = 'test';
      readonly modelId = 'm';
      private readonly reply = 'from this';
      get supportedUrls() {
        return { 'image/*': [/^https:/] };
      }
      async doGenerate() {
        return { content: [{ type: 'text', text: this.reply }], finishReason: { unified: 'stop', raw: undefined }, usage: {}, warnings: [] };
      }
      async doStream(): Promise<never> {
        throw new Error(`no stream for ${this.modelId}`);
      }
    }
    const model = yieldingModel(new Provider() as unknown as LanguageModelV3) as LanguageModelV3;
    expect((await model.doGenerate(CALL)).content).toEqual([{ type: 'text', text: 'from this' }]);
    await expect(model.doStream(CALL)).rejects.toThrow('no stream for m');
    expect([model.provider, model.modelId, Object.keys(model.supportedUrls)]).toEqual(['test', 'm', ['image/*']]);
  });

  it('rejects a call whose abort signal fired before it ran, with the signal\'s reason, and never calls the model', async () => {
    const inner = createScriptedModel([{ text: 'one' }]);
    const model = yieldingModel(inner) as LanguageModelV3;
    const aborter = new AbortController();
    const pending = model.doGenerate({ ...CALL, abortSignal: aborter.signal });
    aborter.abort(new Error('the client closed the connection'));
    await expect(pending).rejects.toThrow('the client closed the connection');
    // The scripted turn is still there: the model was not called.
    expect((await model.doGenerate(CALL)).content).toEqual([{ type: 'text', text: 'one' }]);
  });

  it('returns a model id (a string) as is', () => {
    expect(yieldingModel('openai/gpt-5-mini')).toBe('openai/gpt-5-mini');
  });
});
