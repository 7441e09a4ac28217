import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { coverage, extractAnswer } from './extract-answer.ts';
import { analyzeQuestion } from '../../text/question.ts';

type Result = { chunk_id: string; doc_id: string; heading: string; snippet: string };

/** The prompt of a run that searched the question once and was shown `results`. */
function promptOf(question: string, results: Result[]): LanguageModelV3Prompt {
  return [
    { role: 'user', content: [{ type: 'text', text: question }] },
    { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-0', toolName: 'search_docs', input: { query: question } }] },
    {
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call-0',
          toolName: 'search_docs',
          output: { type: 'json', value: { results: results.map((result) => ({ applies_to: 'all', score: 10, ...result })) } },
        },
      ],
    },
  ];
}

function measure(question: string, results: Result[]) {
  const analysis = analyzeQuestion(question);
  const conversation = readConversation(promptOf(question, results));
  return { coverage: coverage(analysis, new EvidenceView(analysis, conversation, undefined)), answer: extractAnswer(analysis, conversation) };
}

const vacuum: Result = {
  chunk_id: 'scaling#4',
  doc_id: 'scaling',
  heading: 'Keep your jobs table small',
  snippet: 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.\n\nTODO: which `VACUUM` options should we recommend? Any other tables to VACUUM?',
};

describe('extractAnswer abstains when a placeholder note asks the question', () => {
  it('abstains when a TODO note holds more than 40% of the question, although the documentation holds all its terms', () => {
    const { coverage: measured, answer } = measure('Which VACUUM options are recommended for the jobs table?', [vacuum]);
    // vacuum (a name, weight 3), option, recommend, tabl of vacuum 3 + option, recommend, job, tabl: 6 of 7.
    expect(measured).toEqual({ missingAnchorShare: 0, total: 1, bestPassage: 1, placeholderMatch: 6 / 7, focusShare: 1 });
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });

  it('answers from the documentation when the note is about something else', () => {
    const { coverage: measured, answer } = measure('How often should the jobs table get a VACUUM?', [
      { ...vacuum, snippet: 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.\n\nTODO: document the cron presets.' },
    ]);
    expect(measured.placeholderMatch).toBe(0);
    expect(answer.abstained).toBe(false);
    expect(answer.citations).toEqual([{ doc_id: 'scaling', quote: 'The jobs table has extremely high churn; give it a nice `VACUUM` from time to time.' }]);
  });

  it('counts a name written only in the hard-wrapped line of a TODO note as absent', () => {
    const perf: Result = {
      chunk_id: 'performance#9',
      doc_id: 'performance',
      heading: 'Performance',
      snippet: 'Jobs ran at 10,000 per second on a laptop.\n\nTODO: post results in a more reasonable configuration, e.g. using an\nRDS PostgreSQL server and workers running on EC2.',
    };
    const { coverage: measured } = measure('What throughput can I expect with workers on EC2?', [perf]);
    expect(measured.missingAnchorShare).toBe(1);
  });
});

describe('extractAnswer quotes', () => {
  it('quotes at most 7 sentences of one passage: the caveat at the end of a section still joins', () => {
    const steps = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'].map((word) => `The unlock call releases the ${word} worker lock.`);
    const { answer } = measure('When is it safe to unlock a worker lock?', [{ chunk_id: 'admin#4', doc_id: 'admin', heading: 'Unlocking', snippet: steps.join(' ') }]);
    expect(answer.citations).toEqual([{ doc_id: 'admin', quote: steps.slice(0, 7).join(' ... ') }]);
  });

  it('quotes the best sentence of another page that scores 35% of the best answer and holds two question terms', () => {
    const question = 'Which database server and JavaScript runtime versions does the current release need?';
    const { answer } = measure(question, [
      { chunk_id: 'index#5', doc_id: 'index', heading: 'Features', snippet: 'Designed to be used both from JavaScript or directly in the database server.' },
      { chunk_id: 'requirements#0', doc_id: 'requirements', heading: 'Requirements', snippet: 'Each release needs a database server: PostgreSQL 12+ and Node 22.18+.' },
    ]);
    expect(answer.citations).toEqual([
      { doc_id: 'index', quote: 'Designed to be used both from JavaScript or directly in the database server.' },
      { doc_id: 'requirements', quote: 'Each release needs a database server: PostgreSQL 12+ and Node 22.18+.' },
    ]);
  });
});

describe('extractAnswer abstains when no sentence names the thing a part asks about', () => {
  const backoff: Result = {
    chunk_id: 'exponential-backoff#0',
    doc_id: 'exponential-backoff',
    heading: 'Exponential backoff',
    snippet: 'A failed job is retried with exponential backoff. We use the formula exp(least(10, attempt)) to determine the delays between attempts.',
  };

  it('abstains when the words of "the retry delay" occur only in different sentences, although every question term is in the evidence', () => {
    const { coverage: measured, answer } = measure('Can I change the retry delay for one specific task?', [
      { ...backoff, snippet: `${backoff.snippet} Each task can change its payload for one specific run.` },
    ]);
    expect(measured).toEqual({ missingAnchorShare: 0, total: 1, bestPassage: 1, placeholderMatch: 0, focusShare: 0.5 });
    expect(answer).toEqual({ text: '', citations: [], abstained: true });
  });

  it('answers when one sentence names it', () => {
    const { coverage: measured, answer } = measure('Can I change the retry delay for one specific task?', [
      { ...backoff, snippet: 'Each task can set its own retry delay with the `backoff` option.' },
    ]);
    expect(measured.focusShare).toBe(1);
    expect(answer.abstained).toBe(false);
    expect(answer.citations).toEqual([{ doc_id: 'exponential-backoff', quote: 'Each task can set its own retry delay with the `backoff` option.' }]);
  });
});
