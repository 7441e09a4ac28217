import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DatasetError, loadDataset, requireFile } from './dataset.ts';

const fixture = (name: string) => path.join(import.meta.dirname, '..', '__fixtures__', name);

describe('loadDataset', () => {
  it('reads docs and every eval file, ignoring unknown fields', async () => {
    const dataset = await loadDataset(fixture('tiny'));
    expect(dataset.name).toBe('tiny');
    expect(dataset.docs.map((doc) => doc.docId)).toEqual(['error-codes', 'flows', 'leases-2x', 'leases-3x', 'limits', 'scheduling']);
    expect(dataset.retrievalQueries?.map((query) => [query.id, query.kind, query.relevantDocIds, query.version, query.facts, query.line])).toEqual([
      ['exact-1', 'exact_term', ['error-codes'], null, [['PayloadTooLarge'], ['max_payload_kb', 'payload limit']], 1],
      ['hop-1', 'multi_hop', ['flows', 'error-codes', 'limits'], null, [['ORB-1202', 'PayloadTooLarge'], ['max_payload_kb']], 2],
      ['version-1', 'version', ['leases-3x'], '3.x', [['lease_seconds']], 3],
      ['none-1', 'unanswerable', [], null, [], 4],
    ]);
    expect(dataset.retrievalQueries?.[1]).not.toHaveProperty('notes');
    expect(dataset.qaGold).toEqual([
      {
        id: 'qa-1',
        question: 'What is the default of max_payload_kb?',
        answer: '256 kilobytes',
        citations: ['limits'],
        version: null,
        facts: [['256'], ['kilobytes', 'KB']],
        line: 1,
      },
      {
        id: 'qa-2',
        question: 'Where do I set lease_seconds?',
        answer: 'In the worker table of orbit.toml',
        citations: ['leases-3x'],
        version: null,
        facts: [['worker table', '[worker]'], ['orbit.toml']],
        line: 2,
      },
      // No facts given: an empty list.
      { id: 'qa-3', question: 'ORB-1202', answer: 'PayloadTooLarge', citations: ['error-codes'], version: null, facts: [], line: 3 },
      // No citations: an unanswerable question.
      { id: 'qa-4', question: 'Which Kafka topic does Orbit use?', answer: 'The docs do not say.', citations: [], version: null, facts: [], line: 4 },
    ]);
    expect(dataset.decisions?.map((item) => [item.id, item.question, item.expectSearch])).toEqual([
      ['line-1', 'hello there!', false],
      ['line-2', 'What does ORB-1202 mean?', true],
      ['line-3', 'How do I reverse a list in Python?', false],
      ['line-4', 'How are cron schedules run?', true],
    ]);
  });

  it('reports every problem of every file with file:line, field, value and fix', async () => {
    const error = await loadDataset(fixture('bad')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DatasetError);
    const lines = (error as DatasetError).message.split('\n');
    expect(lines[0]).toBe(`Atlas: 21 problems in dataset ${fixture('bad')}:`);
    expect(lines[4]).toMatch(/^ {2}eval\/retrieval_queries\.jsonl:5: json: invalid JSON \(.+\); write one JSON object per line\.$/);
    expect([...lines.slice(1, 4), ...lines.slice(5)]).toEqual([
      '  eval/retrieval_queries.jsonl:2: id: duplicate id "q1" (first on line 1); make each id unique.',
      '  eval/retrieval_queries.jsonl:3: query: missing field "query"; add it, e.g. "query": "How do I retry a failed job?".',
      '  eval/retrieval_queries.jsonl:3: kind: unknown kind "multihop"; use one of exact_term, semantic, multi_hop, version, unanswerable.',
      '  eval/retrieval_queries.jsonl:6: relevant_doc_ids: unknown doc id "alpah" (no page in docs/ has it); did you mean "alpha"? fix the id or add the page.',
      '  eval/retrieval_queries.jsonl:7: relevant_doc_ids: kind "unanswerable" must have no gold pages, got ["alpha"]; empty the list or use the kind that fits.',
      '  eval/retrieval_queries.jsonl:8: relevant_doc_ids: kind "semantic" needs gold pages, got none; list them (e.g. "relevant_doc_ids": ["error-codes"]) or use "kind": "unanswerable".',
      '  eval/retrieval_queries.jsonl:9: json: expected a JSON object, got [1,2]; write one object per line.',
      '  eval/retrieval_queries.jsonl:10: relevant_doc_ids: expected a list of doc id strings, got "alpha"; write e.g. "relevant_doc_ids": ["error-codes"].',
      '  eval/retrieval_queries.jsonl:10: version: expected a string or null, got 3; write e.g. "version": "3.x" (or null for every version).',
      '  eval/retrieval_queries.jsonl:11: facts: expected a list of facts, each a list of accepted spellings, got "5000"; write e.g. "facts": [["job_key"], ["replace", "preserve_run_at"]].',
      '  eval/retrieval_queries.jsonl:12: facts[1]: the fact is empty; list at least one accepted spelling, e.g. ["5000", "5_000", "5 seconds"], or remove it.',
      '  eval/retrieval_queries.jsonl:12: facts[2]: expected a list of accepted spellings, got "5000"; write e.g. ["5000", "5_000", "5 seconds"].',
      '  eval/retrieval_queries.jsonl:12: facts[3][0]: expected a spelling string, got 5; write it as text, e.g. "5000".',
      '  eval/retrieval_queries.jsonl:12: facts[3][1]: spelling is blank (it would match any answer); write the words the answer must hold, or remove it.',
      '  eval/retrieval_queries.jsonl:13: facts: kind "unanswerable" expects an abstention, so it has no facts, got [["x"]]; write "facts": [] or use the kind that fits.',
      '  eval/qa_gold.jsonl:1: facts: empty citations make the question unanswerable (the right outcome is to abstain), yet it lists facts [["x"]]; list the gold pages in "citations" or write "facts": [].',
      '  eval/qa_gold.jsonl:2: answer: expected a string, got 42; write e.g. "answer": "ORB-1202 PayloadTooLarge".',
      '  eval/qa_gold.jsonl:3: citations: unknown doc id "beta" (no page in docs/ has it); fix the id or add the page.',
      '  eval/decisions.jsonl:2: q: duplicate q "hi" (first on line 1); make each q unique.',
      '  eval/decisions.jsonl:3: expect_search: expected true or false, got "no"; write e.g. "expect_search": true.',
      'Fix them and run the eval again.',
    ]);
    expect((error as DatasetError).code).toBe('invalid-dataset');
  });

  it('reports invalid pages of docs/ as dataset problems', async () => {
    const error = (await loadDataset(fixture('bad-docs')).catch((caught: unknown) => caught)) as DatasetError;
    expect(error.problems).toEqual([
      {
        file: 'docs/broken.md',
        line: 2,
        field: 'front matter',
        message:
          'front matter is not valid YAML at column 7: Flow sequence in block collection must be sufficiently indented and end with a ]. Fix the YAML syntax; quote values that contain ": " or " #".',
      },
    ]);
  });

  it('leaves invalid pages out with skipInvalidPages, listing them', async () => {
    const error = (await loadDataset(fixture('bad-docs')).catch((caught: unknown) => caught)) as DatasetError;
    expect(error.message.split('\n').at(-1)).toBe('Fix them, or pass --skip-invalid to leave the invalid pages out.');
    const dataset = await loadDataset(fixture('bad-docs'), { skipInvalidPages: true });
    expect(dataset.docs).toEqual([]);
    expect(dataset.skippedPages.map((problem) => `${problem.file}:${problem.line}: ${problem.field}`)).toEqual(['docs/broken.md:2: front matter']);
  });

  it('says what a dataset folder is when docs/ is missing', async () => {
    await expect(loadDataset(fixture('nothing'))).rejects.toThrow(
      `Atlas: ${fixture('nothing')} is not a dataset folder: ${path.join(fixture('nothing'), 'docs')} not found. A dataset holds docs/*.md and eval/*.jsonl (see DESIGN.md), e.g. --data datasets/orbit.`,
    );
  });
});

describe('requireFile', () => {
  it('names the missing eval file and its line format', async () => {
    const dataset = await loadDataset(fixture('no-eval'));
    expect(dataset.retrievalQueries).toBeUndefined();
    expect(() => requireFile(dataset, 'decisions')).toThrow(
      `Atlas: ${path.join(fixture('no-eval'), 'eval/decisions.jsonl')} is missing; this eval needs it. Add it (one JSON object a line: {"q", "expect_search"}).`,
    );
    expect(() => requireFile(dataset, 'retrievalQueries')).toThrow(/retrieval_queries\.jsonl is missing/);
  });
});
