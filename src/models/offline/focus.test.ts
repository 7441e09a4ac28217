import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { readConversation } from './conversation.ts';
import { EvidenceView } from './evidence-view.ts';
import { askedAttribute, focusShare, namesAttribute, questionFocus } from './focus.ts';
import { analyzeQuestion } from '../../text/question.ts';
import { stem } from '../../text/text.ts';

describe('questionFocus', () => {
  it('finds the phrase a part asks about in questions of existence and set-up', () => {
    expect(questionFocus('Is there a maximum size for a job payload')).toEqual(['maximum', 'siz']);
    expect(questionFocus('How do I set a per-job execution timeout so that a task which hangs is killed')).toEqual(['job', 'execution', 'timeout']);
    expect(questionFocus('Can I change the retry delay for one specific task')).toEqual(['retry', 'delay']);
    expect(questionFocus('Does the worker process expose an HTTP health-check endpoint that I can use')).toEqual(['http', 'health', 'check', 'endpoint']);
    expect(questionFocus('Does Orbit support Apache Kafka as a broker')).toEqual(['apach', 'kafka']);
  });

  it('reads the clause after a mere kind of thing, without the verb of setting it up', () => {
    expect(questionFocus('Is there a built-in option to encrypt job payloads at rest in the database')).toEqual(['encrypt', 'job', 'payload']);
    expect(questionFocus('Is there an option to disable prepared statements')).toEqual(['prepar', 'statement']);
  });

  it('has no focus for other question forms, for phrases of one term and past a participle', () => {
    expect(questionFocus('What does the localQueue option do')).toBeUndefined();
    expect(questionFocus('How do I change the concurrency of a worker')).toBeUndefined();
    expect(questionFocus('Can I change the schema name')).toBeUndefined();
    expect(questionFocus('Is there an event emitted when a job fails')).toBeUndefined();
    expect(questionFocus('Do I have to restart the workers after an upgrade')).toBeUndefined();
  });
});

describe('focusShare', () => {
  function viewOf(question: string, texts: string[]): EvidenceView {
    const prompt: LanguageModelV3Prompt = [
      { role: 'user', content: [{ type: 'text', text: question }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call-0', toolName: 'search_docs', input: { query: question } }] },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call-0',
            toolName: 'search_docs',
            output: { type: 'json', value: { results: texts.map((text, index) => ({ chunk_id: `config#${index}`, doc_id: 'config', heading: 'Options', applies_to: 'all', score: 10, text })) } },
          },
        ],
      },
    ];
    const analysis = analyzeQuestion(question);
    return new EvidenceView(analysis, readConversation(prompt), undefined);
  }

  it('is the largest share of the phrase one sentence holds', () => {
    const view = viewOf('How do I set the poll interval?', ['Workers poll the database.', 'The interval is fixed.']);
    expect(focusShare(view, ['poll', 'interval'])).toBe(0.5);
  });

  it('counts camelCase names and the words docs use for a term', () => {
    expect(focusShare(viewOf('How do I set the poll interval?', ['`pollInterval`: how often to check for jobs.']), ['poll', 'interval'])).toBe(1);
    expect(focusShare(viewOf('Is there a maximum size?', ['The max size is 1 MB.']), ['maximum', 'siz'])).toBe(1);
  });
});

describe('askedAttribute', () => {
  it('finds the attribute asked of a thing, with the ordinal that picks one', () => {
    expect(askedAttribute('Who is the wife of Kim Jong-chul')).toEqual(['wif']);
    expect(askedAttribute("Who's the spouse of Big Eye's main director")).toEqual(['spous']);
    expect(askedAttribute("Who was the first president of Damerjog's country")).toEqual(['first', 'president']);
    expect(askedAttribute('What is the population of the city where Tupac was born')).toEqual(['population']);
  });

  it('has none for generic nouns, kinds of things and other forms', () => {
    expect(askedAttribute('What is the name of the waterfall in the country where the Bubye River is found')).toBeUndefined();
    expect(askedAttribute('What is the default of ORBIT_RESULT_TTL')).toBeUndefined();
    expect(askedAttribute('Which is the kind of plane that dropped the bomb')).toBeUndefined();
    expect(askedAttribute('Who played the singer in Walk the Line')).toBeUndefined();
    expect(askedAttribute('What does the localQueue option do')).toBeUndefined();
  });
});

describe('namesAttribute', () => {
  it('holds the attribute itself or a word texts use for it, its terms in a row', () => {
    expect(namesAttribute('He married Ri Sol-ju in 2009.', [stem('wife')])).toBe(true);
    expect(namesAttribute('Kim Jong-chul is a son of Kim Jong-il.', [stem('wife')])).toBe(false);
    expect(namesAttribute('Hassan Gouled Aptidon was the first President of Djibouti.', ['first', 'president'])).toBe(true);
    expect(namesAttribute("During the country's first century, the President reported to Congress.", ['first', 'president'])).toBe(false);
  });
});
