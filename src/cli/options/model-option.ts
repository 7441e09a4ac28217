import type { LanguageModel } from 'ai';
import { createOfflineModel } from '../../models/offline/index.ts';
import type { ModelPrice } from '../../agent/cost.ts';
import { parseModelSpec } from '../../models/model-spec.ts';
import { findPrice, loadPriceOverrides } from '../../models/pricing.ts';
import { defaultModelSpec } from '../../provider-env.ts';
import type { CliIO } from '../io.ts';

// Apart from options.ts so that commands without a model (search, ingest) do not load the AI SDK
// at start-up; the providers' clients (OpenAI, Anthropic, OpenAI-compatible: about 700 kB of
// code) are loaded only for a model that uses one, not for the offline planner.

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
export async function cliModel(io: CliIO, spec: string | undefined): Promise<CliModel> {
  const chosen = spec ?? defaultModelSpec(io.env);
  if (spec === undefined && chosen === 'offline') {
    io.stderr('atlas: no model configured (--model or ATLAS_MODEL); using the offline planner (no key, no network).\n');
  }
  // resolveModel's own offline case, taken here so that resolve-model.ts (the provider clients) is not loaded for it.
  const resolved =
    parseModelSpec(chosen).provider === 'offline'
      ? { model: createOfflineModel(), spec: chosen }
      : (await import('../../models/resolve-model.ts')).resolveModel(chosen, { env: io.env });
  const price = findPrice(resolved.spec, loadPriceOverrides(io.env)) ?? null;
  return { model: resolved.model, spec: resolved.spec, price };
}
