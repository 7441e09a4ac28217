import { describe, expect, it } from 'vitest';
import { createMemoryIndex, makeDoc } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import type { Citation } from './trust/answer.ts';
import { classicAsk } from './classic.ts';
import { EARLIER_ANSWER_OPENING, historyMessages, type ConversationTurn } from './history.ts';
import { HISTORY_LINE } from './prompt.ts';
import { routedAsk } from './policy/route.ts';
import { agenticRun } from './run.ts';
import { SearchMemory } from './session/search-memory.ts';

const docs = [
  makeDoc('deploy', 'all', [
    ['Deploying', 'Run orbit deploy with the release tag to ship a release.'],
    ['Rolling back', 'Run orbit rollback to return to the previous release tag.'],
  ]),
  makeDoc('leases', 'all', [['Leases', 'A worker holds a job for the lease seconds.']]),
];

const citation: Citation = {
  docId: 'deploy',
  chunkId: 'deploy#0',
  quote: 'Run orbit deploy with the release tag to ship a release.',
  heading: 'Deploying',
  headingPath: ['Deploying'],
  sourcePath: 'deploy.md',
  startLine: 1,
  endLine: 1,
};
const earlier: ConversationTurn = { question: 'How do I deploy?', answer: 'Run orbit deploy with the release tag.', citations: [citation] };
const earlierAnswerText = [
  EARLIER_ANSWER_OPENING,
  'Run orbit deploy with the release tag.',
  'Citations:',
  '[1] doc_id deploy, chunk_id deploy#0 (Deploying): "Run orbit deploy with the release tag to ship a release."',
].join('\n');

const turn = (question: string, answer: string): ConversationTurn => ({ question, answer, citations: [] });

describe('history: runs that see earlier turns', () => {
  it('shows the earlier turns to the model as user and assistant messages before the question, and says so in the system prompt', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'orbit rollback' } }] },
      { answer: { text: 'Run orbit rollback.', citations: [{ doc_id: 'deploy', quote: 'Run orbit rollback to return to the previous release tag.' }] } },
    ]);
    const run = await agenticRun('and how do I roll that back?', { model, index: createMemoryIndex(docs), history: [earlier], weakScore: 0 });
    const [system, ...messages] = model.requests[0]!.prompt;
    expect(system?.role).toBe('system');
    expect(system?.role === 'system' ? system.content.split('\n') : []).toContain(HISTORY_LINE);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'How do I deploy?' }] },
      { role: 'assistant', content: [{ type: 'text', text: earlierAnswerText }] },
      { role: 'user', content: [{ type: 'text', text: 'and how do I roll that back?' }] },
    ]);
    expect(run.trace.history).toEqual({ given: 1, shown: 1, dropped: 0, tokens: 68, cut: false });
    expect(run.answer.citations.map((kept) => kept.chunkId)).toEqual(['deploy#1']);
  });

  it('gives classicAsk the same earlier turns', async () => {
    const model = createScriptedModel([{ answer: { text: 'Run orbit rollback.', citations: [{ doc_id: 'deploy', quote: 'Run orbit rollback to return to the previous release tag.' }] } }]);
    await classicAsk('and how do I roll that back?', { model, index: createMemoryIndex(docs), history: [earlier] });
    expect(model.requests[0]!.prompt.slice(1, 3).map((message) => message.role)).toEqual(['user', 'assistant']);
  });

  it('runs without history exactly as before: no history messages, no system line, no trace entry', async () => {
    const model = createScriptedModel([{ answer: { text: 'x', citations: [] } }]);
    const run = await classicAsk('How do I deploy?', { model, index: createMemoryIndex(docs) });
    expect(model.requests[0]!.prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(JSON.stringify(model.requests[0]!.prompt[0])).not.toContain('Earlier turns');
    expect(run.trace.history).toBeUndefined();
  });

  it('keeps the last 6 turns by default, dropping the oldest first', () => {
    const turns = Array.from({ length: 8 }, (_, index) => turn(`question ${index + 1}?`, `answer ${index + 1}`));
    const { messages, trace } = historyMessages(turns);
    expect(trace).toMatchObject({ given: 8, shown: 6, dropped: 2, cut: false });
    expect(messages[0]).toEqual({ role: 'user', content: 'question 3?' });
    expect(messages.at(-2)).toEqual({ role: 'user', content: 'question 8?' });
  });

  it('drops the oldest turns past the token bound, and cuts the answer of a last turn that alone is too long', () => {
    const long = 'word '.repeat(400); // 2000 characters: about 500 tokens
    const turns = [turn('first?', long), turn('second?', long), turn('third?', long)];
    expect(historyMessages(turns, { maxTokens: 1200 }).trace).toMatchObject({ given: 3, shown: 2, dropped: 1, cut: false });
    const cut = historyMessages(turns, { maxTokens: 100 });
    expect(cut.trace).toEqual({ given: 3, shown: 1, dropped: 2, tokens: 100, cut: true });
    expect(String(cut.messages[1]?.content).endsWith(' … (cut)')).toBe(true);
  });

  it('refuses a bound that is not a positive whole number', () => {
    expect(() => historyMessages([earlier], { maxTurns: 0 })).toThrow('Atlas: history maxTurns must be a positive whole number, got 0. Pass e.g. maxTurns: 6.');
  });
});

