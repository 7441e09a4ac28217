import { routedAsk } from '../../agent/policy/route.ts';
import { agenticRun, type AgenticRunOptions } from '../../agent/run.ts';
import type { AgentRun } from '../../agent/run-types.ts';
import { startLoopbackServer, type RecordedRequest, type ScriptedResponse } from '../../testing/loopback-server.ts';
import { DEFAULT_PRICES, findPrice } from '../pricing.ts';
import { resolveModel, type ModelEnv } from '../resolve-model.ts';
import { createWebSearch } from '../web-tools.ts';
import { CONTRACT_QUESTION, createContractIndex, LEASE_QUOTE } from './scenario.ts';

/**
 * Shared pieces of the web search contract tests: the allow-list, the pages the replayed web
 * searches return, the answer the model writes (one good web citation, one to a page the search
 * never returned, one outside the allow-list), and a runner over loopback.
 */

/** The allow-list every web scenario runs with. */
export const WEB_DOMAINS = ['orbit.example.com'];

/** The page the replayed searches return (a subdomain of the allowed domain). */
export const RETURNED_URL = 'https://docs.orbit.example.com/hosted/leases';
export const RETURNED_TITLE = 'Leases on Orbit Cloud';
/** Inside the allow-list but never returned by the search. */
export const UNRETURNED_URL = 'https://docs.orbit.example.com/hosted/limits';
/** Outside the allow-list. */
export const OUTSIDE_URL = 'https://blog.elsewhere.test/orbit-leases';
export const WEB_QUOTE = 'On Orbit Cloud the lease can be raised to 10 minutes.';
export const WEB_ANSWER_TEXT = 'The default lease is 30 seconds; on Orbit Cloud it can be raised to 10 minutes.';

/** The answer JSON the replayed final responses carry; `docsQuote` replaces the docs quote (e.g. with one never shown). */
export function webAnswerJson(citedUrl: string, docsQuote = LEASE_QUOTE): string {
  return JSON.stringify({
    text: WEB_ANSWER_TEXT,
    citations: [{ doc_id: 'leases', quote: docsQuote }],
    web_citations: [
      { url: citedUrl, quote: WEB_QUOTE },
      { url: UNRETURNED_URL, quote: 'Leases are capped at one hour.' },
      { url: OUTSIDE_URL, quote: '' },
    ],
    abstained: false,
  });
}

/** What {@link runWebOverLoopback} returns. */
export interface WebLoopbackRun {
  run: AgentRun;
  requests: RecordedRequest[];
}

/**
 * Resolves `spec` against a loopback server replaying `script`, gives the run the provider's web
 * search on {@link WEB_DOMAINS}, and runs the REAL agent loop on the contract corpus with the
 * model's list price (the web fee included).
 */
export async function runWebOverLoopback(options: {
  spec: (serverUrl: string) => string;
  env: (serverUrl: string) => ModelEnv;
  script: ScriptedResponse[];
  run?: Partial<Omit<AgenticRunOptions, 'model' | 'index'>>;
  /** Run through `routedAsk` with `webFallback` (route agentic): docs only first, the web when that abstains. */
  fallback?: boolean;
}): Promise<WebLoopbackRun> {
  const server = await startLoopbackServer(options.script);
  try {
    const spec = options.spec(server.url);
    const { model } = resolveModel(spec, { env: options.env(server.url) });
    const runOptions = {
      model,
      index: createContractIndex(),
      price: findPrice(spec, DEFAULT_PRICES) ?? null,
      web: createWebSearch(model, { allowedDomains: WEB_DOMAINS }),
      ...options.run,
    };
    const run = options.fallback
      ? await routedAsk(CONTRACT_QUESTION, { ...runOptions, route: 'agentic', webFallback: true })
      : await agenticRun(CONTRACT_QUESTION, runOptions);
    server.assertScriptConsumed();
    return { run, requests: server.requests() };
  } finally {
    await server.close();
  }
}
