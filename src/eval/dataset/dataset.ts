import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { loadCorpus } from '../../corpus/index.ts';
import type { Doc } from '../../corpus/types.ts';
import { AtlasError } from '../../errors.ts';
import { checkDuplicates, checkQaGold, checkRetrieval } from './dataset-checks.ts';
import { decisionLine, describeLineIssue, qaGoldLine, retrievalQueryLine, show, type DatasetProblem, type DecisionCase, type QaCase, type RetrievalQuery } from './dataset-schema.ts';

export type { DatasetProblem, DecisionCase, QaCase, RetrievalQuery } from './dataset-schema.ts';

/** A dataset folder, loaded and validated. Eval files that are absent are `undefined`. */
export interface Dataset {
  /** Folder name, e.g. `orbit`. */
  name: string;
  root: string;
  docs: Doc[];
  /** Invalid pages left out with `skipInvalidPages` (empty otherwise: invalid pages are errors). */
  skippedPages: DatasetProblem[];
  retrievalQueries?: RetrievalQuery[];
  qaGold?: QaCase[];
  decisions?: DecisionCase[];
}

/** The eval files of a dataset folder, relative to its root. */
export const DATASET_FILES = {
  retrievalQueries: 'eval/retrieval_queries.jsonl',
  qaGold: 'eval/qa_gold.jsonl',
  decisions: 'eval/decisions.jsonl',
} as const;

/** Thrown when a dataset folder is invalid; carries every problem found. */
export class DatasetError extends AtlasError {
  constructor(
    readonly root: string,
    readonly problems: DatasetProblem[],
    invalidPages = false,
  ) {
    const lines = problems.map((problem) => `  ${problem.file}${problem.line === undefined ? '' : `:${problem.line}`}: ${problem.field}: ${problem.message}`);
    const noun = problems.length === 1 ? 'problem' : 'problems';
    const fix = invalidPages ? 'Fix them, or pass --skip-invalid to leave the invalid pages out.' : 'Fix them and run the eval again.';
    super('invalid-dataset', `Atlas: ${problems.length} ${noun} in dataset ${root}:\n${lines.join('\n')}\n${fix}`);
    this.name = 'DatasetError';
  }
}

/** Options of {@link loadDataset}. */
export interface LoadDatasetOptions {
  /** Leave invalid pages of docs/ out (listed in `skippedPages`) instead of failing. */
  skipInvalidPages?: boolean;
}

/**
 * Loads a dataset folder in the DESIGN.md format: `docs/` (required) and the optional eval files.
 * Validates every line (missing fields, unknown kinds, duplicate ids, gold doc ids that are not
 * in `docs/`, malformed `facts`) and throws one {@link DatasetError} listing all problems.
 * Unknown fields are ignored. A qa_gold line with empty `citations` is an unanswerable question.
 *
 * @example
 * const dataset = await loadDataset('datasets/orbit');
 * const queries = requireFile(dataset, 'retrievalQueries');
 */
