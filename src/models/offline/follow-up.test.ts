import { describe, expect, it } from 'vitest';
import { answerAnalysis, isFollowUp, withEarlierTurns } from './follow-up.ts';
import { analyzeQuestion } from '../../text/question.ts';

const expand = (question: string, earlierQuestions: string[]) => withEarlierTurns(analyzeQuestion(question), { earlierQuestions });

describe('follow-up questions', () => {
  it('tells a follow-up from a question that stands alone', () => {
    expect(['and how do I roll that back?', 'What about 2.x?', 'how do I undo it?', 'Also, where is that set?'].map(isFollowUp)).toEqual([true, true, true, true]);
    expect(['How do I set the lease duration in Orbit 3.x?', 'What does ORB-1202 mean?', 'Which setting limits the payload size of a step result?'].map(isFollowUp)).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('tells them apart in other languages: their continuations and demonstratives, never an article', () => {
    // "And where is this command in the menu?" was searched alone: the planner answered from a
    // page about another command ("This command may become active if an object is selected").
    const followUps = ['А где находится эта команда в меню?', 'Und wie setze ich es zurück?', 'Et comment annuler ça ?', '那怎么修复它？', 'じゃあ、それはどこで設定しますか？', 'Y esto, ¿dónde se configura?'];
    expect(followUps.map(isFollowUp)).toEqual([true, true, true, true, true, true]);
    // German "das" and French "la" are articles too; "dies" is an English verb, "es" Spanish "is".
    const alone = ['Как в Calc подобрать исходное значение, чтобы формула выдала нужный результат?', 'Wie setze ich das Limit?', 'Comment configurer la sauvegarde ?', '大阪城を建てたのは誰ですか？', 'Why the worker dies?', '¿Qué es un flujo?'];
    expect(alone.map(isFollowUp)).toEqual([false, false, false, false, false, false]);
  });

  it('searches a follow-up with the earlier question\'s names first, then its other words, and keeps its release line', () => {
    const expanded = expand('and how do I roll that back?', ['How do I deploy Orbit 3.x with Docker?']);
    expect(expanded.question).toBe('and how do I roll that back? Orbit Docker deploy');
    expect(expanded.version).toBe('3.x');
    expect(expand('and how do I avoid it?', ['What does ORB-1501 mean?']).question).toBe('and how do I avoid it? ORB-1501');
  });

  it('leaves a question that stands alone, or has no earlier turn, as asked', () => {
    const alone = analyzeQuestion('What does ORB-1202 mean?');
    expect(withEarlierTurns(alone, { earlierQuestions: ['How do I deploy Orbit 3.x?'] })).toBe(alone);
    const first = analyzeQuestion('and how do I roll that back?');
    expect(withEarlierTurns(first, { earlierQuestions: [] })).toBe(first);
  });

  it('a follow-up of a follow-up carries the terms of the question they both continue', () => {
    const expanded = expand('and what about them?', ['How do I replay dead letters in Orbit 3.x?', 'and how do I purge them?']);
    expect(expanded.question).toBe('and what about them? Orbit purge replay dead letters');
    expect(expanded.version).toBe('3.x');
  });

  it('a follow-up that names its own release line keeps it', () => {
    expect(expand('and on 2.x?', ['How do I set the lease in Orbit 3.x?']).version).toBe('2.x');
  });

  it('chooses a follow-up\'s answer for the question as asked, with the carried terms as topic words and no carried names', () => {
    const asked = analyzeQuestion('and how do I read its logs?');
    const searched = withEarlierTurns(asked, { earlierQuestions: ['How do I deploy Orbit with systemd?'] });
    const chosen = answerAnalysis(asked, searched);
    expect([chosen.question, chosen.anchors, chosen.parts.length]).toEqual(['and how do I read its logs?', [], 1]);
    expect(chosen.terms).toEqual([...asked.terms, 'orbit', 'deploy', 'systemd']);
    expect(chosen.carriedTerms).toEqual(['orbit', 'deploy', 'systemd']);
    expect(answerAnalysis(asked, asked)).toBe(asked);
  });
});
