// In-process models (the offline planner, scripted models) and SQLite are synchronous: a run on
// them never gives the event loop a turn, so its stream would flush only at its end, a
// disconnect would go unnoticed, and concurrent asks would queue whole. The server lets the loop
// turn before each model call instead (so does the MCP ask); what the model answers is unchanged.
import type { LanguageModel } from 'ai';

/**
 * `model` with one turn of the event loop (`setImmediate`) before each call, so pending I/O
 * (stream writes, closed connections, other requests) goes first; a call whose `abortSignal`
 * fired by then is rejected with the signal's reason, as a provider's fetch would be, so a client
 * that went away ends the run even on a model that never reads the signal (the offline planner).
 * A model given by id (a string) is returned as is.
 *
 * @example
 * const model = yieldingModel(createOfflineModel()); // same answers, streams flush between calls
 */
export function yieldingModel(model: LanguageModel): LanguageModel {
  if (typeof model === 'string') return model;
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  // A proxy, not a copy: provider models are class instances whose getters and methods use `this`.
  return new Proxy(model, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if ((key !== 'doGenerate' && key !== 'doStream') || typeof value !== 'function') return value;
      return async (options: unknown) => {
        await turn();
        (options as { abortSignal?: AbortSignal } | undefined)?.abortSignal?.throwIfAborted();
        return (value as (options: unknown) => Promise<unknown>).call(target, options);
      };
    },
  });
}
