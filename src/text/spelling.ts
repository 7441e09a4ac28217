/**
 * British and American spellings of the same English word (`behaviour` and `behavior`,
 * `optimisation` and `optimization`, `analyse` and `analyze`), so that a question written on one
 * side of the Atlantic meets docs written on the other in the offline planner's terms. Regular
 * endings only, no word list: -our / -or, -ise / -ize and their inflections, -isation /
 * -ization, -yse / -yze. A pure function.
 */

/** Words shorter than this keep their letters: `hour`, `four`, `your`, `rise`, `size`. */
const MIN_LETTERS = 6;

/**
 * A stem (text.ts `stem`: its inflection already stripped) in American spelling; other stems unchanged.
 *
 * @example
 * americanStem('behaviour'); // 'behavior'
 * americanStem('initialis'); // 'initializ' (of "initialised")
 * americanStem('optimisation'); // 'optimization'
 * americanStem('hour'); // 'hour'
 */
export function americanStem(stem: string): string {
  if (stem.length < MIN_LETTERS) return stem;
  if (stem.endsWith('our')) return `${stem.slice(0, -3)}or`;
  if (stem.endsWith('isation') || stem.endsWith('isations')) return stem.replace(/isation(s?)$/, 'ization$1');
  // A consonant before it: "initialis(e)", "analys(e)"; not "-uis(e)" or "-ais(e)" ("raise", "praise").
  return stem.replace(/([^aeiou])([iy])s(e?)$/, '$1$2z$3');
}
