/**
 * Records what the offline planner had read when it wrote each answer of a dataset's compare
 * cases (the agentic arm: the same question, filter and budget as `atlas eval compare`): the
 * prompt of its answering call, with the case's facts and kind. scripts/fit-offline-answers.ts
 * replays the answer step on these records, so the answer rule can be fitted and checked on
 * several dev sets without running the searches again.
 *
 * Usage:
 *   npx tsx scripts/capture-offline-evidence.ts <dataset-dir> <out.jsonl>
 */
import { writeFileSync } from 'node:fs';
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { agenticRun } from '../src/agent/run.ts';
import { caseFilter, compareCases } from '../src/eval/cases.ts';
import { loadDataset } from '../src/eval/dataset/dataset.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';

/** One case as the planner answered it. */
export interface CapturedCase {
  id: string;
  kind: string;
  question: string;
  gold: string[];
  facts: string[][];
  /** The prompt of the planner's answering call. */
  prompt: LanguageModelV3Prompt;
}

/** The offline planner, remembering the prompt of its last call. */
function recordingModel(): { model: LanguageModelV3; last: () => LanguageModelV3Prompt | undefined } {
  const inner = createOfflineModel();
  let last: LanguageModelV3Prompt | undefined;
  const model: LanguageModelV3 = {
    ...inner,
    doGenerate: (options) => {
      last = options.prompt;
      return inner.doGenerate(options);
    },
  };
  return { model, last: () => last };
}

async function main(): Promise<void> {
  const [dir, out] = process.argv.slice(2);
  if (!dir || !out) throw new Error('usage: npx tsx scripts/capture-offline-evidence.ts <dataset-dir> <out.jsonl>');
  const dataset = await loadDataset(dir);
  const index = await createSqliteIndex({ path: ':memory:' });
  await index.ingest(dataset.docs);
  const lines: string[] = [];
  for (const item of compareCases(dataset)) {
    const { model, last } = recordingModel();
    const filter = caseFilter(item);
    await agenticRun(item.question, { model, index, ...(filter ? { filter } : {}) });
    const prompt = last();
    if (prompt === undefined) continue;
    const captured: CapturedCase = { id: item.id, kind: item.kind, question: item.question, gold: item.gold, facts: item.facts, prompt };
    lines.push(JSON.stringify(captured));
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  await index.close();
  process.stderr.write(`${lines.length} cases captured from ${dir} into ${out}\n`);
}

await main();
