// Helpers of the server tests: a gated model (holds each call until released, sees aborts),
// SSE parsing, and request shorthands.
import type { LanguageModelV3, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { createOfflineModel } from '../models/offline/index.ts';
import type { IndexBackend } from '../index/types.ts';
import type { ServerDeps } from './types.ts';

/** A model that answers like the offline planner, each call only once `release()` lets it. */
export interface GatedModel extends LanguageModelV3 {
  /** The abort signal of every call, in order. */
  readonly signals: Array<AbortSignal | undefined>;
  /** Resolves once `count` calls have started. */
  started(count: number): Promise<void>;
  /** Lets every waiting and future call go on. */
  release(): void;
}

/**
 * The offline planner behind a gate: calls wait until `release()`; an abort of the call's signal
 * rejects it at once, as a provider's fetch would.
 *
 * @example
 * const model = createGatedModel(); // ask, then: await model.started(1); model.release();
 */
export function createGatedModel(): GatedModel {
  const offline = createOfflineModel() as LanguageModelV3;
  const signals: Array<AbortSignal | undefined> = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let open = false;
  let opened: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    opened = resolve;
  });
  const wait = (signal: AbortSignal | undefined) =>
    new Promise<void>((resolve, reject) => {
      if (open) return resolve();
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      void gate.then(resolve);
    });
  return {
    ...offline,
    signals,
    async doGenerate(call: LanguageModelV3CallOptions) {
      signals.push(call.abortSignal);
      for (const waiter of waiters.filter((item) => item.count <= signals.length)) waiter.resolve();
      await wait(call.abortSignal);
      return offline.doGenerate(call);
    },
    started: (count) => (signals.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    release: () => {
      open = true;
      opened();
    },
  };
}

/** One server-sent event as a client reads it. */
export interface ParsedEvent {
  event: string;
  data: unknown;
}

/**
 * Parses an SSE body (`event: x\ndata: {...}\n\n` blocks) into events with JSON data; comment
 * blocks (`: keep-alive`) are skipped, as SSE clients do.
 *
 * @example
 * parseSse('event: run-start\ndata: {"type":"run-start"}\n\n'); // [{ event: 'run-start', data: { type: 'run-start' } }]
 */
export function parseSse(text: string): ParsedEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.split('\n').every((line) => line.startsWith(':')))
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? 'message';
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length)).join('\n');
      return { event, data: JSON.parse(data) as unknown };
    });
}

/**
 * The deps of a test server: the offline planner (or `model`), a clock fixed at 0.
 *
 * @example
 * const app = createApp(testDeps(index));
 */
export function testDeps(index: IndexBackend, overrides: Partial<ServerDeps> = {}): ServerDeps {
  return { index, model: createOfflineModel(), modelSpec: 'offline', price: null, now: () => 0, ...overrides };
}

/**
 * A JSON POST request init, with a bearer token when given.
 *
 * @example
 * await app.request('/v1/ask', post({ question: 'What is ORB-1202?' }, 'token'));
 */
export function post(body: unknown, token?: string): RequestInit {
  return { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) } };
}