describe('SearchMemory: one search session per conversation', () => {
  const search = (query: string) => ({ toolCalls: [{ toolName: 'search_docs', input: { query } }] });

  it('skips passages earlier turns were shown, lets this turn cite them, and gives every turn its own budget', async () => {
    const index = createMemoryIndex(docs);
    const memory = new SearchMemory();
    const first = createScriptedModel([
      search('orbit deploy release'),
      { answer: { text: 'Deploy.', citations: [{ doc_id: 'deploy', quote: 'Run orbit deploy with the release tag to ship a release.' }] } },
    ]);
    const one = await agenticRun('How do I deploy?', { model: first, index, memory, maxSearches: 1, weakScore: 0 });
    expect(one.trace.steps.map((step) => step.chunkIds)).toEqual([['deploy#0', 'deploy#1']]);
    expect(memory.passages().map((passage) => passage.chunkId)).toEqual(['deploy#0', 'deploy#1']);

    const second = createScriptedModel([
      search('orbit release tag'),
      // Cites a passage only the first turn was shown: it verifies against the conversation's evidence.
      { answer: { text: 'Rollback.', citations: [{ doc_id: 'deploy', quote: 'Run orbit rollback to return to the previous release tag.' }] } },
    ]);
    const two = await agenticRun('and the rollback?', { model: second, index, memory, maxSearches: 1, weakScore: 0, history: [earlier] });
    // A fresh budget of 1 (the first turn used its own): the search runs, its seen passages skipped, then the answer is forced.
    expect(two.trace.steps.map((step) => [step.chunkIds, step.skippedSeen, step.note])).toEqual([[[], 2, 'no-new-results']]);
    expect(two.trace.toolChoices).toEqual(['required', 'none']);
    expect(two.answer.citations.map((kept) => kept.chunkId)).toEqual(['deploy#1']);
    expect(two.trace.evidence).toEqual([]);
    // The skipped passages are named (not shown), with their rank in this query's ranking, so the model can re-read one.
    const result = second.requests[1]!.prompt.flatMap((message) => (message.role === 'tool' ? message.content : []))[0];
    expect(result?.type === 'tool-result' ? result.output : undefined).toEqual({
      type: 'json',
      value: {
        results: [],
        note: '2 already-seen passages skipped; no new passages: search for something else or answer',
        shown_earlier: [
          { chunk_id: 'deploy#0', doc_id: 'deploy', heading_path: 'Deploying', rank: 0 },
          { chunk_id: 'deploy#1', doc_id: 'deploy', heading_path: 'Deploying > Rolling back', rank: 1 },
        ],
      },
    });
  });

  it('refuses duplicate queries only within a turn: the same query in a later turn runs and shows the next unseen passages', async () => {
    const index = createMemoryIndex(docs);
    const memory = new SearchMemory();
    const answer = { answer: { text: 'x', citations: [] } };
    await agenticRun('q', { model: createScriptedModel([search('release lease'), answer]), index, memory, maxSearches: 3, weakScore: 0, stopWhen: [] });
    const again = await agenticRun('q', { model: createScriptedModel([search('release lease'), search('release lease'), answer]), index, memory, maxSearches: 3, weakScore: 0, stopWhen: [] });
    expect(again.trace.steps.map((step) => step.note)).toEqual(['no-new-results', 'duplicate-query']);
  });

  it('a memory never leaks into a run not given it', async () => {
    const index = createMemoryIndex(docs);
    const memory = new SearchMemory();
    const answer = { answer: { text: 'x', citations: [] } };
    await agenticRun('q', { model: createScriptedModel([search('orbit deploy'), answer]), index, memory, weakScore: 0 });
    const fresh = await agenticRun('q', { model: createScriptedModel([search('orbit deploy'), answer]), index, weakScore: 0 });
    expect(fresh.trace.steps[0]?.skippedSeen).toBe(0);
  });

  it('route auto remembers the passages of the arm whose answer is returned', async () => {
    const index = createMemoryIndex(docs);
    const kept = new SearchMemory();
    const deployQuote = { doc_id: 'deploy', quote: 'Run orbit deploy with the release tag to ship a release.' };
    const classic = await routedAsk('How do I deploy a release?', { model: createScriptedModel([{ answer: { text: 'Deploy.', citations: [deployQuote] } }]), index, memory: kept, route: 'auto', classicK: 2, weakScore: 0 });
    expect(classic.route).toBe('classic');
    expect(kept.passages().map((passage) => passage.chunkId)).toEqual(['deploy#0', 'leases#0']);

    const escalated = new SearchMemory();
    const model = createScriptedModel([
      { answer: { text: '', citations: [], abstained: true } },
      search('worker lease seconds'),
      { answer: { text: 'Lease.', citations: [{ doc_id: 'leases', quote: 'A worker holds a job for the lease seconds.' }] } },
    ]);
    const run = await routedAsk('How long is the lease?', { model, index, memory: escalated, route: 'auto', classicK: 2, weakScore: 0, maxSearches: 1 });
    expect(run.route).toBe('agentic');
    // The set-aside classic pass was shown two passages; only the agent's one is remembered.
    expect(run.escalatedFrom?.trace.evidence.length).toBe(2);
    expect(escalated.passages().map((passage) => passage.chunkId)).toEqual(['leases#0']);
  });
});
