/**
 * Function words: English's ({@link STOPWORDS}), and those of a text written in another language
 * ("le", "de", "est" in French; "die", "ist", "wie" in German; "el", "que", "es" in Spanish), so
 * that a question in that language is read by its content words, as an English one is read
 * without "the", "is", "how". The lists are those of the `stopword` package (kept in
 * function-word-data.ts, scripts/function-word-lists.ts); the language is the one whose list
 * holds most of the text's words.
 *
 * Chinese, Japanese, Korean, Thai and Burmese are not read here: their words come from
 * scripts.ts, and their function words are handled where those words are made (text.ts).
 */
import { FUNCTION_WORD_LISTS } from './function-word-data.ts';
import { withoutOptionalMarks } from './marks.ts';

/** English function words and question words (text.ts reads English without them). */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing done down during each either else ever every few for from ' +
    'further get gets got had has have having he her here hers herself him himself his how i if in into is it its ' +
    'itself just let like make makes many may me might more most much must my myself need needs no nor not now of ' +
    'off on once one only or other our ours ourselves out over own per please same shall she should so some such ' +
    'than that the their theirs them themselves then there these they this those through thus to too under until ' +
    'up upon us use used uses using very via was we were what whatever when where whereas whether which while who ' +
    'whom whose why will with within without would yet you your yours yourself yourselves instead still really ' +
    'tell know want way ways thing things something anything happen happens happened exactly actually'
  ).split(' '),
);

/**
 * Question words some lists leave out, since they were made for indexing documents, not for
 * reading questions: "comment" and "pourquoi" are in no French list, "dónde" in no Spanish one.
 */
const QUESTION_WORDS: Readonly<Record<string, readonly string[]>> = {
  fra: ['comment', 'pourquoi', 'combien', 'quand', 'ou', 'quoi', 'lequel', 'laquelle', 'lesquels', 'lesquelles', 'quels', 'quelles'],
  deu: ['wo', 'wann', 'wieso', 'weshalb', 'wieviel', 'wieviele', 'woher', 'wohin', 'womit', 'wozu', 'wofur'],
  spa: ['donde', 'cuando', 'cuanto', 'cuanta', 'cuantos', 'cuantas', 'cual', 'cuales', 'quien', 'quienes'],
  por: ['onde', 'quando', 'quanto', 'quantos', 'quantas', 'qual', 'quais', 'quem', 'porque'],
  ita: ['dove', 'quando', 'quanto', 'quanti', 'quale', 'quali', 'chi', 'perche', 'come'],
  rus: ['почему', 'зачем', 'сколько', 'какое', 'какие', 'каком', 'какую', 'кого', 'откуда'],
  ukr: ['чому', 'навіщо', 'скільки', 'яке', 'які', 'хто'],
  ell: ['τι', 'πού', 'πότε', 'πώς', 'γιατί', 'πόσο', 'πόση', 'πόσα', 'πόσοι', 'ποιος', 'ποια', 'ποιο', 'ποιες', 'ποιοι', 'ποιου', 'ποιον'],
  ara: ['لماذا'],
  hin: ['क्या', 'किसने', 'किसको', 'किसका', 'किसकी', 'किसके', 'किससे', 'कहाँ', 'कहां', 'कब', 'कैसे', 'क्यों', 'कितनी', 'कितने', 'कौनसी', 'सा', 'सी'],
  ben: ['কোথায়', 'কখন', 'কেমন'],
};

/** A word as `words` (text.ts) gives it: lower-cased, diacritics folded ("qué" -> "que"), a Hindi word's vowel signs kept (marks.ts `isWordMark`). */
export function fold(word: string): string {
  // Composed again, so that a word that keeps its marks is written as text writes it (NFC).
  return withoutOptionalMarks(word.normalize('NFKD')).normalize('NFC').toLowerCase();
}

/** English function words as the lists give them (to tell an English text), with {@link STOPWORDS}. */
const ENGLISH: ReadonlySet<string> = new Set([...(FUNCTION_WORD_LISTS.eng ?? '').split(' ').map(fold), ...STOPWORDS]);

/** One language's function words: as {@link fold} writes them, and as the language writes them (lower-cased). */
interface FunctionWords {
  language: string;
  folded: ReadonlySet<string>;
  written: ReadonlySet<string>;
}

/** The lists read: each language's, for each folded word the positions of the lists holding it, and every word as some language writes it. */
interface Lists {
  languages: readonly FunctionWords[];
  holding: ReadonlyMap<string, readonly number[]>;
  written: ReadonlySet<string>;
}

let lists: Lists | undefined;

