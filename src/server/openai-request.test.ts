import { describe, expect, it } from 'vitest';
import { parseChatRequest } from './openai-request.ts';

describe('parseChatRequest', () => {
  it('makes the last user message the question and earlier user/assistant pairs the turns, ignoring system messages', () => {
    const parsed = parseChatRequest({
      model: 'atlas',
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'Answer as an admin.' },
        { role: 'user', content: 'How do I deploy 3.x?' },
        { role: 'assistant', content: 'Run orbit deploy. [1]\n\nSources:\n[1] Deploy > Steps (deploy.md:3-9)' },
        { role: 'user', content: [{ type: 'text', text: 'and how do I roll' }, { type: 'image_url', image_url: { url: 'x' } }, { type: 'text', text: 'that back?' }] },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(parsed).toEqual({
      ok: true,
      request: {
        ask: { question: 'and how do I roll\nthat back?' },
        history: [{ question: 'How do I deploy 3.x?', answer: 'Run orbit deploy.', citations: [] }],
        stream: true,
        includeUsage: true,
      },
    });
  });

  it('cuts the closest passages off an earlier abstention, as it cuts the sources, under the heading of its language', () => {
    const abstentions = [
      ['How big may a result be?', "I couldn't find a direct answer in the docs.", 'Closest passages in the docs:'],
      // A German question was told in German, and read on under a German heading.
      ['Wie groß darf ein Ergebnis sein?', 'Ich konnte in der Dokumentation keine direkte Antwort finden.', 'Die nächstliegenden Stellen der Dokumentation:'],
    ];
    for (const [question, text, heading] of abstentions) {
      const parsed = parseChatRequest({
        model: 'atlas',
        messages: [
          { role: 'user', content: question },
          { role: 'assistant', content: `${text}\n\n${heading}\n- Error codes > ORB-1202 PayloadTooLarge (error-codes.md:90-90): "The result is larger than the payload limit."` },
          { role: 'user', content: 'and where is the limit set?' },
        ],
      });
      expect(parsed.ok && parsed.request.history).toEqual([{ question, answer: text, citations: [] }]);
    }
  });

  it('keeps a user message without a reply as a turn with an empty answer, and every turn (the run bounds them)', () => {
    const messages = Array.from({ length: 10 }, (_, turn) => [
      { role: 'user', content: `q${turn}` },
      { role: 'assistant', content: `a${turn}` },
    ]).flat();
    const parsed = parseChatRequest({ model: 'atlas', messages: [{ role: 'user', content: 'lonely' }, ...messages, { role: 'user', content: 'now?' }] });
    if (!parsed.ok) throw new Error(parsed.problem.message);
    expect(parsed.request.history.map((turn) => `${turn.question}=${turn.answer}`)).toEqual(['lonely=', 'q0=a0', 'q1=a1', 'q2=a2', 'q3=a3', 'q4=a4', 'q5=a5', 'q6=a6', 'q7=a7', 'q8=a8', 'q9=a9']);
    const short = parseChatRequest({ model: 'atlas', messages: [{ role: 'user', content: 'first' }, { role: 'user', content: 'second' }] });
    expect(short.ok && short.request.history).toEqual([{ question: 'first', answer: '', citations: [] }]);
  });

  it('takes the atlas extension and names the field of a bad one', () => {
    const ok = parseChatRequest({ model: 'atlas', messages: [{ role: 'user', content: 'q' }], atlas: { version: '3.x', labels: { team: ['ops'], store: 'Aundh' }, route: 'auto', maxSearches: 3 } });
    expect(ok).toEqual({ ok: true, request: { ask: { question: 'q', version: '3.x', labels: { team: ['ops'], store: ['Aundh'] }, route: 'auto', maxSearches: 3 }, history: [], stream: false, includeUsage: false } });
    const bad = parseChatRequest({ model: 'atlas', messages: [{ role: 'user', content: 'q' }], atlas: { principal: { groups: ['admins'] } } });
    expect(bad.ok === false && bad.problem.param).toBe('atlas');
    expect(bad.ok === false && bad.problem.message).toBe(
      'Atlas: the chat completion body is invalid at "atlas": Unrecognized key: "principal". Send { "model": "atlas", "messages": [{ "role": "user", "content": "..." }] }.',
    );
    const noMessages = parseChatRequest({ model: 'atlas', messages: [] });
    expect(noMessages.ok === false && noMessages.problem.param).toBe('messages');
  });
});
