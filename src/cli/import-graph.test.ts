// `atlas search` and `atlas ingest` start fast because they load neither the agent loop with the
// AI SDK nor the YAML/zod config schema (docs/performance.md, start-up). This walks the static
// imports (not `import type`, not dynamic `import()`) from each command's module and fails when
// a change pulls one of those packages back onto the start-up path.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.join(import.meta.dirname, '..');

/** The modules a file loads when it is imported: its static value imports and re-exports. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+'([^']+)';/gms)) {
    if (match[1]) continue; // import type / export type: erased
    found.push(match[3]!);
  }
  for (const match of text.matchAll(/^import\s+'([^']+)';/gm)) found.push(match[1]!);
  return found;
}

/** Every package (bare specifier) reachable from `entry` through static imports. */
function reachablePackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [path.join(src, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('.')) queue.push(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  }
  return packages;
}

describe('start-up path of the commands that need no model', () => {
  const cases: Array<[string, string[]]> = [
    ['cli/main.ts', ['better-sqlite3', 'commander']],
    ['cli/commands/search-command.ts', ['better-sqlite3', 'commander']],
    // Front matter is YAML checked with zod; the pages are parsed with markdown-it, HTML with
    // htmlparser2 (small); pdf.js (unpdf), mammoth, Asciidoctor and Readability load on first use.
    ['cli/commands/ingest-command.ts', ['better-sqlite3', 'commander', 'markdown-it', 'yaml', 'zod', 'htmlparser2']],
  ];
  for (const [entry, allowed] of cases) {
    it(`${entry} loads ${allowed.join(', ')} and no other package`, () => {
      expect([...reachablePackages(entry)].filter((name) => !allowed.includes(name))).toEqual([]);
    });
  }

  // Tracing costs nothing when no exporter is configured: the OpenTelemetry SDK is loaded only then (telemetry/tracing.ts).
  it.each(['cli/commands/ask-command.ts', 'cli/commands/chat-command.ts', 'cli/commands/mcp-command.ts', 'cli/commands/serve-command.ts', 'index.ts'])(
    '%s loads no OpenTelemetry SDK package at start-up',
    (entry) => {
      const sdk = ['@opentelemetry/sdk-trace-node', '@opentelemetry/sdk-trace-base', '@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/resources', '@opentelemetry/semantic-conventions'];
      expect([...reachablePackages(entry)].filter((name) => sdk.includes(name))).toEqual([]);
    },
  );

  // The offline planner needs no provider client: model-option.ts loads them for a model that uses one.
  it.each(['cli/commands/ask-command.ts', 'cli/commands/chat-command.ts', 'cli/commands/eval-command.ts', 'cli/commands/mcp-command.ts', 'cli/commands/serve-command.ts'])(
    '%s loads no provider client (OpenAI, Anthropic, OpenAI-compatible) at start-up',
    (entry) => {
      const providers = ['@ai-sdk/openai', '@ai-sdk/anthropic', '@ai-sdk/openai-compatible', '@ai-sdk/cohere', '@ai-sdk/togetherai'];
      expect([...reachablePackages(entry)].filter((name) => providers.includes(name))).toEqual([]);
    },
  );

  it('would see the AI SDK if the agent loop were imported (the walk is not vacuous)', () => {
    expect(reachablePackages('models/resolve-model.ts').has('@ai-sdk/openai')).toBe(true);
    expect(reachablePackages('agent/run.ts').has('ai')).toBe(true);
    expect(reachablePackages('config/schema.ts').has('yaml')).toBe(true);
  });
});
