// The provider-hosted web search tools, with the allow-list in each provider's own field.
import { anthropic } from '@ai-sdk/anthropic';
import { openai } from '@ai-sdk/openai';
import type { LanguageModel, ToolSet } from 'ai';
import { parseAllowedDomains, WEB_SEARCH_TOOL, type WebOptions } from '../agent/web/web.ts';
import { AtlasError } from '../errors.ts';

/** The model specs whose provider searches the web itself, as error messages and docs name them. */
export const WEB_SEARCH_MODELS = 'openai:<model> (Responses API web_search) or anthropic:<model> (web_search_20250305)';

/**
 * The web search of `model`'s provider, limited to `allowedDomains` (and their subdomains):
 * OpenAI Responses `web_search` with `filters.allowed_domains`, Anthropic `web_search_20250305`
 * with `allowed_domains`. Pass the result as `web` to `agenticRun` or `routedAsk`. Throws
 * `AtlasError('usage')` naming `flag` for any other model (the offline planner, Ollama,
 * OpenAI-compatible servers have no hosted web search) and for a bad domain.
 *
 * @example
 * const web = createWebSearch(model, { allowedDomains: ['worker.graphile.org'] });
 * const run = await agenticRun(question, { model, index, web });
 * run.answer.webCitations; // URLs the provider returned, inside the allow-list
 */
export function createWebSearch(model: LanguageModel, options: { allowedDomains: string[]; flag?: string }): WebOptions {
  const flag = options.flag ?? '--web';
  const allowedDomains = parseAllowedDomains(options.allowedDomains, flag);
  const provider = typeof model === 'string' ? model : model.provider;
  if (provider === 'openai.responses') {
    return { allowedDomains, tools: asToolSet(openai.tools.webSearch({ filters: { allowedDomains } })) };
  }
  if (provider.startsWith('anthropic.')) {
    return { allowedDomains, tools: asToolSet(anthropic.tools.webSearch_20250305({ allowedDomains })) };
  }
  throw new AtlasError('usage', noWebMessage(model, flag));
}

/**
 * The provider tool under {@link WEB_SEARCH_TOOL}. The provider packages type their tools with
 * their own copy of `@ai-sdk/provider-utils`, so TypeScript sees two `Schema` brands; the
 * object is the AI SDK tool the `ai` package expects (the contract tests send it).
 */
function asToolSet(tool: object): ToolSet {
  return { [WEB_SEARCH_TOOL]: tool as ToolSet[string] };
}

function noWebMessage(model: LanguageModel, flag: string): string {
  const name = typeof model === 'string' ? model : model.provider === 'atlas' ? 'offline' : `${model.provider.split('.')[0]}:${model.modelId}`;
  const why = name === 'offline' ? 'the offline planner has no web: it answers from the indexed docs only' : `the ${name.split(':')[0]} provider has no hosted web search in Atlas`;
  return `Atlas: ${flag} needs a model that searches the web itself, and "${name}" cannot (${why}). Use ${WEB_SEARCH_MODELS}, e.g. --model openai:gpt-5-mini, or drop ${flag}.`;
}
