import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { answerType, coverage, extractAnswer } from './extract-answer.ts';
import { rankBridges } from './bridges.ts';
import { nextAction } from './planner.ts';
import { analyzeQuestion } from './question.ts';

type Result = { chunk_id: string; doc_id: string; heading: string; snippet: string; applies_to?: string };

/** A prompt as the loop sends it: the question, then one search per entry with its results. */
function promptOf(question: string, searches: Array<{ query: string; version?: string; results: Result[] }>): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [
    { role: 'system', content: 'Search with search_docs (at most 6 searches).' },
    { role: 'user', content: [{ type: 'text', text: question }] },
  ];
  searches.forEach((search, index) => {
    const toolCallId = `call-${index}`;
    const input = { query: search.query, ...(search.version ? { version: search.version } : {}) };
    prompt.push(
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId, toolName: 'search_docs', input }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId,
            toolName: 'search_docs',
            output: { type: 'json', value: { results: search.results.map((result) => ({ applies_to: 'all', score: 10, ...result })) } },
          },
        ],
      },
    );
  });
  return prompt;
}

const durant: Result = {
  chunk_id: 'kevin-durant#0',
  doc_id: 'kevin-durant',
  heading: 'Kevin Durant',
  snippet:
    'Kevin Durant is an American basketball player for the Golden State Warriors. He played nine seasons in Oklahoma City before signing with Golden State in 2016.',
};

describe('nextAction', () => {
  it('starts with the question itself, filtered to the release line it names', () => {
    const question = 'How do I set the lease in Orbit 3?';
    expect(nextAction(analyzeQuestion(question), readConversation(promptOf(question, [])), 'required')).toEqual({
      type: 'search',
      query: question,
      version: '3.x',
    });
  });

  it('reads the best new snippets in full before hopping', () => {
    const question = 'What river flows through the city Kevin Durant played for before Golden State?';
    const conversation = readConversation(promptOf(question, [{ query: question, results: [durant] }]));
    expect(nextAction(analyzeQuestion(question), conversation, 'auto')).toEqual({ type: 'read', chunkIds: ['kevin-durant#0'] });
  });

  it('answers when the loop forces it', () => {
    const question = 'What is ORB-1202?';
    expect(nextAction(analyzeQuestion(question), readConversation(promptOf(question, [])), 'none')).toEqual({ type: 'answer' });
  });
});

describe('rankBridges', () => {
  it('picks the name next to the relation word the question asks about', () => {
    const question = 'What river flows through the city Kevin Durant played for before Golden State?';
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(question, [{ query: question, results: [durant] }]));
    const bridges = rankBridges(analysis, conversation, new EvidenceView(analysis, conversation, undefined));
    expect(bridges[0]?.term).toBe('Oklahoma City');
  });

  it('follows a link to the page that holds the next fact', () => {
    const question = 'A flow step returns a huge value and fails after it ran; what should it return instead?';
    const flows: Result = {
      chunk_id: 'flows#2',
      doc_id: 'flows',
      heading: 'Step results',
      snippet: 'A step whose return value is over the payload limit fails after it ran. See [Results backend](results-backend.md).',
    };
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(question, [{ query: question, results: [flows] }]));
    const bridges = rankBridges(analysis, conversation, new EvidenceView(analysis, conversation, undefined));
    expect(bridges[0]?.term).toBe('Results backend');
  });
});

describe('coverage and the extractive answer', () => {
  const question = 'Does Orbit support Apache Kafka as a broker?';
  const brokers: Result = {
    chunk_id: 'overview#1',
    doc_id: 'overview',
    heading: 'Brokers',
    snippet: 'Orbit supports three brokers: Redis, Amazon SQS and RabbitMQ. Redis is the default broker.',
  };

  it('measures which of the question\u2019s names the evidence lacks', () => {
    const analysis = analyzeQuestion(question);
    const conversation = readConversation(promptOf(question, [{ query: question, results: [brokers] }]));
    expect(coverage(analysis, new EvidenceView(analysis, conversation, undefined)).missingAnchorShare).toBe(0.5);
  });

  it('abstains when a name of the question is absent, answers with verbatim quotes when covered', () => {
    const conversation = readConversation(promptOf(question, [{ query: question, results: [brokers] }]));
    expect(extractAnswer(analyzeQuestion(question), conversation)).toEqual({ text: '', citations: [], abstained: true });
    const covered = 'Which brokers does Orbit support?';
    const answer = extractAnswer(analyzeQuestion(covered), readConversation(promptOf(covered, [{ query: covered, results: [brokers] }])));
    expect(answer).toEqual({
      text: 'Orbit supports three brokers: Redis, Amazon SQS and RabbitMQ.',
      citations: [{ doc_id: 'overview', quote: 'Orbit supports three brokers: Redis, Amazon SQS and RabbitMQ.' }],
      abstained: false,
    });
  });
});

describe('answerType', () => {
  it.each([
    ['Which setting controls the lease in Orbit 3?', 'name'],
    ['What error code does a too-large step result raise?', 'name'],
    ['How many times is a job retried by default?', 'quantity'],
    ['Which release added ORBIT_MAX_TASKS_PER_CHILD?', 'quantity'],
    ['Why do my jobs run twice?', 'other'],
  ])('%s -> %s', (question, expected) => {
    expect(answerType(question)).toBe(expected);
  });
});
