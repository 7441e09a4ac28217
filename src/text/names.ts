/**
 * Names in text: named-entity-like phrases ("Hank Snow", "Treaty of Rome") and the texts of links
 * to other pages of the same docs, what the offline planner takes for the things a question or a
 * passage names. Pure functions, no state.
 */
import { STOPWORDS } from './function-words.ts';

/** Words whose 's is "is", "us" or "has", not a possessive ("Let's", "It's", "There's"). */
const CONTRACTED = new Set(['let', 'it', 'that', 'what', 'here', 'there', 'he', 'she', 'who', 'where', 'how', 'when', 'why', 'everyone', 'nobody', 'somebody', 'someone', 'something', 'nothing', 'everything']);

const CONNECTORS = new Set(['of', 'the', 'de', 'la', 'le', 'von', 'van', 'der', 'du', 'da', 'di', 'del', 'y']);
const NOT_ENTITIES = new Set([
  'the', 'a', 'an', 'it', 'its', 'in', 'on', 'at', 'this', 'that', 'these', 'those', 'there', 'when', 'while', 'if',
  'for', 'to', 'as', 'by', 'he', 'she', 'they', 'we', 'you', 'i', 'his', 'her', 'their', 'our', 'after', 'before',
  'during', 'since', 'although', 'however', 'but', 'and', 'or', 'with', 'from', 'also', 'all', 'some', 'most',
  'note', 'see', 'use', 'set', 'each', 'every', 'one', 'two', 'both', 'other', 'many', 'then', 'so', 'what', 'which',
  'who', 'how', 'why', 'where', 'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
  'september', 'october', 'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday',
  'saturday', 'sunday', 'yes', 'no', 'not', 'default', 'example', 'true', 'false', 'none', 'null', 'tip',
  'warning', 'important', 'caution', 'info', 'danger', 'see also',
  // The pronoun I with its contractions ("On CI I'd like ...", "A function I'm testing").
  "i'm", "i'd", "i've", "i'll", 'i’m', 'i’d', 'i’ve', 'i’ll',
  // Imperatives that open sentences in technical docs.
  'put', 'set', 'run', 'add', 'make', 'keep', 'check', 'pass', 'call', 'create', 'start', 'stop', 'install',
  'enable', 'disable', 'configure', 'read', 'write', 'remember', 'avoid', 'try', 'open', 'close', 'give', 'take',
  'send', 'get', 'return', 'raise', 'replace', 'remove', 'change', 'choose', 'pick', 'prefer', 'store',
]);

/**
 * An acronym with a lower-case tail ("CPU-heavy", "VM-based", "GPU-accelerated"): it describes
 * something, it names nothing (a hyphenated name starts with one capital: "Jong-chul").
 */
const DESCRIBING_ACRONYM = /^\p{Lu}{2,}-\p{Ll}+$/u;

/**
 * Named-entity-like phrases: runs of capitalised words (with connectors such as "of" inside),
 * e.g. "Hank Snow", "Victoria Falls", "Treaty of Rome". A lone capitalised word at the start
 * of a sentence counts only when it is not a common word.
 */
export function entities(text: string): string[] {
  const result: string[] = [];
  const tokens = [...text.matchAll(/[\p{L}\p{N}_]+(?:[.'’+-][\p{L}\p{N}_]+)*|[.!?;:,()"\n]/gu)].map((match) => match[0]);
  let run: string[] = [];
  let runAtSentenceStart = false;
  let sentenceStart = true;
  const flush = () => {
    while (run.length > 0 && CONNECTORS.has((run[run.length - 1] ?? '').toLowerCase())) run.pop();
    // "Does Redis" at the start of a question: drop capitalised function words in front.
    while (run.length > 1 && STOPWORDS.has((run[0] ?? '').toLowerCase())) run.shift();
    const phrase = run.join(' ').replace(/[.’']+$/, '');
    const lone = run.length === 1;
    const lower = phrase.toLowerCase();
    if (phrase.length >= 3 && !NOT_ENTITIES.has(lower) && !(lone && runAtSentenceStart && STOPWORDS.has(lower)) && /\p{L}/u.test(phrase)) {
      if (!result.includes(phrase)) result.push(phrase);
    }
    run = [];
  };
  for (const token of tokens) {
    if (/^[.!?;:,()"\n]$/.test(token)) {
      flush();
      sentenceStart = /[.!?\n]/.test(token);
      continue;
    }
    // Identifiers (ORBIT_RESULT_TTL) are not names; numbers end a name ("Orbit 3" is a release).
    // A possessive ends the name it closes: "Damerjog's country" names Damerjog. A contraction
    // ("Let's Encrypt", "It's") is no possessive, and no name.
    const possessive = /['’]s$/.exec(token);
    const contraction = possessive !== null && CONTRACTED.has(token.slice(0, possessive.index).toLowerCase());
    const bare = possessive && !contraction ? token.slice(0, possessive.index) : token;
    const capital = /^[\p{Lu}]/u.test(bare) && !bare.includes('_') && !contraction && !DESCRIBING_ACRONYM.test(bare);
    const commonAtStart = sentenceStart && (STOPWORDS.has(bare.toLowerCase()) || /(?:ing|ed|s)$/.test(bare) || bare.includes('-'));
    if (capital && !NOT_ENTITIES.has(bare.toLowerCase()) && !(run.length === 0 && commonAtStart)) {
      if (run.length === 0) runAtSentenceStart = sentenceStart;
      run.push(bare);
      if (possessive) flush();
    } else if (run.length > 0 && CONNECTORS.has(token.toLowerCase())) {
      run.push(token);
    } else {
      flush();
    }
    sentenceStart = false;
  }
  flush();
  return result;
}

/**
 * Link texts of markdown links `[Title](target)` to pages of the same docs (relative targets):
 * the names of other pages a passage points to. Links to other sites lead out of the corpus.
 */
export function linkTexts(text: string): string[] {
  const result: string[] = [];
  for (const match of text.matchAll(/\[([^\]\n]{3,60})\]\(([^)\s]+)\)/g)) {
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(match[2] ?? '')) continue;
    const label = (match[1] ?? '').replace(/`/g, '').trim();
    if (label && !/^https?:/i.test(label) && !result.includes(label)) result.push(label);
  }
  return result;
}
