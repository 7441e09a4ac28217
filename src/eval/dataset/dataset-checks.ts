import { show, type DatasetProblem, type QaCase, type RetrievalQuery } from './dataset-schema.ts';

/**
 * Checks of retrieval_queries.jsonl that no line schema can make: unique ids, gold pages that
 * exist and fit the kind (none for `unanswerable`, some for the others), and no facts where the
 * right outcome is to abstain.
 *
 * @example
 * checkRetrieval('eval/retrieval_queries.jsonl', queries, new Set(['flows']), problems);
 */
export function checkRetrieval(file: string, queries: RetrievalQuery[], docIds: Set<string>, problems: DatasetProblem[]): void {
  checkDuplicates(file, 'id', queries.map((query) => [query.id, query.line]), problems);
  for (const query of queries) {
    const gold = query.relevantDocIds;
    if (query.kind === 'unanswerable' && gold.length > 0) {
      problems.push({
        file,
        line: query.line,
        field: 'relevant_doc_ids',
        message: `kind "unanswerable" must have no gold pages, got ${show(gold)}; empty the list or use the kind that fits.`,
      });
    } else if (query.kind !== 'unanswerable' && gold.length === 0) {
      problems.push({
        file,
        line: query.line,
        field: 'relevant_doc_ids',
        message: `kind "${query.kind}" needs gold pages, got none; list them (e.g. "relevant_doc_ids": ["error-codes"]) or use "kind": "unanswerable".`,
      });
    } else if (query.kind === 'unanswerable' && query.facts.length > 0) {
      problems.push({
        file,
        line: query.line,
        field: 'facts',
        message: `kind "unanswerable" expects an abstention, so it has no facts, got ${show(query.facts)}; write "facts": [] or use the kind that fits.`,
      });
    }
    checkDocIds(file, query.line, 'relevant_doc_ids', gold, docIds, problems);
  }
}

/**
 * Checks of qa_gold.jsonl beyond the line schema: unique ids, cited pages that exist, and no
 * facts on an unanswerable line (empty `citations`).
 *
 * @example
 * checkQaGold('eval/qa_gold.jsonl', items, new Set(['flows']), problems);
 */
export function checkQaGold(file: string, items: QaCase[], docIds: Set<string>, problems: DatasetProblem[]): void {
  checkDuplicates(file, 'id', items.map((item) => [item.id, item.line]), problems);
  for (const item of items) {
    if (item.citations.length === 0 && item.facts.length > 0) {
      problems.push({
        file,
        line: item.line,
        field: 'facts',
        message: `empty citations make the question unanswerable (the right outcome is to abstain), yet it lists facts ${show(item.facts)}; list the gold pages in "citations" or write "facts": [].`,
      });
    }
    checkDocIds(file, item.line, 'citations', item.citations, docIds, problems);
  }
}

/**
 * One problem per repeated value of `field`, naming the line of its first occurrence.
 *
 * @example
 * checkDuplicates('eval/decisions.jsonl', 'q', [['hi', 1], ['hi', 2]], problems); // line 2: duplicate q "hi" (first on line 1)
 */
export function checkDuplicates(file: string, field: string, entries: Array<[string, number]>, problems: DatasetProblem[]): void {
  const firstLine = new Map<string, number>();
  for (const [value, line] of entries) {
    const first = firstLine.get(value);
    if (first === undefined) {
      firstLine.set(value, line);
      continue;
    }
    problems.push({ file, line, field, message: `duplicate ${field} ${show(value)} (first on line ${first}); make each ${field} unique.` });
  }
}

function checkDocIds(file: string, line: number, field: string, gold: string[], docIds: Set<string>, problems: DatasetProblem[]): void {
  for (const docId of gold) {
    if (docIds.has(docId)) continue;
    const suggestion = closest(docId, docIds);
    problems.push({
      file,
      line,
      field,
      message: `unknown doc id ${show(docId)} (no page in docs/ has it); ${suggestion ? `did you mean "${suggestion}"? ` : ''}fix the id or add the page.`,
    });
  }
}

/** The known id nearest to `docId` by edit distance, when it is close (<= max(2, 1/3 of its length)). */
function closest(docId: string, docIds: Set<string>): string | undefined {
  let best: { id: string; distance: number } | undefined;
  for (const candidate of docIds) {
    const distance = editDistance(docId, candidate);
    if (!best || distance < best.distance || (distance === best.distance && candidate < best.id)) best = { id: candidate, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(docId.length / 3)) ? best.id : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, column) => column);
  for (let row = 1; row <= a.length; row++) {
    const current = [row];
    for (let column = 1; column <= b.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (a[row - 1] === b[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
