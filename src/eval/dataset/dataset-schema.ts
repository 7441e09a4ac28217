import { z } from 'zod';
import type { Fact } from '../facts.ts';

/** Query kinds of retrieval_queries.jsonl (DESIGN.md). `unanswerable` queries have no gold pages. */
export const QUERY_KINDS = ['exact_term', 'semantic', 'multi_hop', 'version', 'unanswerable'] as const;

/** One of {@link QUERY_KINDS}. */
export type QueryKind = (typeof QUERY_KINDS)[number];

const id = z.union([z.string().min(1), z.number()]).transform(String);
const text = z.string().min(1);
const docIds = z.array(z.string().min(1));
const version = z.string().min(1).nullable().optional().transform((value) => value ?? null);
/** Key facts of the answer: each a list of accepted spellings (see eval/facts.ts). */
const facts = z
  .array(z.array(z.string().trim().min(1)).min(1))
  .optional()
  .transform((value) => value ?? []);

/** A line of eval/retrieval_queries.jsonl; unknown fields are ignored. */
export const retrievalQueryLine = z.object({
  id,
  query: text,
  kind: z.enum(QUERY_KINDS),
  relevant_doc_ids: docIds.optional().transform((value) => value ?? []),
  version,
  facts,
});

/**
 * A line of eval/qa_gold.jsonl; unknown fields (e.g. answer_aliases) are ignored. Empty
 * `citations` make the question unanswerable: the right outcome is to abstain.
 */
export const qaGoldLine = z.object({
  id,
  question: text,
  answer: z.string(),
  citations: docIds,
  version,
  facts,
});

/** A line of eval/decisions.jsonl; `id` is optional (default: `line-<n>`). */
export const decisionLine = z.object({
  id: id.optional(),
  q: text,
  expect_search: z.boolean(),
});

/** What each field should look like, for messages (`add it, e.g. ...`). */
const EXAMPLES: Record<string, string> = {
  id: '"id": "q-001"',
  query: '"query": "How do I retry a failed job?"',
  question: '"question": "Which error does a too-large result raise?"',
  answer: '"answer": "ORB-1202 PayloadTooLarge"',
  kind: `"kind": "multi_hop" (one of ${QUERY_KINDS.join(', ')})`,
  relevant_doc_ids: '"relevant_doc_ids": ["error-codes"]',
  citations: '"citations": ["error-codes"]',
  version: '"version": "3.x" (or null for every version)',
  q: '"q": "hello!"',
  expect_search: '"expect_search": true',
  facts: '"facts": [["job_key"], ["replace", "preserve_run_at"]]',
};

const FACT_EXAMPLE = '["5000", "5_000", "5 seconds"]';

/**
 * Explains one zod issue of a dataset line: the field, the bad value and the fix.
 *
 * @example
 * describeLineIssue(issue, { id: 'q1', kind: 'multihop' });
 * // { field: 'kind', message: 'unknown kind "multihop"; use one of exact_term, semantic, ...' }
 */
export function describeLineIssue(issue: z.core.$ZodIssue, record: Record<string, unknown>): { field: string; message: string } {
  const field = String(issue.path[0] ?? 'line');
  const example = EXAMPLES[field] ?? `"${field}": ...`;
  const present = Object.hasOwn(record, field);
  const value = present ? record[field] : undefined;
  if (!present) return { field, message: `missing field "${field}"; add it, e.g. ${example}.` };
  if (field === 'facts') return describeFactsIssue(issue, value);
  if (field === 'kind') {
    return { field, message: `unknown kind ${show(value)}; use one of ${QUERY_KINDS.join(', ')}.` };
  }
  if (issue.code === 'too_small' && Array.isArray(value)) {
    return { field, message: `${field} is empty; list at least one doc id, e.g. ${example}.` };
  }
  if (issue.code === 'too_small') return { field, message: `${field} is empty; write it out, e.g. ${example}.` };
  return { field, message: `expected ${expected(field)}, got ${show(value)}; write e.g. ${example}.` };
}

/** A `facts` issue, located to the fact (`facts[1]`) or the spelling (`facts[1][0]`). */
function describeFactsIssue(issue: z.core.$ZodIssue, value: unknown): { field: string; message: string } {
  const [, factIndex, spellingIndex] = issue.path;
  if (typeof factIndex !== 'number') {
    return { field: 'facts', message: `expected a list of facts, each a list of accepted spellings, got ${show(value)}; write e.g. ${EXAMPLES.facts}.` };
  }
  const fact = Array.isArray(value) ? (value[factIndex] as unknown) : undefined;
  if (typeof spellingIndex !== 'number') {
    const field = `facts[${factIndex}]`;
    if (Array.isArray(fact)) return { field, message: `the fact is empty; list at least one accepted spelling, e.g. ${FACT_EXAMPLE}, or remove it.` };
    return { field, message: `expected a list of accepted spellings, got ${show(fact)}; write e.g. ${FACT_EXAMPLE}.` };
  }
  const field = `facts[${factIndex}][${spellingIndex}]`;
  const spelling = Array.isArray(fact) ? (fact[spellingIndex] as unknown) : undefined;
  if (typeof spelling === 'string') return { field, message: `spelling is blank (it would match any answer); write the words the answer must hold, or remove it.` };
  return { field, message: `expected a spelling string, got ${show(spelling)}; write it as text, e.g. "5000".` };
}

function expected(field: string): string {
  if (field === 'relevant_doc_ids' || field === 'citations') return 'a list of doc id strings';
  if (field === 'expect_search') return 'true or false';
  if (field === 'version') return 'a string or null';
  if (field === 'id') return 'a string';
  if (field === 'answer') return 'a string';
  return 'a non-empty string';
}

/** A value as it should appear in a message: JSON, cut to 60 characters. */
export function show(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

/** A retrieval query with its gold pages (none for unanswerable ones). */
export interface RetrievalQuery {
  id: string;
  query: string;
  kind: QueryKind;
  relevantDocIds: string[];
  /** Release line to filter on, or null for every version. */
  version: string | null;
  /** Key facts a correct answer holds, each a list of accepted spellings; empty when none are given. */
  facts: Fact[];
  line: number;
}

/** A question with a short gold answer and the pages that support it (none: unanswerable). */
export interface QaCase {
  id: string;
  question: string;
  answer: string;
  citations: string[];
  version: string | null;
  /** Key facts a correct answer holds, each a list of accepted spellings; empty when none are given. */
  facts: Fact[];
  line: number;
}

/** A question with whether the agent should search before answering it. */
export interface DecisionCase {
  id: string;
  question: string;
  expectSearch: boolean;
  line: number;
}

/** One problem of a dataset: file (relative to the dataset root), line, field and the fix. */
export interface DatasetProblem {
  file: string;
  line?: number;
  field: string;
  message: string;
}
