import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { nextAction } from './planner.ts';
import { commandPointers } from './pointers.ts';
import { analyzeQuestion } from '../../text/question.ts';

type Result = { chunk_id: string; doc_id: string; heading: string; text: string };
type Search = { input: Record<string, unknown>; results: Result[] };

const question = 'Using the official container image, how do I make it process 10 jobs at the same time?';

/** A prompt as the loop sends it: the question, then each search with its results (full texts). */
function promptOf(searches: Search[]): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'Search with search_docs (at most 6 searches).' },
    { role: 'user', content: [{ type: 'text', text: question }] },
  ];
  searches.forEach((search, index) => {
    const toolCallId = `call-${index}`;
    const value = { results: search.results.map((result) => ({ applies_to: 'all', score: 10, ...result })) };
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'search_docs', input: search.input }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId, toolName: 'search_docs', output: { type: 'json', value } }] },
    );
  });
  return prompt;
}

const docker: Result = {
  chunk_id: 'docker#0',
  doc_id: 'docker',
  heading: 'Using the official Docker image',
  text: [
    'When using the Docker image you can pass any supported options to the command line. For the current list of',
    'supported command line options you can run:',
    '',
    '`docker run --init --rm -it graphile/worker --help`',
    '',
    'Adding tasks is done by mounting the `tasks` directory.',
  ].join('\n'),
};
const other: Result = { chunk_id: 'config#0', doc_id: 'config', heading: 'Configuration', text: 'Set the concurrency in the config file.' };
const twoPages = (first: Result[]): Search[] => [
  { input: { query: question }, results: first },
  { input: { query: question, page: 2 }, results: [other] },
];

describe('command pointers', () => {
  it('searches the command a top passage points to for a list, verbatim, as the last search', () => {
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(twoPages([docker])));
    expect(commandPointers(new EvidenceView(analysis, conversation, undefined), conversation)).toEqual(['docker run --init --rm -it graphile/worker --help']);
    expect(nextAction(analysis, conversation, 'required')).toEqual({ type: 'search', query: 'docker run --init --rm -it graphile/worker --help' });
  });

  it('takes the command written inside the deferring sentence too', () => {
    const inline: Result = { ...docker, text: 'The full list of flags is printed by `orbit worker --help` on your installed version.' };
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(twoPages([inline])));
    expect(commandPointers(new EvidenceView(analysis, conversation, undefined), conversation)).toEqual(['orbit worker --help']);
  });

  it('leaves out pointers written as links, code that is no command, passages ranked past maxRank and commands already searched', () => {
    const analysis = analyzeQuestion(question);
    const linked: Result = { ...docker, text: 'The full list of options is in [the CLI reference](cli.md): `worker --help`.' };
    const notCommand: Result = { ...docker, text: 'For the list of queues you can read:\n\n`graphile_worker.queues`' };
    for (const result of [linked, notCommand]) {
      const conversation = readConversation(promptOf(twoPages([result])));
      expect(commandPointers(new EvidenceView(analysis, conversation, undefined), conversation)).toEqual([]);
    }
    const ranked = readConversation(promptOf(twoPages([other, docker])));
    expect(commandPointers(new EvidenceView(analysis, ranked, undefined), ranked, { maxRank: 1 })).toEqual([]);
    const searched = readConversation(promptOf([...twoPages([docker]), { input: { query: 'docker run --init --rm -it graphile/worker --help' }, results: [] }]));
    expect(commandPointers(new EvidenceView(analysis, searched, undefined), searched)).toEqual([]);
  });

  it('goes to the question\'s next page when no passage points to a command', () => {
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(twoPages([other])));
    expect(nextAction(analysis, conversation, 'required')).toEqual({ type: 'search', query: question, page: 3 });
  });
});
