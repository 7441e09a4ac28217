import type { LanguageModel } from 'ai';
import { createOfflineModel } from '../../models/offline/index.ts';
import type { ModelPrice } from '../../agent/cost.ts';
import { pickDefaultModel, type DefaultModelChoice } from '../../models/default-model.ts';
import { parseModelSpec } from '../../models/model-spec.ts';
import { findPrice, loadPriceOverrides } from '../../models/pricing.ts';
import { KEY_MODELS, keyModel, nonEmptyEnv } from '../../provider-env.ts';
import type { CliIO } from '../io.ts';

// Apart from options.ts so that commands without a model (search, ingest) do not load the AI SDK
// at start-up, nor ask a local Ollama for a model; the providers' clients (OpenAI, Anthropic,
// OpenAI-compatible: about 700 kB of code) are loaded only for a model that uses one, not for the
// offline planner.

/** A model chosen from `--model`, `ATLAS_MODEL`, what is available or the offline default, with its price. */
export interface CliModel {
  model: LanguageModel;
  spec: string;
  price: ModelPrice | null;
  /**
   * The offline planner, for every model but itself: it names the closest passages when the
   * model abstains without naming them (`AskOptions.closestModel`).
   */
  closestModel?: LanguageModel;
}

/** Options of {@link cliModel}. */
export interface CliModelOptions {
  /**
   * Whether a command that names no model (neither `--model` nor `ATLAS_MODEL`) takes the best one
   * available (default true; see {@link pickDefaultModel}). Evals pass false: they run the offline
   * planner unless a model is named, so that a run repeats whatever keys the machine has.
   */
  pickAvailable?: boolean;
}

/**
 * Resolves the model of a command: `--model` wins, then `ATLAS_MODEL`, then the model of a provider
 * key that is set, then a local Ollama model that calls tools (asked at `OLLAMA_BASE_URL` through
 * `io.fetch`, within 500 ms), then the offline planner. A model picked so is announced in one line
 * on stderr; `--model offline` asks nothing of anyone.
 *
 * @example
 * const { model, spec, price, closestModel } = await cliModel(io, options.model);
 * // stderr: atlas: using openai:gpt-5-mini (OPENAI_API_KEY is set); --model offline keeps it offline.
 */
export async function cliModel(io: CliIO, spec: string | undefined, options: CliModelOptions = {}): Promise<CliModel> {
  const chosen = options.pickAvailable === false ? evalModelSpec(io, spec) : (spec ?? (await availableModelSpec(io)));
  // resolveModel's own offline case, taken here so that resolve-model.ts (the provider clients) is not loaded for it.
  const offline = parseModelSpec(chosen).provider === 'offline';
  const resolved = offline
    ? { model: createOfflineModel(), spec: chosen }
    : (await import('../../models/resolve-model.ts')).resolveModel(chosen, { env: io.env, ...(io.fetch ? { fetch: io.fetch } : {}) });
  const price = findPrice(resolved.spec, loadPriceOverrides(io.env)) ?? null;
  return { model: resolved.model, spec: resolved.spec, price, ...(offline ? {} : { closestModel: createOfflineModel() }) };
}

/** The model {@link pickDefaultModel} picks, announced on stderr unless `ATLAS_MODEL` named it. */
async function availableModelSpec(io: CliIO): Promise<string> {
  const choice = await pickDefaultModel({ env: io.env, ...(io.fetch ? { fetch: io.fetch } : {}) });
  const line = choiceLine(choice);
  if (line !== undefined) io.stderr(`${line}\n`);
  return choice.spec;
}

/** The line that says which model was picked and why. */
function choiceLine(choice: DefaultModelChoice): string | undefined {
  switch (choice.source) {
    case 'ATLAS_MODEL':
      return undefined;
    case 'key':
      return `atlas: using ${choice.spec} (${choice.variable} is set); --model offline keeps it offline.`;
    case 'ollama':
      return `atlas: using ${choice.spec} (a local Ollama model that calls tools, at ${choice.server}); --model offline uses the offline planner instead.`;
    case 'offline': {
      const none = `no --model, ATLAS_MODEL, ${KEY_MODELS.map((entry) => entry.variable).join(' or ')}`;
      return `atlas: using the offline planner (no key, no network): ${none}${choice.ollama === undefined ? '' : `, and ${choice.ollama}`}.`;
    }
  }
}

/**
 * An eval's model: `--model`, else `ATLAS_MODEL`, else the offline planner, whatever keys are set
 * (a key set only gets a hint). Said on stderr in every case.
 */
function evalModelSpec(io: CliIO, spec: string | undefined): string {
  const named = spec ?? nonEmptyEnv(io.env.ATLAS_MODEL);
  if (named !== undefined) {
    io.stderr(`atlas: eval model: ${named} (${spec === undefined ? 'ATLAS_MODEL' : '--model'}).\n`);
    return named;
  }
  const key = keyModel(io.env);
  const hint = key === undefined ? 'name one with --model or ATLAS_MODEL' : `${key.variable} is set: --model ${key.spec} uses it`;
  io.stderr(`atlas: eval model: offline (an eval picks no model by itself, so that its runs repeat; ${hint}).\n`);
  return 'offline';
}
