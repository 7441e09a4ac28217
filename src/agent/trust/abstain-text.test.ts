import { describe, expect, it } from 'vitest';
import { abstainLanguage, CLOSEST_HEADINGS, closestHeading, inQuestionLanguage } from './abstain-text.ts';
import { ABSTAIN_TEXT, NO_DIRECT_ANSWER_TEXT } from './answer.ts';

describe('abstainLanguage', () => {
  it('names the language of a question by its script or its function words, and none for English', () => {
    expect(
      [
        '大阪城を建てたのは誰ですか？',
        '谁成立了独立的索齿兽目？',
        '제주도의 면적은?',
        'Где посмотреть автора документа?',
        'Wie setze ich das Limit?',
        'Comment configurer un VPN WireGuard ?',
        '¿Cómo configuro el límite de memoria?',
        // "à" and "me" are English function words too ("a", "me"): French's outweigh them.
        "Je n'arrive pas à me connecter à distance à une Debian récente : quelle ligne de /etc/hosts.deny faut-il commenter ?",
        'Τι είναι αυτό το εργαλείο;',
        'كيف أضبط الحد؟',
        'चेन्नई में कौन सी नदी बहती है?',
        'How do I set the broker URL?',
        'Does Vitest support Deno?',
        'What does 北京 mean in the docs?',
        '如何设置max_payload_kb？',
      ].map(abstainLanguage),
    ).toEqual(['jpn', 'zho', 'kor', 'rus', 'deu', 'fra', 'spa', 'fra', 'ell', 'ara', 'hin', undefined, undefined, undefined, 'zho']);
  });
});

describe('inQuestionLanguage', () => {
  it('says a fixed abstention in the question\'s language, and leaves English and every other answer as they are', () => {
    const none = { text: ABSTAIN_TEXT, citations: [], abstained: true };
    const noDirect = { text: NO_DIRECT_ANSWER_TEXT, citations: [], abstained: true, closest: [] };
    expect(inQuestionLanguage(none, 'Где посмотреть автора документа?').text).toBe('Не удалось найти это в документации.');
    expect(inQuestionLanguage(noDirect, 'Wie setze ich das Limit?')).toEqual({ ...noDirect, text: 'Ich konnte in der Dokumentation keine direkte Antwort finden.' });
    expect(inQuestionLanguage(none, 'How do I set the broker URL?')).toBe(none);
    // Another text, and an answer, are never replaced.
    const own = { text: 'Документация об этом молчит.', citations: [], abstained: true };
    expect(inQuestionLanguage(own, 'Где посмотреть автора документа?')).toBe(own);
    const answered = { text: ABSTAIN_TEXT, citations: [], abstained: false };
    expect(inQuestionLanguage(answered, 'Где посмотреть автора документа?')).toBe(answered);
  });
});

describe('closestHeading', () => {
  it('heads the closest passages in the language of the abstention\'s text, English otherwise', () => {
    const noDirect = { text: NO_DIRECT_ANSWER_TEXT, citations: [], abstained: true, closest: [] };
    expect(
      ['Wie setze ich das Limit?', '谁成立了独立的索齿兽目？', 'Где посмотреть автора документа?', 'How do I set the broker URL?'].map((question) => closestHeading(inQuestionLanguage(noDirect, question))),
    ).toEqual(['Die nächstliegenden Stellen der Dokumentation', '文档中最接近的段落', 'Ближайшие фрагменты документации', 'Closest passages in the docs']);
    expect(closestHeading({ text: 'Документация об этом молчит.' })).toBe('Closest passages in the docs');
  });

  it('gives one heading per language, English first, each its own', () => {
    expect([CLOSEST_HEADINGS.length, new Set(CLOSEST_HEADINGS).size, CLOSEST_HEADINGS[0]]).toEqual([21, 21, 'Closest passages in the docs']);
  });
});
