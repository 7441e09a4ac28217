// Earlier turns of a conversation, as a run is given them (conversations, chat completions, `atlas chat`).
import type { Citation } from './answer.ts';

/**
 * One earlier turn: what was asked and what Atlas answered, with the answer's verified citations.
 * A run given earlier turns shows them to the model before the new question, and its searches
 * may use their words (a follow-up like "and how do I roll that back?" names nothing itself).
 *
 * @example
 * const turn: ConversationTurn = { question: 'How do I deploy 3.x?', answer: 'Run orbit deploy ...', citations: run.answer.citations };
 */
export interface ConversationTurn {
  question: string;
  answer: string;
  citations: Citation[];
}
