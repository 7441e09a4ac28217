// The answer of a run as `atlas ask` and `atlas chat` print it in the terminal: the text with its
// [n] markers, the citations numbered as the markers, and the closest passages of an abstention.
import { locatorText } from '../../corpus/locator.ts';
import type { Answer, ClosestPassage, Citation } from '../../agent/trust/answer.ts';
import { closestHeading } from '../../agent/trust/abstain-text.ts';
import { markUnsupported } from '../../agent/trust/claims.ts';
import type { AgentRun } from '../../agent/run-types.ts';
import { modelFailed } from '../../agent/stop-conditions.ts';
import { plainText } from '../../models/offline/plain-text.ts';

/**
 * The first line of a run's output: the answer text as the model wrote it, `[n]` markers
 * included, claims no quote backs marked `[unsupported]`; or, for a run that ended without an
 * answer because the model failed, timed out or gave nothing usable, a line saying so (never the
 * abstention text, which would say the docs do not answer).
 *
 * @example
 * answerLine(run); // 'The step fails with ORB-1202. [1] Return a reference instead. [2]'
 * answerLine(timedOut); // 'No answer: the run timed out (stop: timeout); try again.'
 */
export function answerLine(run: AgentRun): string {
  const { stopReason, abstainReason } = run.trace;
  if (stopReason === 'timeout' || stopReason === 'deadline') return `No answer: the run timed out (stop: ${stopReason}); try again.`;
  if (modelFailed(stopReason)) return `No answer: the run failed (stop: ${stopReason}); try again.`;
  if (abstainReason?.startsWith('no usable answer')) return 'No answer: the model gave no usable answer; try again.';
  return markUnsupported(run.answer);
}

/**
 * Each citation as `  [n] heading path — file:start-end`, then its quote on one line, indented;
 * `n` is the marker of the answer text (citation 1 is `[1]`). A stale citation (its quote is no
 * longer in the docs as they are now) is marked `[stale]`, with the reason on a line of its own.
 *
 * @example
 * citationLines(answer.citations);
 * // ['  [1] Results API > Passing large data between flow steps — api-results.md:69-70', '      "A step that returns ..."']
 */
export function citationLines(citations: Citation[]): string[] {
  return citations.flatMap((citation, position) => [
    `  [${position + 1}] ${placeText(citation)}${citation.stale ? ' [stale]' : ''}`,
    `      ${quoted(citation.quote)}`,
    ...(citation.stale ? [`      stale: ${citation.stale.reason}`] : []),
  ]);
}

/**
 * The closest passages of an abstention that found no direct answer: a heading line (in the
 * language of the abstention's text: `closestHeading`), then each passage as
 * `  heading path — file:start-end` and its sentences, one quoted line each. No lines when there
 * are none.
 *
 * @example
 * closestLines(answer);
 * // ['Closest passages in the docs:', '  Error codes > ORB-1202 PayloadTooLarge — error-codes.md:90-90', '      "The job\'s arguments ..."']
 */
export function closestLines(answer: Pick<Answer, 'text' | 'closest'>): string[] {
  const closest: ClosestPassage[] = answer.closest ?? [];
  if (closest.length === 0) return [];
  return [`${closestHeading(answer)}:`, ...closest.flatMap((passage) => [`  ${placeText(passage)}`, ...passage.sentences.map((sentence) => `      ${quoted(sentence)}`)])];
}

/** `heading path — file:start-end` (`file p.N` for a PDF: see `locatorText`). */
function placeText(place: { headingPath: string[]; heading: string; sourcePath: string; startLine: number; endLine: number }): string {
  const path = place.headingPath.length > 0 ? place.headingPath.join(' > ') : place.heading;
  return `${path} — ${locatorText(place)}`;
}

/**
 * A quote as a reader reads it: the markdown rendered as plain text (entities decoded, link
 * targets and emphasis markers dropped, code spans and values kept: plain-text.ts), between
 * double quotes. The answer JSON keeps the quote verbatim.
 */
function quoted(text: string): string {
  return `"${plainText(text)}"`;
}
