import { languageOf, STOPWORDS } from '../../text/function-words.ts';
import { words } from '../../text/text.ts';
import { ABSTAIN_TEXT, NO_DIRECT_ANSWER_TEXT, type Answer } from './answer.ts';

/**
 * The fixed texts of an abstention in the language the question is asked in: whoever answered
 * (a language model or the offline planner), a question asked in Russian is told in Russian that
 * the docs do not say. [no answer, no direct answer, the heading of the closest passages shown
 * with it] per language, by the `stopword` package's codes (ISO 639-3) that `languageOf` names,
 * and by script for Chinese, Japanese and Korean, which have no function-word list there. English
 * for any other language.
 */
const TEXTS: Record<string, readonly [string, string, string]> = {
  zho: ['文档中没有找到相关内容。', '文档中没有找到直接的答案。', '文档中最接近的段落'],
  jpn: ['ドキュメントには見つかりませんでした。', 'ドキュメントに直接の答えは見つかりませんでした。', 'ドキュメントの中で最も近い箇所'],
  kor: ['문서에서 찾을 수 없었습니다.', '문서에서 직접적인 답을 찾을 수 없었습니다.', '문서에서 가장 가까운 구절'],
  rus: ['Не удалось найти это в документации.', 'Не удалось найти в документации прямого ответа.', 'Ближайшие фрагменты документации'],
  ukr: ['Не вдалося знайти це в документації.', 'Не вдалося знайти в документації прямої відповіді.', 'Найближчі фрагменти документації'],
  deu: ['Ich konnte das in der Dokumentation nicht finden.', 'Ich konnte in der Dokumentation keine direkte Antwort finden.', 'Die nächstliegenden Stellen der Dokumentation'],
  fra: ['Je n’ai pas trouvé cela dans la documentation.', 'Je n’ai pas trouvé de réponse directe dans la documentation.', 'Les passages les plus proches dans la documentation'],
  spa: ['No encontré esto en la documentación.', 'No encontré una respuesta directa en la documentación.', 'Los pasajes más cercanos de la documentación'],
  por: ['Não encontrei isto na documentação.', 'Não encontrei uma resposta direta na documentação.', 'Os trechos mais próximos na documentação'],
  ita: ['Non ho trovato questo nella documentazione.', 'Non ho trovato una risposta diretta nella documentazione.', 'I passaggi più vicini nella documentazione'],
  nld: ['Ik kon dit niet vinden in de documentatie.', 'Ik kon geen direct antwoord vinden in de documentatie.', 'De dichtstbijzijnde passages in de documentatie'],
  pol: ['Nie znalazłem tego w dokumentacji.', 'Nie znalazłem bezpośredniej odpowiedzi w dokumentacji.', 'Najbliższe fragmenty dokumentacji'],
  ces: ['V dokumentaci jsem to nenašel.', 'V dokumentaci jsem nenašel přímou odpověď.', 'Nejbližší pasáže v dokumentaci'],
  swe: ['Jag hittade inte detta i dokumentationen.', 'Jag hittade inget direkt svar i dokumentationen.', 'Närmaste avsnitt i dokumentationen'],
  tur: ['Bunu belgelerde bulamadım.', 'Belgelerde doğrudan bir yanıt bulamadım.', 'Belgelerdeki en yakın bölümler'],
  vie: ['Tôi không tìm thấy điều này trong tài liệu.', 'Tôi không tìm thấy câu trả lời trực tiếp trong tài liệu.', 'Các đoạn gần nhất trong tài liệu'],
  ind: ['Saya tidak menemukan ini di dokumentasi.', 'Saya tidak menemukan jawaban langsung di dokumentasi.', 'Bagian terdekat dalam dokumentasi'],
  ara: ['لم أجد هذا في الوثائق.', 'لم أجد إجابة مباشرة في الوثائق.', 'أقرب المقاطع في الوثائق'],
  hin: ['मुझे यह दस्तावेज़ों में नहीं मिला।', 'मुझे दस्तावेज़ों में सीधा उत्तर नहीं मिला।', 'दस्तावेज़ों में सबसे निकट के अंश'],
  ell: ['Δεν το βρήκα στην τεκμηρίωση.', 'Δεν βρήκα άμεση απάντηση στην τεκμηρίωση.', 'Τα πλησιέστερα αποσπάσματα στην τεκμηρίωση'],
};

