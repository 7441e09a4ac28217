import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { linksToFollow, markdownLinks } from './link-follow.ts';
import { nextAction } from './planner.ts';
import { analyzeQuestion } from '../../text/question.ts';

type Result = { chunk_id: string; doc_id: string; heading: string; text: string; links?: Record<string, string | null> };
type Call = { tool: 'search_docs'; input: Record<string, unknown>; results: Result[] } | { tool: 'read_section'; input: { chunk_id: string }; error?: string; result?: Result };

const question = 'How can I detect that my workers are overwhelmed so I can scale up?';

/** A prompt as the loop sends it: the question, then each tool call with its result (full texts, so nothing is left to read). */
function promptOf(calls: Call[], earlierQuestions: string[] = []): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'Search with search_docs (at most 6 searches).' },
    ...earlierQuestions.flatMap((earlier): LanguageModelV3Prompt => [
      { role: 'user', content: [{ type: 'text', text: earlier }] },
      { role: 'assistant', content: [{ type: 'text', text: 'The docs say so.' }] },
    ]),
    { role: 'user', content: [{ type: 'text', text: question }] },
  ];
  calls.forEach((call, index) => {
    const toolCallId = `call-${index}`;
    const output =
      call.tool === 'search_docs'
        ? { type: 'json' as const, value: { results: call.results.map((result) => ({ applies_to: 'all', score: 10, ...result })) } }
        : call.error !== undefined
          ? { type: 'error-text' as const, value: call.error }
          : { type: 'json' as const, value: { applies_to: 'all', ...call.result } };
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: call.tool, input: call.input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: call.tool, output }] },
    );
  });
  return prompt;
}

const scaling: Result = {
  chunk_id: 'techniques#5',
  doc_id: 'techniques',
  heading: 'Worker events',
  text: 'Use [the events system](/docs/worker-events) to detect when your workers are overwhelmed, and scale up as necessary.',
};
const aside: Result = { chunk_id: 'faq#2', doc_id: 'faq', heading: 'Support', text: 'Questions go to [the forum](./support.md).' };
const pages = (first: Result[], second: Result[]): Call[] => [
  { tool: 'search_docs', input: { query: question }, results: first },
  { tool: 'search_docs', input: { query: question, page: 2 }, results: second },
];

