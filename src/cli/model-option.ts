import type { LanguageModel } from 'ai';
import { createOfflineModel } from '../agent/offline/index.ts';
import type { ModelPrice } from '../agent/cost.ts';
import { defaultModelSpec, findPrice, loadPriceOverrides, resolveModel } from '../models/index.ts';
import type { CliIO } from './io.ts';

// Apart from options.ts so that commands without a model (search, ingest) do not load the AI SDK
// and its providers at start-up.

/** A model chosen from `--model`, `ATLAS_MODEL` or the offline default, with its price. */
export interface CliModel {
  model: LanguageModel;
  spec: string;
  price: ModelPrice | null;
}

/**
 * Resolves the model of a command: `--model` wins, then `ATLAS_MODEL`, then the offline planner
 * (announced in one line on stderr).
 */
export function cliModel(io: CliIO, spec: string | undefined): CliModel {
  const chosen = spec ?? defaultModelSpec(io.env);
  if (spec === undefined && chosen === 'offline') {
    io.stderr('atlas: no model configured (--model or ATLAS_MODEL); using the offline planner (no key, no network).\n');
  }
  const resolved = resolveModel(chosen, { env: io.env, offline: () => createOfflineModel() });
  const price = findPrice(resolved.spec, loadPriceOverrides(io.env)) ?? null;
  return { model: resolved.model, spec: resolved.spec, price };
}
