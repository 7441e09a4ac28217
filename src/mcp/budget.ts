import type { SearchSession } from '../agent/session/search-session.ts';

/** The budget fields every search_docs result carries. */
export interface BudgetFields {
  searches_used: number;
  max_searches: number;
  budget: string;
}

/**
 * The search budget of a session in words and numbers, as each search result announces it.
 *
 * @example
 * budgetFields(session); // { searches_used: 2, max_searches: 6, budget: 'search 2 of 6, 4 left' }
 */
export function budgetFields(session: Pick<SearchSession, 'searchesUsed' | 'maxSearches'>): BudgetFields {
  const used = Math.min(session.searchesUsed, session.maxSearches);
  const left = session.maxSearches - used;
  const rest = left === 0 ? 'none left: answer from the passages you have' : `${left} left`;
  return { searches_used: used, max_searches: session.maxSearches, budget: `search ${used} of ${session.maxSearches}, ${rest}` };
}

/**
 * The budget rule as the tool description states it.
 *
 * @example
 * budgetRule(6); // 'Budget: 6 searches per session, duplicate queries included; ...'
 */
export function budgetRule(maxSearches: number): string {
  return `Budget: ${maxSearches} searches per session, duplicate queries included; every result says where you are ("search 2 of ${maxSearches}"), and past the budget searches are refused. Passages already shown in this session are skipped.`;
}