describe('link following', () => {
  it('reads the first section of the page a relevant sentence links to, before the last search, every candidate id in one turn', () => {
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(pages([scaling], [aside])));
    const candidates = ['docs-worker-events', 'worker-events', 'docs-worker-events-index', 'worker-events-index', 'docs-worker-events-readme', 'worker-events-readme'];
    expect(nextAction(analysis, conversation, 'auto')).toEqual({ type: 'read', chunkIds: candidates.map((docId) => `${docId}#0`) });
    const view = new EvidenceView(analysis, conversation, undefined);
    expect(linksToFollow(view, conversation, { limit: 3, minScore: 2 })).toEqual([
      { text: 'the events system', href: '/docs/worker-events', docIds: candidates, chunkIds: candidates.map((docId) => `${docId}#0`), score: 4, chunkId: 'techniques#5' },
    ]);
  });

  it('reads the pages of the three best links in one turn, and no fourth', () => {
    const queues: Result = { chunk_id: 'techniques#6', doc_id: 'techniques', heading: 'Queues', text: 'Workers that are overwhelmed can be split by [queue](./queues.md).' };
    const pools: Result = { chunk_id: 'glossary#2', doc_id: 'glossary', heading: 'Pools', text: 'Read about [pools](./pools.md) for workers.' };
    const lanes: Result = { chunk_id: 'glossary#3', doc_id: 'glossary', heading: 'Lanes', text: 'Read about [lanes](./lanes.md) for workers.' };
    const conversation = readConversation(promptOf(pages([scaling, queues], [pools, lanes])));
    const view = new EvidenceView(analyzeQuestion(question), conversation, undefined);
    expect(linksToFollow(view, conversation, { limit: 4, minScore: 1 }).map((link) => [link.href, link.score])).toEqual([
      ['/docs/worker-events', 4],
      ['./queues.md', 2],
      ['./pools.md', 1],
      ['./lanes.md', 1],
    ]);
    expect(nextAction(analyzeQuestion(question), conversation, 'auto')).toEqual({
      type: 'read',
      chunkIds: [
        ...['docs-worker-events', 'worker-events', 'docs-worker-events-index', 'worker-events-index', 'docs-worker-events-readme', 'worker-events-readme'].map((docId) => `${docId}#0`),
        'queues#0',
        'pools#0',
      ],
    });
  });

  it('follows no link whose sentence holds too few question terms, nor one to a page already seen', () => {
    const analysis = analyzeQuestion(question);
    const pools: Result = { chunk_id: 'glossary#2', doc_id: 'glossary', heading: 'Pools', text: 'Read about [pools](/docs/pools) for workers.' };
    const one = readConversation(promptOf(pages([pools], [])));
    const oneView = new EvidenceView(analysis, one, undefined);
    expect(linksToFollow(oneView, one).map((link) => [link.href, link.score])).toEqual([['/docs/pools', 1]]);
    expect(linksToFollow(oneView, one, { limit: 1, minScore: 2 })).toEqual([]);
    const lonely = readConversation(promptOf(pages([aside], [])));
    expect(linksToFollow(new EvidenceView(analysis, lonely, undefined), lonely)).toEqual([]);
    const events: Result = { chunk_id: 'worker-events#0', doc_id: 'worker-events', heading: 'WorkerEvents', text: 'We support a large number of events via an EventEmitter.' };
    const seen = readConversation(promptOf(pages([scaling], [events])));
    expect(linksToFollow(new EvidenceView(analysis, seen, undefined), seen)).toEqual([]);
    expect(nextAction(analysis, seen, 'auto')).toEqual({ type: 'search', query: question, page: 3 });
  });

  it('reads only the section the session resolved a link to (the one its anchor names), and none for a link it says names no readable page', () => {
    const analysis = analyzeQuestion(question);
    const resolved: Result = { ...scaling, links: { '/docs/worker-events': 'worker-events#2' } };
    const conversation = readConversation(promptOf(pages([resolved], [aside])));
    expect(linksToFollow(new EvidenceView(analysis, conversation, undefined), conversation)).toEqual([
      { text: 'the events system', href: '/docs/worker-events', docIds: ['worker-events'], chunkIds: ['worker-events#2'], score: 4, chunkId: 'techniques#5' },
    ]);
    expect(nextAction(analysis, conversation, 'auto')).toEqual({ type: 'read', chunkIds: ['worker-events#2'] });
    const hidden = readConversation(promptOf(pages([{ ...scaling, links: { '/docs/worker-events': null } }], [aside])));
    expect(linksToFollow(new EvidenceView(analysis, hidden, undefined), hidden)).toEqual([]);
    expect(nextAction(analysis, hidden, 'auto')).toEqual({ type: 'search', query: question, page: 3 });
  });

  it('follows links once per run: after the read, even of ids the index lacks, the last search comes', () => {
    const calls: Call[] = [
      ...pages([scaling], [aside]),
      { tool: 'read_section', input: { chunk_id: 'docs-worker-events#0' }, error: 'chunk not found: docs-worker-events#0. Use a chunk_id returned by search_docs.' },
      { tool: 'read_section', input: { chunk_id: 'worker-events#0' }, error: 'chunk not found: worker-events#0. Use a chunk_id returned by search_docs.' },
    ];
    expect(nextAction(analyzeQuestion(question), readConversation(promptOf(calls)), 'auto')).toEqual({ type: 'search', query: question, page: 3 });
  });

  it('follows no link in a follow-up turn, whose earlier turns may have been shown the linked page', () => {
    const conversation = readConversation(promptOf(pages([scaling], [aside]), ['How do workers pick up jobs?']));
    expect(conversation.earlierQuestions).toEqual(['How do workers pick up jobs?']);
    expect(nextAction(analyzeQuestion(question), conversation, 'auto')).toEqual({ type: 'search', query: question, page: 3 });
  });

  it('finds internal markdown links, leaving images, external links and anchors out', () => {
    expect(markdownLinks('See [Leases](leases.md "the lease"), ![logo](logo.png), [site](https://x.dev), [above](#top) and [`addJob`](/docs/library/add-job).')).toEqual([
      { text: 'Leases', href: 'leases.md' },
      { text: 'addJob', href: '/docs/library/add-job' },
    ]);
  });
});
