// What one model call did on the web, read from the AI SDK's result (docs/web-search.md).
import { WEB_SEARCH_TOOL, type WebActivity, type WebSource } from './web.ts';

/** The parts of an AI SDK `generateText` result the web record reads. */
export interface WebResultParts {
  content: ReadonlyArray<{ type: string; toolName?: string; providerExecuted?: boolean; output?: unknown }>;
  sources: ReadonlyArray<{ sourceType: string; url?: string; title?: string }>;
  providerMetadata?: Record<string, Record<string, unknown> | undefined> | undefined;
}

/**
 * The sources the provider's web search returned in one call and the searches it ran, as
 * `{ web }` to spread into the call's outcome, or `{}` when the call did not touch the web.
 * Sources: the URL source parts (OpenAI `url_citation` annotations, Anthropic
 * `web_search_tool_result` entries) and the URLs in the provider-executed tool results (OpenAI
 * `web_search_call.action.sources`). Searches: Anthropic's `usage.server_tool_use.web_search_requests`
 * when reported, else the provider-executed `web_search` calls (one OpenAI `web_search_call` item each).
 *
 * @example
 * webActivityOf(result); // { web: { sources: [{ url: 'https://docs.python.org/3/', title: 'Python' }], searches: 1 } }
 */
export function webActivityOf(result: WebResultParts): { web?: WebActivity } {
  const sources: WebSource[] = [];
  const add = (url: unknown, title?: unknown) => {
    if (typeof url !== 'string' || url === '' || sources.some((source) => source.url === url)) return;
    sources.push({ url, ...(typeof title === 'string' && title !== '' ? { title } : {}) });
  };
  let calls = 0;
  for (const part of result.content) {
    if (!part.providerExecuted || part.toolName !== WEB_SEARCH_TOOL) continue;
    if (part.type === 'tool-call') calls += 1;
    if (part.type === 'tool-result') for (const entry of resultEntries(part.output)) add(entry.url, entry.title);
  }
  for (const source of result.sources) if (source.sourceType === 'url') add(source.url, source.title);
  const reported = anthropicSearchRequests(result.providerMetadata);
  const searches = reported ?? calls;
  return searches === 0 && sources.length === 0 ? {} : { web: { sources, searches } };
}

/** The `{ url, title }` entries of a web search tool result (Anthropic: an array; OpenAI: `{ sources }`). */
function resultEntries(output: unknown): Array<{ url?: unknown; title?: unknown }> {
  const value = output !== null && typeof output === 'object' && 'value' in output && 'type' in output ? (output as { value: unknown }).value : output;
  if (Array.isArray(value)) return value.filter(isObject);
  if (isObject(value) && Array.isArray(value.sources)) return value.sources.filter(isObject);
  return [];
}

function anthropicSearchRequests(metadata: WebResultParts['providerMetadata']): number | undefined {
  const usage = metadata?.anthropic?.usage;
  const server = isObject(usage) ? usage.server_tool_use : undefined;
  const count = isObject(server) ? server.web_search_requests : undefined;
  return typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