const KANA = /[\u3040-\u30ff]/;
const HANGUL = /[\uac00-\ud7af\u1100-\u11ff]/;
const HAN = /\p{Script=Han}/u;

/**
 * The language of a question whose abstention texts {@link TEXTS} holds; undefined for English and
 * for any language it does not hold. An English question may quote a name in another script
 * ("What does 北京 mean?"): two English function words make it English. Languages written with
 * spaces are named by their function words first (text/function-words.ts `languageOf`, which
 * weighs a language's against English's: French "à" reads as English "a"); then kana marks
 * Japanese and Hangul Korean, before Han (Japanese writes Han too).
 *
 * @example
 * abstainLanguage('大阪城を建てたのは誰ですか？'); // 'jpn'
 * abstainLanguage('Как в Calc ввести дробь?'); // 'rus'
 * abstainLanguage('How do I set the lease?'); // undefined
 * abstainLanguage('What does 北京 mean in the docs?'); // undefined
 */
export function abstainLanguage(question: string): string | undefined {
  // First the function words, which weigh English's against each other language's: a French
  // question writes "à" (read as English "a") and "me" ("... à me connecter à distance à ...").
  const language = languageOf(question);
  if (language !== undefined) return language in TEXTS ? language : undefined;
  if (words(question).filter((word) => STOPWORDS.has(word)).length >= 2) return undefined;
  if (KANA.test(question)) return 'jpn';
  if (HANGUL.test(question)) return 'kor';
  if (HAN.test(question)) return 'zho';
  return undefined;
}

/**
 * An answer whose fixed abstention text ({@link ABSTAIN_TEXT}, {@link NO_DIRECT_ANSWER_TEXT}) is
 * given in the question's language; any other answer as it is.
 *
 * @example
 * inQuestionLanguage({ text: ABSTAIN_TEXT, citations: [], abstained: true }, 'Как в Calc ввести дробь?').text;
 * // 'Не удалось найти это в документации.'
 */
export function inQuestionLanguage(answer: Answer, question: string): Answer {
  if (!answer.abstained || (answer.text !== ABSTAIN_TEXT && answer.text !== NO_DIRECT_ANSWER_TEXT)) return answer;
  const language = abstainLanguage(question);
  if (language === undefined) return answer;
  const [none, noDirect] = TEXTS[language]!;
  return { ...answer, text: answer.text === ABSTAIN_TEXT ? none : noDirect };
}

/** The heading of the closest passages in English, for an answer in any language TEXTS does not hold. */
const CLOSEST_HEADING = 'Closest passages in the docs';

/**
 * The heading the closest passages of an abstention are shown under, in the language its text is
 * in (see {@link inQuestionLanguage}): a reader told in German that the docs hold no direct answer
 * reads on under a German heading. English for any other answer.
 *
 * @example
 * closestHeading(inQuestionLanguage(answer, 'Wie sichere ich meine Firewallregeln?')); // 'Die nächstliegenden Stellen der Dokumentation'
 * closestHeading(answer); // 'Closest passages in the docs'
 */
export function closestHeading(answer: Pick<Answer, 'text'>): string {
  return Object.values(TEXTS).find(([, noDirect]) => noDirect === answer.text)?.[2] ?? CLOSEST_HEADING;
}

/** Every heading {@link closestHeading} gives, English first: a reply of Atlas sent back in a chat's history is read up to it. */
export const CLOSEST_HEADINGS: readonly string[] = [CLOSEST_HEADING, ...Object.values(TEXTS).map(([, , heading]) => heading)];
