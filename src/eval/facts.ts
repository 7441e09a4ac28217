import { decodeEntities } from '../corpus/markdown/html.ts';

/** A key fact a correct answer must contain: its accepted spellings (any one is enough). */
export type Fact = string[];

/**
 * The text a fact is matched in, normalised the same way on both sides:
 *
 * 1. HTML character references that markdown renders as characters are decoded (`&apos;`,
 *    `&rsquo;`, `&amp;`, `&nbsp;`, `&#39;`, `&#x2019;`, ...); then Unicode NFKC (full-width forms,
 *    ligatures and non-breaking spaces become plain ones), and typographic quotes become ASCII;
 * 2. markdown backslash escapes of ASCII punctuation are undone (`\|` -> `|`, `\_` -> `_`,
 *    `\*` -> `*`), as tables and identifiers in markdown sources carry them;
 * 3. every run of whitespace, line wraps included, becomes one space; the ends are trimmed;
 * 4. lowercase.
 *
 * Nothing else is removed: `**bold**` and backticks stay, so a spelling is matched against the
 * words as written, not against a guess at what the markup meant.
 *
 * @example
 * normalizeFactText('Defaults to `5\\_000`\n  ms'); // 'defaults to `5_000` ms'
 * normalizeFactText('Don&apos;t retry'); // "don't retry"
 */
export function normalizeFactText(text: string): string {
  return decodeEntities(text)
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201F]/g, '"')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Which facts of a case an answer holds. */
export interface FactCheck {
  /** The facts whose spellings all were absent. */
  missing: Fact[];
  /** Facts present / facts listed; null when the case lists no facts. */
  recall: number | null;
}

/**
 * Checks the facts against the answer: a fact is present when one of its spellings occurs, as a
 * case-insensitive substring after {@link normalizeFactText}, in one of the texts (the answer
 * text or one of its citation quotes; a spelling never spans two texts).
 *
 * @example
 * checkFacts([['job_key'], ['replace', 'preserve_run_at']], ['Set a job_key.', 'mode: replace']);
 * // { missing: [], recall: 1 }
 * checkFacts([['5_000', '5000']], ['The default is 10s.']); // { missing: [['5_000', '5000']], recall: 0 }
 */
export function checkFacts(facts: Fact[], texts: string[]): FactCheck {
  if (facts.length === 0) return { missing: [], recall: null };
  const haystacks = texts.map(normalizeFactText);
  const missing = facts.filter((fact) => !fact.some((spelling) => {
    const needle = normalizeFactText(spelling);
    return haystacks.some((haystack) => haystack.includes(needle));
  }));
  return { missing, recall: (facts.length - missing.length) / facts.length };
}
