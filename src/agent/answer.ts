import { z } from 'zod';
import type { WebCitation } from './web.ts';

/** The answer schema the model fills (snake_case, as sent to providers). */
export const modelAnswerSchema = z.object({
  text: z.string().describe('The answer, in a few sentences. Empty when abstaining.'),
  citations: z
    .array(
      z.object({
        doc_id: z.string().describe('doc_id of a passage you were shown'),
        quote: z.string().describe('A verbatim sentence from that passage supporting the answer'),
      }),
    )
    .describe('Verbatim quotes from the passages; each is checked against the text you were shown.'),
  abstained: z.boolean().describe('true when the passages do not answer the question'),
});

export type ModelAnswer = z.infer<typeof modelAnswerSchema>;

/** A citation that survived verification, located in its source. */
export interface Citation {
  docId: string;
  quote: string;
  chunkId: string;
  heading: string;
  /** The chunk's headings from the title down (`Chunk.headingPath`), e.g. `['Configuration', 'worker options']`. */
  headingPath: string[];
  sourcePath: string;
  startLine: number;
  endLine: number;
}

/** A citation the check refused, with the reason (kept in the trace). */
export interface DroppedCitation {
  docId: string;
  quote: string;
  reason: string;
  /** Set on a dropped web citation (then `docId` is the URL too), see docs/web-search.md. */
  url?: string;
}

/** The structured result of a run. */
export interface Answer {
  text: string;
  citations: Citation[];
  abstained: boolean;
  /** Verified web citations, on runs given the web (`web` option, docs/web-search.md); absent otherwise. */
  webCitations?: WebCitation[];
}

/** The fixed text of an abstention. */
export const ABSTAIN_TEXT = "I couldn't find this in the docs.";

/** An abstaining answer. */
export function abstention(): Answer {
  return { text: ABSTAIN_TEXT, citations: [], abstained: true };
}
