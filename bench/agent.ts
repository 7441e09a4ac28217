/**
 * `npx tsx bench/agent.ts [--runs 200] [--json]` (part of `npm run bench`)
 *
 * Non-model overhead of one agentic run: the Orbit corpus in SQLite, the offline planner's turns
 * for a multi-hop question recorded once, then replayed by a scripted model (which does no work),
 * so each timed run is the loop, the AI SDK call plumbing, the search session, the index and the
 * citation check. The offline planner's own time per run is reported beside it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import { createOfflineModel } from '../src/models/offline/index.ts';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createScriptedModel, type ScriptedTurn } from '../src/testing/scripted-model.ts';
import { summarize } from './measure.ts';

const QUESTION =
  'A flow step that returns a big query result fails after finishing its work; which error is it and what should the step return instead?';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' }, json: { type: 'boolean', default: false } } });
  const runs = Number(values.runs);
  const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../datasets/orbit/docs');
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(docs)).docs);

  const turns: LanguageModelV3Content[][] = [];
  const offline = createOfflineModel();
  const recording: LanguageModelV3 = {
    ...offline,
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      const result = await offline.doGenerate(options);
      turns.push(result.content);
      return result;
    },
  };
  await agenticRun(QUESTION, { model: recording, index });
  const script = (): ScriptedTurn[] =>
    turns.map((content) => {
      const calls = content.filter((part) => part.type === 'tool-call');
      if (calls.length > 0) return { toolCalls: calls.map((call) => ({ toolName: call.toolName, input: call.input, toolCallId: call.toolCallId })) };
      const text = content.find((part) => part.type === 'text');
      return { text: text?.type === 'text' ? text.text : '' };
    });

  const overhead: number[] = [];
  const outsideCalls: number[] = [];
  const total: number[] = [];
  for (let run = 0; run < runs + 10; run++) {
    const startReplay = performance.now();
    const replay = await agenticRun(QUESTION, { model: createScriptedModel(script(), { inputTokens: () => 0 }), index });
    const replayMs = performance.now() - startReplay;
    const inCalls = replay.trace.calls.reduce((sum, call) => sum + call.latencyMs, 0);
    const startOffline = performance.now();
    await agenticRun(QUESTION, { model: createOfflineModel(), index });
    const offlineMs = performance.now() - startOffline;
    if (run >= 10) {
      overhead.push(replayMs);
      outsideCalls.push(replayMs - inCalls);
      total.push(offlineMs);
    }
  }
  const result = {
    question: QUESTION,
    modelCalls: turns.length,
    runs,
    nonModelOverheadMs: summarize(overhead),
    /** The same, without the time inside the AI SDK's generateText (prompt validation, schemas). */
    outsideModelCallsMs: summarize(outsideCalls),
    offlineRunMs: summarize(total),
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    process.stdout.write(
      `agentic run, ${turns.length} model calls, ${runs} runs\n` +
        `  non-model overhead (scripted replay): p50 ${result.nonModelOverheadMs.p50.toFixed(2)} ms, p99 ${result.nonModelOverheadMs.p99.toFixed(2)} ms\n` +
        `    of which outside generateText (loop, session, index, citations): p50 ${result.outsideModelCallsMs.p50.toFixed(2)} ms, p99 ${result.outsideModelCallsMs.p99.toFixed(2)} ms\n` +
        `  whole run with the offline planner:  p50 ${result.offlineRunMs.p50.toFixed(2)} ms, p99 ${result.offlineRunMs.p99.toFixed(2)} ms\n`,
    );
  }
  await index.close();
}

await main();
