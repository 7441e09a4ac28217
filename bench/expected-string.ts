/**
 * How an answer of the offline planner does against the string a right answer holds, for the
 * benches that ask questions of real docs with such a string (bench/japanese-docs.ts,
 * bench/european-docs.ts): `right` when the answer's text or a quote holds it, `closest useful`
 * when the run abstained and its closest passages hold it, else `wrong` (answered) or `abstained`.
 * A question the docs do not answer (no string) is right to abstain: `abstained`, else `wrong`.
 * White space is compared as one space (a page may break a line inside a code span: `su -c`).
 */

/** What an outcome needs of an answer. */
export interface BenchAnswer {
  text: string;
  abstained: boolean;
  citations: Array<{ quote: string }>;
  closest?: Array<{ sentences: string[] }>;
}

export type Outcome = 'right' | 'wrong' | 'closest useful' | 'abstained';

/**
 * The outcome of `answer` for a question whose right answer holds `holds` (undefined: the docs
 * do not answer it).
 *
 * @example
 * answerOutcome({ text: 'Use `fuser`. [1]', abstained: false, citations: [] }, 'fuser'); // 'right'
 */
export function answerOutcome(answer: BenchAnswer, holds: string | undefined): Outcome {
  if (holds === undefined) return answer.abstained ? 'abstained' : 'wrong';
  const holding = (texts: string[]) => texts.some((text) => text.replace(/\s+/g, ' ').includes(holds));
  if (!answer.abstained) return holding([answer.text, ...answer.citations.map((citation) => citation.quote)]) ? 'right' : 'wrong';
  return holding((answer.closest ?? []).flatMap((passage) => passage.sentences)) ? 'closest useful' : 'abstained';
}
