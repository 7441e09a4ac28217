import type { IndexBackend } from '../index/types.ts';
import { checkModelLabels } from './policy/model-labels.ts';
import { policySearchCount, startPolicy } from './policy/policy-run.ts';
import { buildSystemPrompt } from './prompt.ts';
import { RunRecorder } from './run-state.ts';
import { type AgentRun, type AskOptions } from './run-types.ts';
import { SearchSession } from './session/search-session.ts';

export interface ClassicAskOptions extends AskOptions {
  index: IndexBackend;
  /** Passages retrieved once (default 5). */
  k?: number;
}

/**
 * The one-pass baseline: one retrieval of k passages (full section text), one model call with
 * tool choice "none", then the same Answer type and the same citation check as `agenticRun`.
 * The retrieval is shown to the model as a search_docs call and its result, so any model
 * (the offline planner included) reads it the same way.
 *
 * @example
 * const run = await classicAsk('What does ORB-1202 mean?', { model, index, k: 5 });
 */
export async function classicAsk(question: string, options: ClassicAskOptions): Promise<AgentRun> {
  const k = options.k ?? 5;
  // The one retrieval is the question itself: the model makes no search, so model labels change nothing here, but a bad one fails as on every route.
  checkModelLabels(options.modelLabels);
  // A policy's required searches come on top of the one retrieval.
  const session = new SearchSession({
    index: options.index,
    filter: options.filter,
    principal: options.principal,
    maxSearches: 1 + policySearchCount(options.policy),
    k,
    ...(options.memory ? { memory: options.memory } : {}),
  });
  const recorder = new RunRecorder(options, buildSystemPrompt({ maxSearches: 1, filter: options.filter, history: (options.history?.length ?? 0) > 0 }), question, undefined, undefined, 'classic');
  try {
    return await classicPass(question, session, recorder);
  } catch (error) {
    recorder.spans.fail(error);
    throw error;
  }
}

/** The policy retrievals, the one retrieval shown as a search_docs call, and the one answer call. */
async function classicPass(question: string, session: SearchSession, recorder: RunRecorder): Promise<AgentRun> {
  const { options } = recorder;
  const started = recorder.startedAt;
  recorder.emit({ type: 'run-start', question });
  const review = await startPolicy(options, question, session, recorder);
  recorder.emit({ type: 'search-start', query: question });
  const toolCallId = 'classic-retrieval';
  const outcome = await recorder.spans.tool('search_docs', session, () => session.searchDocs({ query: question }, { fullText: true }), toolCallId);
  const step = session.steps.at(-1);
  if (step) recorder.emit({ type: 'search-end', step });
  recorder.messages.push(
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'search_docs', input: { query: question } }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId,
          toolName: 'search_docs',
          output: outcome.ok ? { type: 'json', value: outcome.value } : { type: 'error-text', value: outcome.error },
        },
      ],
    },
  );
  const answerOutcome = await recorder.call('none');
  const draft = await recorder.answerFrom(answerOutcome);
  return await recorder.finish(question, session, draft, recorder.failure ?? 'model-done', started, review);
}
