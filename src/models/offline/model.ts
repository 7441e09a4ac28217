import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from '@ai-sdk/provider';
import type { ModelAnswer } from '../../agent/trust/answer.ts';
import { inProcessModel } from '../../agent/model-result.ts';
import { readConversation, type Conversation } from './conversation.ts';
import { DEFAULT_ABSTAIN_OPTIONS, draftAnswer, extractAnswer, type AbstainOptions } from './extract-answer.ts';
import { statesAnswer } from './directness.ts';
import { answerAnalysis, withEarlierTurns } from './follow-up.ts';
import { DEFAULT_PLANNER_OPTIONS, nextAction, type PlannerOptions } from './planner.ts';
import { analyzeQuestion, type QuestionAnalysis } from '../../text/question.ts';

/** Options of the offline planner model. */
export interface OfflineModelOptions {
  planner?: Partial<PlannerOptions>;
  abstain?: Partial<AbstainOptions>;
}

const DIRECT_REPLY =
  'I answer questions about this documentation. Ask me about a feature, a setting or an error, and I will search the docs and cite them.';

/**
 * The offline planner: an AI SDK language model with no weights and no network. It reads the
 * conversation the loop sends (question, tool calls and results) and returns either tool calls
 * (searches built from what the evidence taught it, reads) or the final structured answer,
 * extracted verbatim from the evidence. Deterministic: same question and index, same run.
 *
 * @example
 * const run = await agenticRun('Which error does a too-big step result raise?', { model: createOfflineModel(), index });
 */
export function createOfflineModel(options: OfflineModelOptions = {}): LanguageModelV3 {
  const planner = { ...DEFAULT_PLANNER_OPTIONS, ...options.planner };
  const abstain = { ...DEFAULT_ABSTAIN_OPTIONS, ...options.abstain };
  return inProcessModel({ provider: 'atlas', modelId: 'offline' }, (call) => respond(call, planner, abstain));
}

function respond(call: LanguageModelV3CallOptions, planner: PlannerOptions, abstain: AbstainOptions): LanguageModelV3Content[] {
  const conversation = readConversation(call.prompt);
  const analysis = analyzeQuestion(conversation.question);
  const toolChoice = call.toolChoice?.type === 'none' || !call.tools?.length ? 'none' : call.toolChoice?.type === 'auto' ? 'auto' : 'required';
  // A follow-up searches with the earlier turn's terms (follow-up.ts); the answer is for the question as asked, on that topic.
  const searched = withEarlierTurns(analysis, conversation);
  const planned = nextAction(searched, conversation, toolChoice, planner);
  // Another search after reading is for what is still missing: none is, once the passages read
  // state the answer. A follow-up borrows its topic from the earlier turn, so it reads on.
  const stop = planned.type === 'search' && planner.stopWhenStated && conversation.searches.length > 0 && conversation.earlierQuestions.length === 0;
  const action = stop && statesAnswerNow(analysis, searched, conversation, abstain) ? { type: 'answer' as const } : planned;
  const callNumber = conversation.searches.length + conversation.readChunkIds.length + 1;
  switch (action.type) {
    case 'search':
      return [toolCall(`offline-${callNumber}`, 'search_docs', { query: action.query, ...(action.version ? { version: action.version } : {}), ...(action.page ? { page: action.page } : {}) })];
    case 'read':
      return action.chunkIds.map((chunkId, index) => {
        const offset = action.offsets?.[index];
        return toolCall(`offline-${callNumber + index}`, 'read_section', { chunk_id: chunkId, ...(offset === undefined ? {} : { offset }) });
      });
    case 'direct':
      return [answerText({ text: DIRECT_REPLY, citations: [], abstained: false })];
    case 'answer':
      return [answerText(extractAnswer(answerAnalysis(analysis, searched), conversation, abstain))];
  }
}

function statesAnswerNow(analysis: QuestionAnalysis, searched: QuestionAnalysis, conversation: Conversation, abstain: AbstainOptions): boolean {
  const draft = draftAnswer(answerAnalysis(analysis, searched), conversation, abstain);
  return draft?.answer !== undefined && statesAnswer(draft.features, abstain.directness);
}

function toolCall(toolCallId: string, toolName: string, input: object): LanguageModelV3Content {
  return { type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) };
}

function answerText(answer: ModelAnswer): LanguageModelV3Content {
  return { type: 'text', text: JSON.stringify(answer) };
}
