import type { Definitions } from './definitions.ts';
import { definitionKeys, spellingSuffixes, type QueryIdentifier } from './identifiers.ts';

/**
 * Definers are looked for among this many best matches of a query, then, when none is there,
 * among {@link WIDE_DEFINER_WINDOW}: a chunk that defines a name the query names also contains
 * the name's words, so it ranks high (on the dev sets the definers moved in front ranked 5th at
 * worst; `ORB-1202` alone ranked its definition 21st), and the backends read only ids and
 * scores that far down.
 */
export const DEFINER_WINDOW = 50;
/** The second, wider window (see {@link DEFINER_WINDOW}). */
export const WIDE_DEFINER_WINDOW = 500;

/** A ranked candidate: its id, its score (higher is better) and what its chunk defines. */
export interface RankedCandidate {
  id: string | number;
  score: number;
  definitions: Definitions;
}

/**
 * Fuses the definitions of a query's identifiers in front of its ranking. For each identifier
 * (in query order) one candidate that defines it goes first: the best-scoring among those that
 * define it, preferring, in this order, a heading with the same spelling, a definition line with
 * the same spelling, a heading with the same key, a line with the same key (so `--schema` finds
 * the CLI help before the `schema` option, `addJob()` the JS function before `add_job`); the
 * identifier's whole spelling is tried before its last segment. The other candidates keep their
 * order behind. A moved candidate's score is raised by the best score of all, so scores still
 * fall with the rank. One chunk per identifier moves: a name listed in many places (reference
 * tables, rename tables) does not push the rest of the ranking out.
 *
 * `ranked` is the top k of the ranking, best first; `definers` are candidates (in the top k or
 * not, usually the definers among the top {@link DEFINER_WINDOW}) that define something, in any
 * order. Returns at most `k` candidates.
 *
 * @example
 * const none = { headings: [], lines: [] };
 * putDefinitionsFirst(
 *   [{ id: 'mentions', score: 9, definitions: none }, { id: 'other', score: 5, definitions: none }],
 *   [{ id: 'defines', score: 2, definitions: { headings: ['orb-1202'], lines: [] } }],
 *   [{ name: 'ORB-1202', spellings: ['orb-1202'], keys: ['orb1202'] }],
 *   2,
 * ).map((candidate) => [candidate.id, candidate.score]) // [['defines', 11], ['mentions', 9]]
 */
export function putDefinitionsFirst<T extends RankedCandidate>(
  ranked: readonly T[],
  definers: readonly T[],
  identifiers: readonly QueryIdentifier[],
  k: number,
): T[] {
  const indexed = [...definers]
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .map((candidate) => ({ candidate, tiers: definitionTiers(candidate.definitions) }));
  const chosen: T[] = [];
  for (const identifier of identifiers) {
    const best = bestDefiner(indexed, identifier);
    if (best !== undefined && !chosen.includes(best)) chosen.push(best);
  }
  if (chosen.length === 0) return ranked.slice(0, k);
  const top = Math.max(ranked[0]?.score ?? 0, indexed[0]!.candidate.score);
  const moved = new Set(chosen.map((candidate) => candidate.id));
  const front = chosen
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .map((candidate) => ({ ...candidate, score: candidate.score + top }));
  return [...front, ...ranked.filter((candidate) => !moved.has(candidate.id))].slice(0, k);
}

/** What one candidate defines, as sets to look spellings and keys up in, per tier; keys made when first asked for. */
interface DefinitionTiers {
  headingSpellings: Set<string>;
  lineSpellings: Set<string>;
  headingKeys(): Set<string>;
  lineKeys(): Set<string>;
}

function definitionTiers(definitions: Definitions): DefinitionTiers {
  let headingKeys: Set<string> | undefined;
  let lineKeys: Set<string> | undefined;
  return {
    headingSpellings: new Set(definitions.headings.flatMap(spellingSuffixes)),
    lineSpellings: new Set(definitions.lines.flatMap(spellingSuffixes)),
    headingKeys: () => (headingKeys ??= new Set(definitions.headings.flatMap(definitionKeys))),
    lineKeys: () => (lineKeys ??= new Set(definitions.lines.flatMap(definitionKeys))),
  };
}

/** The definer of one identifier (see {@link putDefinitionsFirst} for the order of preference). */
function bestDefiner<T>(
  indexed: ReadonlyArray<{ candidate: T; tiers: DefinitionTiers }>,
  identifier: QueryIdentifier,
): T | undefined {
  for (const [position, spelling] of identifier.spellings.entries()) {
    const key = identifier.keys[position]!;
    const tests: Array<(tiers: DefinitionTiers) => boolean> = [
      (tiers) => tiers.headingSpellings.has(spelling),
      (tiers) => tiers.lineSpellings.has(spelling),
      (tiers) => tiers.headingKeys().has(key),
      (tiers) => tiers.lineKeys().has(key),
    ];
    for (const test of tests) {
      const found = indexed.find((entry) => test(entry.tiers));
      if (found !== undefined) return found.candidate;
    }
  }
  return undefined;
}

function compareIds(a: string | number, b: string | number): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}
