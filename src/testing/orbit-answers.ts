// Scripted runs over the Orbit docs (createOrbitIndex) whose answers the shells render: an answer
// whose sentences carry [n] markers, and an abstention that shows the closest passages. The
// quotes and sentences are verbatim, so the run verifies them as it would a model's.
import type { ClosestPassage } from '../agent/trust/answer.ts';
import type { ScriptedTurn } from './scripted-model.ts';

/** The question both scripts answer. */
export const PAYLOAD_QUESTION = 'What happens when a flow step returns a large result?';

/** Quote 1 of {@link markedAnswerTurns}, from api-results#3. */
export const RESULTS_QUOTE = 'A step that returns a large value directly fails with `ORB-1202 PayloadTooLarge` after it has done all its work.';
/** Quote 2 of {@link markedAnswerTurns}, from error-codes#4. */
export const PAYLOAD_QUOTE = "The job's arguments or a flow step's result are larger than the payload limit.";

/** The answer text of {@link markedAnswerTurns}: two sentences, each followed by its citation's marker. */
export const MARKED_ANSWER_TEXT = 'The step fails with ORB-1202 PayloadTooLarge after it has done its work. [1] The result is larger than the payload limit. [2]';

/**
 * A search, two reads and an answer whose sentences end in `[1]` and `[2]`, citing api-results#3
 * then error-codes#4.
 *
 * @example
 * const run = await agenticRun(PAYLOAD_QUESTION, { model: createScriptedModel(markedAnswerTurns()), index: await createOrbitIndex() });
 */
export function markedAnswerTurns(): ScriptedTurn[] {
  return [
    { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202 PayloadTooLarge' } }] },
    { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'api-results#3' } }, { toolName: 'read_section', input: { chunk_id: 'error-codes#4' } }] },
    {
      answer: {
        text: MARKED_ANSWER_TEXT,
        citations: [
          { doc_id: 'api-results', quote: RESULTS_QUOTE },
          { doc_id: 'error-codes', quote: PAYLOAD_QUOTE },
        ],
      },
    },
  ];
}

/**
 * A search, a read and an abstention ("no direct answer") naming the closest passage,
 * error-codes#4, with two of its sentences.
 *
 * @example
 * const run = await agenticRun(PAYLOAD_QUESTION, { model: createScriptedModel(closestAnswerTurns()), index });
 * run.answer.closest; // CLOSEST_PASSAGES
 */
export function closestAnswerTurns(): ScriptedTurn[] {
  return [
    { toolCalls: [{ toolName: 'search_docs', input: { query: 'ORB-1202 PayloadTooLarge' } }] },
    { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'error-codes#4' } }] },
    {
      text: JSON.stringify({
        text: '',
        citations: [],
        abstained: true,
        abstain_reason: 'no direct answer',
        closest: [{ doc_id: 'error-codes', sentences: [PAYLOAD_QUOTE, 'For arguments,\n`enqueue` raises it at once.'] }],
      }),
    },
  ];
}

/**
 * {@link closestAnswerTurns} with an abstention that names no closest passages, and a closest model
 * (`AskOptions.closestModel`) that names those {@link closestAnswerTurns} names: a run of the two
 * shows {@link CLOSEST_PASSAGES}.
 */
export function bareAbstentionTurns(): { turns: ScriptedTurn[]; closest: ScriptedTurn[] } {
  const [search, read, closest] = closestAnswerTurns();
  return { turns: [search!, read!, { text: JSON.stringify({ text: '', citations: [], abstained: true }) }], closest: [closest!] };
}

/** `answer.closest` of a run of {@link closestAnswerTurns}. */
export const CLOSEST_PASSAGES: ClosestPassage[] = [
  {
    chunkId: 'error-codes#4',
    docId: 'error-codes',
    heading: 'ORB-1202 PayloadTooLarge',
    headingPath: ['Error codes', '12xx Payloads and results', 'ORB-1202 PayloadTooLarge'],
    sourcePath: 'error-codes.md',
    startLine: 90,
    endLine: 91,
    sentences: [PAYLOAD_QUOTE, 'For arguments,\n`enqueue` raises it at once.'],
  },
];
