// The shapes every route of `atlas serve` shares: what the app is built from and what the
// auth middleware puts on each request. Route modules are Hono sub-apps typed with ServerEnv.
import type { LanguageModel } from 'ai';
import type { ModelPrice } from '../agent/cost.ts';
import type { ModelLabel } from '../agent/policy/model-labels.ts';
import type { Policy } from '../agent/policy/policy.ts';
import type { Route } from '../agent/policy/route.ts';
import type { RunLimits } from '../agent/run-types.ts';
import type { IndexBackend, Principal, SearchFilter } from '../index/types.ts';
import type { RunTracing } from '../telemetry/tracing.ts';

/**
 * What the server is built from: the opened index, the model, and the defaults of every ask
 * (the CLI flags of `atlas serve`). Everything that touches the outside is here, so tests build
 * an app with a memory index, a scripted model and a fake clock.
 *
 * @example
 * const app = createApp({ index, model: createOfflineModel(), modelSpec: 'offline', price: null, now: () => 0 });
 */
export interface ServerDeps {
  index: IndexBackend;
  model: LanguageModel;
  /** Names the closest passages when `model` abstains without them (`AskOptions.closestModel`; the shells pass the offline planner). */
  closestModel?: LanguageModel;
  /** The model spec as given (`offline`, `openai:gpt-5-mini`, ...), reported by /v1/models and runs. */
  modelSpec: string;
  price: ModelPrice | null;
  /** Clock in ms. */
  now: () => number;
  /** Filter every request gets (from `--version`/`--label` of `atlas serve`); a request only narrows it. */
  filter?: SearchFilter;
  /** Default search budget of an ask (`--max-searches`). */
  maxSearches?: number;
  limits?: RunLimits;
  policy?: Policy;
  policyStrict?: boolean;
  /** Labels the model may set on `search_docs` (`model_labels` of atlas.config.yaml). */
  modelLabels?: ModelLabel[];
  /** Route of an ask that names none (`--route`, default `agentic`, as `atlas ask`). */
  route?: Route;
  /** `required` (default) or `auto` (`--first-turn`). */
  firstTurn?: 'required' | 'auto';
  /** The server log (unexpected failures with their stack); default: none. */
  log?: (line: string) => void;
  /** The tracer of every ask's spans (docs/observability.md); default: the OpenTelemetry API's, a no-op unless registered. */
  tracing?: RunTracing;
}

/**
 * Per-request values set by the auth middleware. `principal` comes from the bearer token
 * (`--auth FILE` maps tokens to groups, `ATLAS_TOKEN` is one token with no groups), never
 * from the request body; without auth configured it is the anonymous principal (public pages).
 */
export interface ServerEnv {
  Variables: {
    principal: Principal | undefined;
    /** Who the request counts against in per-client limits: `token:<name>`, else `address:<remote address>`. */
    client: string;
  };
}
