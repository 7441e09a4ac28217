import { z } from 'zod';

/** A web citation that survived the check: a URL the provider returned in this run, inside the allow-list. */
export interface WebCitation {
  url: string;
  /** The page title the provider gave, when it gave one. */
  title?: string;
  /** The model's quote of the page. Not checked against the page: the providers return no page text (docs/web-search.md). */
  quote?: string;
}

/** The answer schema the model fills (snake_case, as sent to providers). */
export const modelAnswerSchema = z.object({
  text: z.string().describe('The answer, in a few sentences. Empty when abstaining.'),
  citations: z
    .array(
      z.object({
        doc_id: z.string().describe('doc_id of a passage you were shown'),
        quote: z.string().describe('Verbatim text of that passage supporting the answer: a sentence, a list item, a table row or one cell'),
      }),
    )
    .describe('Verbatim quotes from the passages; each is checked against the text you were shown.'),
  abstained: z.boolean().describe('true when the passages answer no part of the question (answer the parts they cover otherwise)'),
});

/**
 * What a model may add to its answer object beyond {@link modelAnswerSchema}, read from its reply
 * but never asked of providers (the schema they are sent stays as it is): when it abstains, the
 * passages that come closest, each as the doc id and 1-2 sentences quoted verbatim, and why it
 * abstained. The offline planner sends them ("no direct answer"); the loop verifies each sentence
 * against the passages the run saw, as it verifies citations.
 */
export const answerExtrasSchema = z.object({
  closest: z
    .array(z.object({ doc_id: z.string(), sentences: z.array(z.string()).min(1).max(2) }))
    .max(3)
    .optional(),
  abstain_reason: z.string().max(200).optional(),
});

export type ModelAnswer = z.infer<typeof modelAnswerSchema> & z.infer<typeof answerExtrasSchema>;

/** A citation that survived verification, located in its source. */
export interface Citation {
  docId: string;
  quote: string;
  chunkId: string;
  /** The heading of the part of the chunk the quote is in (see {@link Citation.headingPath}). */
  heading: string;
  /**
   * The headings from the title down to the part of the chunk the quote is in: the chunk's own
   * (`Chunk.headingPath`, e.g. `['Configuration', 'worker options']`), or, for a quote under a
   * heading line of the chunk's text (a subsection held in its section), that heading's path.
   */
  headingPath: string[];
  sourcePath: string;
  startLine: number;
  endLine: number;
  /**
   * Set when the quote is no longer in the index as it is now (checked when the answer is made:
   * the page was changed or removed since the passage was read, e.g. by `atlas ingest --watch`);
   * the citation is then not verified, and no claim counts it as support. Absent on a current quote.
   */
  stale?: { reason: string };
}

/**
 * A passage that comes closest to answering a question the run abstained on: where it is, and
 * the 1-2 sentences of it that match best, verbatim (each verified against the passage).
 */
export interface ClosestPassage {
  chunkId: string;
  docId: string;
  heading: string;
  headingPath: string[];
  sourcePath: string;
  startLine: number;
  endLine: number;
  sentences: string[];
}

/** A citation the check refused, with the reason (kept in the trace). */
export interface DroppedCitation {
  docId: string;
  quote: string;
  reason: string;
  /** Set on a dropped web citation (then `docId` is the URL too), see docs/web-search.md. */
  url?: string;
}

/**
 * One claim of an answer (a sentence or clause of its text, see agent/trust/claims.ts) and whether a
 * verified quote backs it.
 *
 * @example
 * const claim: Claim = { text: 'Leases last 45 minutes;', supported: false, score: 0.25, citations: [0] };
 */
export interface Claim {
  /** Exact substring of the answer text. */
  text: string;
  /** Scored at least the threshold, with every identifier and number of it in a verified quote. */
  supported: boolean;
  /** Lexical support score in [0, 1] (`claimSupport`). */
  score: number;
  /** Indexes into `Answer.citations` of the quotes that back it. */
  citations: number[];
}

/** The structured result of a run. */
export interface Answer {
  text: string;
  citations: Citation[];
  abstained: boolean;
  /** Verified web citations, on runs given the web (`web` option, docs/web-search.md); absent otherwise. */
  webCitations?: WebCitation[];
  /**
   * The claims of the text with their support (agent/trust/claims.ts). Every answer a run returns
   * carries them (`agenticRun`, `classicAsk`, `routedAsk`, conversation turns), except an
   * abstention, which claims nothing (`abstention()` as it is); optional also so that answers
   * built by hand (tests, adapters) need not compute them.
   */
  claims?: Claim[];
  /**
   * On an abstention that found passages close to the question but no sentence stating the
   * answer ("no direct answer"): up to 3 of them, best first. Absent otherwise.
   */
  closest?: ClosestPassage[];
}

/** The fixed text of an abstention. */
export const ABSTAIN_TEXT = "I couldn't find this in the docs.";

/** The text of an abstention that shows the closest passages instead ({@link Answer.closest}). */
export const NO_DIRECT_ANSWER_TEXT = "I couldn't find a direct answer in the docs.";

/** The abstain reason of an answer that shows the closest passages. */
export const NO_DIRECT_ANSWER = 'no direct answer';

/** An abstaining answer. */
export function abstention(): Answer {
  return { text: ABSTAIN_TEXT, citations: [], abstained: true };
}
