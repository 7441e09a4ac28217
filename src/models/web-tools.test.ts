import { describe, expect, it } from 'vitest';
import { createOfflineModel } from './offline/index.ts';
import { AtlasError } from '../errors.ts';
import { resolveModel } from './resolve-model.ts';
import { createWebSearch } from './web-tools.ts';

const env = { OPENAI_API_KEY: 'sk-test', ANTHROPIC_API_KEY: 'ak-test' };

describe('createWebSearch', () => {
  it('gives an OpenAI Responses model the web_search tool with filters.allowedDomains', () => {
    const web = createWebSearch(resolveModel('openai:gpt-5-mini', { env }).model, { allowedDomains: ['Docs.Python.org'] });
    expect(web.allowedDomains).toEqual(['docs.python.org']);
    expect(web.tools.web_search).toMatchObject({ type: 'provider', id: 'openai.web_search', args: { filters: { allowedDomains: ['docs.python.org'] } } });
  });

  it('gives an Anthropic model web_search_20250305 with allowedDomains', () => {
    const web = createWebSearch(resolveModel('anthropic:claude-haiku-4-5', { env }).model, { allowedDomains: ['python.org'] });
    expect(web.tools.web_search).toMatchObject({ type: 'provider', id: 'anthropic.web_search_20250305', args: { allowedDomains: ['python.org'] } });
  });

  it('refuses the offline planner, saying it has no web and which models can', () => {
    const attempt = () => createWebSearch(createOfflineModel(), { allowedDomains: ['python.org'] });
    expect(attempt).toThrow(
      'Atlas: --web needs a model that searches the web itself, and "offline" cannot (the offline planner has no web: it answers from the indexed docs only). Use openai:<model> (Responses API web_search) or anthropic:<model> (web_search_20250305), e.g. --model openai:gpt-5-mini, or drop --web.',
    );
    try {
      attempt();
      expect.unreachable();
    } catch (error) {
      expect((error as AtlasError).code).toBe('usage');
    }
  });

  it('refuses Ollama and OpenAI-compatible servers, naming the model and the option', () => {
    expect(() => createWebSearch(resolveModel('ollama:qwen3-8b', { env: {} }).model, { allowedDomains: ['python.org'], flag: 'web' })).toThrow(
      'Atlas: web needs a model that searches the web itself, and "ollama:qwen3-8b" cannot (the ollama provider has no hosted web search in Atlas). Use openai:<model> (Responses API web_search) or anthropic:<model> (web_search_20250305), e.g. --model openai:gpt-5-mini, or drop web.',
    );
    expect(() => createWebSearch(resolveModel('openai-compatible:http://127.0.0.1:9/v1#qwen3', { env: {} }).model, { allowedDomains: ['python.org'] })).toThrow(/"openai-compatible:qwen3" cannot/);
  });

  it('checks the domains before the model', () => {
    expect(() => createWebSearch(createOfflineModel(), { allowedDomains: ['https://python.org'] })).toThrow(/"https:\/\/python\.org" is not a bare domain/);
  });
});
