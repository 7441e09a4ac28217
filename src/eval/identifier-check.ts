import type { IndexBackend } from '../index/types.ts';
import { kindOrder } from './compare-rows.ts';
import type { RetrievalQuery } from './dataset/dataset.ts';
import { findIdentifiers, namesIdentifier } from './identifiers.ts';
import { mean, round3, share } from './metrics.ts';

/** Depth of the identifier check's search (MRR@10). */
export const IDENTIFIER_K = 10;

/** One identifier query: what it names and where plain search ranks its first gold chunk. */
export interface IdentifierCase {
  id: string;
  kind: string;
  /** The identifier tokens found (empty for an `exact_term` query without one). */
  identifiers: string[];
  gold: string[];
  /** 1-based rank of the first hit from a gold page in the top 10; null when none is there. */
  rank: number | null;
}

/** The identifier check of one kind (or `all`). */
export interface IdentifierRow {
  kind: string;
  n: number;
  /** Mean reciprocal rank of the first gold chunk, 0 for a query with none in the top 10. */
  mrr10: number;
  /** Share of queries whose first hit is from a gold page. */
  hit1: number;
  /** Share of queries with a gold page in the top 10. */
  hit10: number;
}

/** What {@link runIdentifierCheck} measured; both lists are empty when no query names an identifier. */
export interface IdentifierCheck {
  rows: IdentifierRow[];
  cases: IdentifierCase[];
}

/**
 * How well plain index search ranks queries that name an identifier: for every query with gold
 * pages that names one (kind `exact_term`, or an identifier token, see identifiers.ts), the rank
 * of the first hit from a gold page in `index.search(query, { k: 10 })`: the query as typed, no
 * version filter, no agent. Rows per kind in table order, then `all`.
 *
 * @example
 * const { rows } = await runIdentifierCheck({ queries, index });
 * // [{ kind: 'exact_term', n: 10, mrr10: 0.85, hit1: 0.8, hit10: 0.9 }, ..., { kind: 'all', ... }]
 */
export async function runIdentifierCheck(options: { queries: RetrievalQuery[]; index: IndexBackend }): Promise<IdentifierCheck> {
  const cases: IdentifierCase[] = [];
  for (const query of options.queries) {
    if (query.relevantDocIds.length === 0 || !namesIdentifier(query)) continue;
    const hits = await options.index.search(query.query, { k: IDENTIFIER_K });
    const position = hits.findIndex((hit) => query.relevantDocIds.includes(hit.docId));
    cases.push({
      id: query.id,
      kind: query.kind,
      identifiers: findIdentifiers(query.query).map((token) => token.text),
      gold: query.relevantDocIds,
      rank: position === -1 ? null : position + 1,
    });
  }
  const rows = cases.length === 0 ? [] : [...kindOrder(cases), 'all'].map((kind) => identifierRow(kind, cases.filter((item) => kind === 'all' || item.kind === kind)));
  return { rows, cases };
}

function identifierRow(kind: string, group: IdentifierCase[]): IdentifierRow {
  return {
    kind,
    n: group.length,
    mrr10: round3(mean(group.map((item) => (item.rank === null ? 0 : 1 / item.rank)))),
    hit1: round3(share(group.map((item) => item.rank === 1))),
    hit10: round3(share(group.map((item) => item.rank !== null))),
  };
}