export async function loadDataset(dir: string, options: LoadDatasetOptions = {}): Promise<Dataset> {
  const root = path.resolve(dir);
  const docsDir = path.join(root, 'docs');
  if (!(await stat(docsDir).catch(() => undefined))?.isDirectory()) {
    throw new AtlasError(
      'usage',
      `Atlas: ${dir} is not a dataset folder: ${docsDir} not found. A dataset holds docs/*.md and eval/*.jsonl (see DESIGN.md), e.g. --data datasets/orbit.`,
    );
  }
  const corpus = await loadCorpus(docsDir);
  const pageProblems = corpus.problems.map((problem) => ({ ...problem, file: `docs/${problem.file}` }));
  const problems: DatasetProblem[] = options.skipInvalidPages ? [] : [...pageProblems];
  const docIds = new Set(corpus.docs.map((doc) => doc.docId));
  const read = async (file: string) => (await readFile(path.join(root, file), 'utf8').catch(() => undefined));

  const retrievalText = await read(DATASET_FILES.retrievalQueries);
  const qaText = await read(DATASET_FILES.qaGold);
  const decisionsText = await read(DATASET_FILES.decisions);
  const skippedPages = options.skipInvalidPages ? pageProblems : [];
  const dataset: Dataset = { name: path.basename(root), root, docs: corpus.docs, skippedPages };
  if (retrievalText !== undefined) {
    dataset.retrievalQueries = parseLines(DATASET_FILES.retrievalQueries, retrievalText, retrievalQueryLine, problems).map(({ line, data }) => ({
      id: data.id,
      query: data.query,
      kind: data.kind,
      relevantDocIds: data.relevant_doc_ids,
      version: data.version,
      facts: data.facts,
      line,
    }));
    checkRetrieval(DATASET_FILES.retrievalQueries, dataset.retrievalQueries, docIds, problems);
  }
  if (qaText !== undefined) {
    dataset.qaGold = parseLines(DATASET_FILES.qaGold, qaText, qaGoldLine, problems).map(({ line, data }) => ({ ...data, line }));
    checkQaGold(DATASET_FILES.qaGold, dataset.qaGold, docIds, problems);
  }
  if (decisionsText !== undefined) {
    dataset.decisions = parseLines(DATASET_FILES.decisions, decisionsText, decisionLine, problems).map(({ line, data }) => ({
      id: data.id ?? `line-${line}`,
      question: data.q,
      expectSearch: data.expect_search,
      line,
    }));
    checkDuplicates(DATASET_FILES.decisions, 'q', dataset.decisions.map((item) => [item.question, item.line]), problems);
  }
  if (problems.length > 0) throw new DatasetError(dir, sortProblems(problems), !options.skipInvalidPages && pageProblems.length > 0);
  return dataset;
}

/**
 * The cases of one eval file, or a usage error naming the missing file and what it holds.
 *
 * @example
 * const cases = requireFile(dataset, 'decisions'); // throws when eval/decisions.jsonl is absent
 */
export function requireFile<K extends keyof typeof DATASET_FILES>(dataset: Dataset, file: K): NonNullable<Dataset[K]> {
  const cases = dataset[file];
  if (cases === undefined) {
    throw new AtlasError(
      'usage',
      `Atlas: ${path.join(dataset.root, DATASET_FILES[file])} is missing; this eval needs it. Add it (one JSON object a line: ${FILE_SHAPES[file]}).`,
    );
  }
  return cases as NonNullable<Dataset[K]>;
}

const FILE_SHAPES: Record<keyof typeof DATASET_FILES, string> = {
  retrievalQueries: '{"id", "query", "kind", "relevant_doc_ids", "version", "facts"}',
  qaGold: '{"id", "question", "answer", "citations", "facts"}',
  decisions: '{"q", "expect_search"}',
};

function parseLines<T extends z.ZodType>(file: string, text: string, schema: T, problems: DatasetProblem[]): Array<{ line: number; data: z.output<T> }> {
  const parsed: Array<{ line: number; data: z.output<T> }> = [];
  text.split(/\r?\n/).forEach((raw, position) => {
    const line = position + 1;
    if (raw.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(raw);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push({ file, line, field: 'json', message: `invalid JSON (${reason}); write one JSON object per line.` });
      return;
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      problems.push({ file, line, field: 'json', message: `expected a JSON object, got ${show(record)}; write one object per line.` });
      return;
    }
    const result = schema.safeParse(record);
    if (result.success) {
      parsed.push({ line, data: result.data });
      return;
    }
    const seen = new Set<string>();
    for (const issue of result.error.issues) {
      const described = describeLineIssue(issue, record as Record<string, unknown>);
      if (seen.has(described.field)) continue;
      seen.add(described.field);
      problems.push({ file, line, ...described });
    }
  });
  return parsed;
}

/** Docs first, then the eval files in DATASET_FILES order, each by line. */
function sortProblems(problems: DatasetProblem[]): DatasetProblem[] {
  const files: string[] = Object.values(DATASET_FILES);
  const rank = (file: string) => (file.startsWith('docs/') ? -1 : files.indexOf(file));
  return problems
    .map((problem, position) => ({ problem, position }))
    .sort((a, b) => rank(a.problem.file) - rank(b.problem.file) || (a.problem.line ?? 0) - (b.problem.line ?? 0) || a.position - b.position)
    .map(({ problem }) => problem);
}

