import { readFileSync } from 'node:fs';
import { agenticRun, type AgenticRunOptions } from '../../agent/run.ts';
import type { AgentRun } from '../../agent/run-types.ts';
import type { IndexBackend } from '../../index/types.ts';
import { startLoopbackServer, type RecordedRequest, type ScriptedResponse } from '../../testing/loopback-server.ts';
import { createMemoryIndex, makeDoc } from '../../testing/memory-index.ts';
import { DEFAULT_PRICES, findPrice } from '../pricing.ts';
import { resolveModel, type ModelEnv } from '../resolve-model.ts';

/**
 * Shared pieces of the provider contract tests: the corpus, the question, the recorded
 * provider responses in `src/testing/__fixtures__/providers/`, the JSON schemas the agent's
 * tools must arrive with, and a runner that drives the real agent loop over a loopback server.
 */

/** The question every provider scenario asks. */
export const CONTRACT_QUESTION = 'How long is the default lease?';

/** The sentence the scripted final answers quote; it is in the `leases#0` search result (shown whole). */
export const LEASE_QUOTE = 'The default lease is 30 seconds and is renewed by heartbeats.';

/** The answer text of the scripted final answers. */
export const LEASE_ANSWER_TEXT = 'The default lease is 30 seconds; workers renew it with heartbeats.';

/** The verified answer every successful provider scenario must produce. */
export const EXPECTED_ANSWER = {
  text: LEASE_ANSWER_TEXT,
  citations: [
    {
      docId: 'leases',
      quote: LEASE_QUOTE,
      chunkId: 'leases#0',
      heading: 'Leases',
      headingPath: ['Leases'],
      sourcePath: 'leases.md',
      startLine: 2,
      endLine: 2,
    },
  ],
  abstained: false,
  // Claim support (agent/trust/claims.ts): "workers" is the answer's own word, so the second claim scores 2 of 3.
  claims: [
    { text: 'The default lease is 30 seconds;', supported: true, score: 1, citations: [0] },
    { text: 'workers renew it with heartbeats.', supported: true, score: 0.667, citations: [0] },
  ],
};

/** A two-document corpus: the answer is in `leases#0`, `retries` is a distractor. */
export function createContractIndex(): IndexBackend {
  return createMemoryIndex([
    makeDoc('leases', 'all', [
      ['Leases', `A worker holds a lease on every job it runs. ${LEASE_QUOTE} A job whose lease expires is handed to another worker.`],
      ['Settings', 'Set lease_seconds in orbit.toml to change the lease length.'],
    ]),
    makeDoc('retries', 'all', [['Retries', 'Failed jobs are retried with exponential backoff, up to max_attempts times.']]),
  ]);
}

/** Reads one recorded provider response, e.g. `openai-responses-search-call.json`. */
export function readProviderFixture(name: string): unknown {
  const url = new URL(`../../testing/__fixtures__/providers/${name}`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

/**
 * The JSON schemas (descriptions removed) each tool must reach the provider with:
 * `search_docs {query: string, version?: string, page?: integer >= 1}`,
 * `read_section {chunk_id: string, offset?: integer >= 0, query?: string}`, `read_neighbors {chunk_id: string}`.
 */
export const EXPECTED_TOOL_SCHEMAS: Record<string, unknown> = {
  search_docs: {
    $schema: DRAFT_07,
    type: 'object',
    properties: {
      query: { type: 'string', minLength: 1 },
      version: { type: 'string' },
      page: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    },
    required: ['query'],
    additionalProperties: false,
  },
  read_section: {
    $schema: DRAFT_07,
    type: 'object',
    properties: {
      chunk_id: { type: 'string', minLength: 1 },
      offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
      query: { type: 'string' },
    },
    required: ['chunk_id'],
    additionalProperties: false,
  },
  read_neighbors: {
    $schema: DRAFT_07,
    type: 'object',
    properties: { chunk_id: { type: 'string', minLength: 1 } },
    required: ['chunk_id'],
    additionalProperties: false,
  },
};

/** The answer schema (descriptions removed) sent as the JSON response format. */
export const EXPECTED_ANSWER_SCHEMA = {
  $schema: DRAFT_07,
  type: 'object',
  properties: {
    text: { type: 'string' },
    citations: {
      type: 'array',
      items: {
        type: 'object',
        properties: { doc_id: { type: 'string' }, quote: { type: 'string' } },
        required: ['doc_id', 'quote'],
        additionalProperties: false,
      },
    },
    abstained: { type: 'boolean' },
  },
  required: ['text', 'citations', 'abstained'],
  additionalProperties: false,
};

/**
 * A JSON schema without its `description` fields: the contract is the shape; the wording
 * belongs to the agent layer and may change.
 */
export function withoutDescriptions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDescriptions);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'description' && typeof value === 'string'))
      .map(([key, value]) => [key, key === 'properties' ? mapValues(value, withoutDescriptions) : withoutDescriptions(value)]),
  );
}

function mapValues(record: unknown, map: (value: unknown) => unknown): unknown {
  if (record === null || typeof record !== 'object') return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/** What {@link runOverLoopback} returns: the run and every HTTP request the client made. */
export interface LoopbackRun {
  run: AgentRun;
  requests: RecordedRequest[];
}

/**
 * Resolves `spec` with `env(serverUrl)`, runs the REAL agent loop ({@link agenticRun}) on the
 * contract corpus against a loopback server replaying `script`, and closes the server. Fails
 * when a request was unexpected or a scripted response went unused. The model's list price
 * (if any) is passed so `usage.costUsd` is computed.
 */
export async function runOverLoopback(options: {
  spec: (serverUrl: string) => string;
  env: (serverUrl: string) => ModelEnv;
  script: ScriptedResponse[];
  run?: Partial<Omit<AgenticRunOptions, 'model' | 'index'>>;
}): Promise<LoopbackRun> {
  const server = await startLoopbackServer(options.script);
  try {
    const spec = options.spec(server.url);
    const { model } = resolveModel(spec, { env: options.env(server.url) });
    const run = await agenticRun(CONTRACT_QUESTION, {
      model,
      index: createContractIndex(),
      price: findPrice(spec, DEFAULT_PRICES) ?? null,
      ...options.run,
    });
    server.assertScriptConsumed();
    return { run, requests: server.requests() };
  } finally {
    await server.close();
  }
}

/** Narrows an unknown JSON value to an object for property access in assertions. */
export function asRecord(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`expected a JSON object, got ${JSON.stringify(value)}`);
  }
  return value as Record<string, unknown>;
}

/** Parses a tool output string the client sent and returns its `results` array. */
export function searchResultsIn(toolOutput: unknown): Array<Record<string, unknown>> {
  if (typeof toolOutput !== 'string') throw new Error(`expected the tool output as a JSON string, got ${JSON.stringify(toolOutput)}`);
  const parsed = asRecord(JSON.parse(toolOutput));
  return parsed.results as Array<Record<string, unknown>>;
}