/** The lists, made when a text first needs them: an English text never does (see {@link languageList}). */
function readLists(): Lists {
  if (lists !== undefined) return lists;
  const languages = Object.entries(FUNCTION_WORD_LISTS)
    .filter(([language]) => language !== 'eng')
    .map(([language, words]): FunctionWords => {
      const written = [...words.split(' '), ...(QUESTION_WORDS[language] ?? [])];
      return { language, folded: new Set(written.map(fold)), written: new Set(written) };
    });
  const holding = new Map<string, number[]>();
  languages.forEach((list, position) => {
    for (const word of list.folded) {
      const found = holding.get(word);
      if (found === undefined) holding.set(word, [position]);
      else found.push(position);
    }
  });
  lists = { languages, holding, written: new Set(languages.flatMap((list) => [...list.written])) };
  return lists;
}

const NONE: ReadonlySet<string> = new Set();

/** Words of another language's list a text in the Latin script needs before it is read as written in that language. */
const MIN_HITS = 2;

const LATIN = /\p{Script=Latin}/u;

/**
 * The words of a text's prose that may be function words, lower-cased and folded: words written
 * in lower case, and the first (capitalised at the start of a sentence). Names are not ("Ho Chi
 * Minh" holds Italian's "ho" and "chi"), nor the words of code spans, links' targets and
 * identifier-like runs (`max_tasks_per_child`: "per" is Catalan's "for").
 */
function proseWords(text: string): string[] {
  const prose = text.replace(/`[^`]*`/g, ' ').replace(/\]\([^)]*\)/g, ' ');
  const found: string[] = [];
  for (const piece of prose.split(/\s+/)) {
    const word = /^[^\p{L}\p{N}]*([\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)?)[^\p{L}\p{N}]*$/u.exec(piece)?.[1];
    if (word === undefined || (found.length > 0 && word !== word.toLowerCase())) continue;
    found.push(...(fold(word).match(/\p{L}[\p{L}\p{M}]*/gu) ?? []));
  }
  return found;
}

/**
 * The function words of the language `text` is written in, when it is not English: the language
 * whose list holds most of the words of its prose that are no English function words, at least
 * {@link MIN_HITS} and more than English's lists hold. Empty for English and for a text too short
 * to tell ("die Hard"). Given as {@link fold} writes words.
 *
 * @example
 * functionWordsOf('Comment changer le mot de passe ?').has('le'); // true
 * functionWordsOf('How do I set the timeout?').size; // 0
 */
export function functionWordsOf(text: string): ReadonlySet<string> {
  const list = languageList(text);
  if (list === undefined) return NONE;
  // A word written with diacritics no language writes a function word with, that folds into one,
  // is not one ("ändern", change, folds into "andern", others): its folded form stays a content word.
  const { written } = readLists();
  const content = (text.normalize('NFC').toLowerCase().match(/[\p{L}\p{M}]+/gu) ?? []).filter((word) => fold(word) !== word && list.folded.has(fold(word)) && !written.has(word));
  if (content.length === 0) return list.folded;
  const kept = new Set(list.folded);
  for (const word of content) kept.delete(fold(word));
  return kept;
}

/** The function words of the language `text` is written in, by {@link functionWordsOf}'s rule; undefined for English or too short a text. */
function languageList(text: string): FunctionWords | undefined {
  const words = proseWords(text);
  // A word English writes too ("for", "on", "was") tells nothing against English, nor a letter alone.
  const others = words.filter((word) => !ENGLISH.has(word) && word.length > 1);
  const english = words.filter((word) => ENGLISH.has(word)).length;
  // A word of another script than Latin is no English word read wrongly: one names its language
  // ("लाल किला किसने बनवाया?", who built the Red Fort, holds one Hindi function word).
  const minHits = others.some((word) => LATIN.test(word)) ? MIN_HITS : 1;
  // No list can hold enough of the others to outweigh English: the lists are not needed.
  if (others.length < minHits || others.length <= english) return undefined;
  const { languages, holding } = readLists();
  const hits = new Map<number, number>();
  for (const word of others) for (const position of holding.get(word) ?? []) hits.set(position, (hits.get(position) ?? 0) + 1);
  // Of lists holding as many, the shortest: a long list holds its neighbours' words too (Galician's
  // holds most of Spanish's), a short one only its language's most frequent.
  let best: number | undefined;
  let bestHits = 0;
  for (const [position, count] of hits) {
    if (count > bestHits || (count === bestHits && best !== undefined && languages[position]!.folded.size < languages[best]!.folded.size)) {
      best = position;
      bestHits = count;
    }
  }
  return best !== undefined && bestHits >= minHits && bestHits > english ? languages[best] : undefined;
}

/** The language code (`stopword`'s, ISO 639-3) {@link functionWordsOf} reads `text` in; undefined for English or too short a text. */
export function languageOf(text: string): string | undefined {
  return languageList(text)?.language;
}
