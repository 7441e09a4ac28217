import { entities } from './names.ts';
import { contentTerms, identifiers, stem, STOPWORDS, words } from './text.ts';

/** One fact the question asks for. */
export interface QuestionPart {
  text: string;
  /** Stemmed content terms of the part. */
  terms: string[];
}

/** What the planner knows about a question before searching. */
export interface QuestionAnalysis {
  question: string;
  parts: QuestionPart[];
  /** Stemmed content terms of the whole question. */
  terms: string[];
  /** Terms that name something specific (identifiers, entity words, numbers); missing ones suggest the docs do not cover the question. */
  keyTerms: string[];
  /** Identifiers and entity phrases written in the question. */
  anchors: string[];
  /** Release line named in the question, e.g. "3.x". */
  version?: string;
  /** True when the question composes facts (relative clauses, possessives, several parts). */
  compositional: boolean;
  /**
   * The terms a follow-up borrowed from the conversation's earlier questions (its subject: "orbit
   * enqueue job" of "and how do I cancel it?"), also in `terms`; set by the offline planner.
   */
  carriedTerms?: string[];
}

const PART_SPLIT =
  /\s*(?:;|\?\s+|,?\s+and\s+(?=(?:which|what|how|where|who|whom|when|why|is|are|does|do|can|should)\b)|,\s+(?=(?:which|what|how|where|who|when|why)\b(?!\s+(?:is|are|was|were)\s+(?:used|called|named|known)))|\s+(?:versus|vs\.?|compared (?:to|with))\s+)\s*/i;

/**
 * Splits a question into the facts it needs, finds its key terms and any release line it names.
 *
 * @example
 * analyzeQuestion('Which error is it and what should the step return instead?').parts.length; // 2
 * analyzeQuestion('How do I set the lease in Orbit 3?').version; // '3.x'
 */
export function analyzeQuestion(question: string): QuestionAnalysis {
  const cleaned = question.replace(/\s+/g, ' ').trim();
  const parts = cleaned
    .split(PART_SPLIT)
    .map((text) => text.replace(/^[\s,?]+|[\s,?]+$/g, ''))
    .filter((text) => contentTerms(text).length > 0)
    .map((text) => ({ text, terms: contentTerms(text) }));
  const anchors = [...identifiers(cleaned).filter((identifier) => !isCodeExpression(identifier)), ...entities(cleaned).filter((entity) => !isSentenceStartWord(cleaned, entity))];
  const keyTerms = keyTermsOf(cleaned, anchors);
  const version = detectVersion(cleaned);
  return {
    question: cleaned,
    parts: parts.length > 0 ? parts : [{ text: cleaned, terms: contentTerms(cleaned) }],
    terms: contentTerms(cleaned),
    keyTerms,
    anchors: [...new Set(anchors)],
    ...(version ? { version } : {}),
    compositional: parts.length > 1 || COMPOSITION.test(cleaned),
  };
}

const COMPOSITION =
  /\b(?:where|whose|which|that|who)\b.*\b(?:is|was|were|are|located|born|died|formed|found|founded|released|played|lived|used)\b|'s\s+\w+|\b(?:of the|in the)\b.*\b(?:of the|in the|where|which|whose)\b|\bafter\b|\bthen\b|\binstead\b|\bwhy\b|\bfix\b/i;

/**
 * The release line a question names: "3.x", "v3", "version 3", "Orbit 3", "2.9" -> "<major>.x".
 */
export function detectVersion(question: string): string | undefined {
  const patterns = [
    /\b(\d+)\.x\b/i,
    /\bv(\d+)(?:\.\d+)*\b/i,
    /\b(?:version|release|line|major)\s+(\d+)(?:\.\d+)*\b/i,
    /\b[A-Z][a-zA-Z]+\s+(\d+)(?:\.\d+){0,2}\b(?!\s*(?:%|ms|s|seconds?|minutes?|hours?|days?|kb|mb|gb|jobs?|workers?|retries|times|attempts?))/,
    /\b(?:on|in|for|with|from|to|under)\s+(\d+)\.\d+(?:\.\d+)?\b/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(question);
    const major = match?.[1];
    if (major !== undefined && Number(major) < 100) return `${Number(major)}.x`;
  }
  return undefined;
}

function keyTermsOf(question: string, anchors: string[]): string[] {
  const keys = new Set<string>();
  for (const anchor of anchors) for (const word of words(anchor)) if (!STOPWORDS.has(word) && !/^\d{1,2}$/.test(word)) keys.add(stem(word));
  for (const word of words(question)) if (/\d/.test(word) && word.length >= 3) keys.add(word);
  return [...keys];
}

/**
 * Whether a code span of a question is the asker's own code rather than a name the docs write: a
 * call with arguments (`subprocess.run(..., timeout=30)`, `d.get('x')`), an assignment of more
 * than a literal (`items: list = []`), a subscript (`t[0] += [4]`) or a statement (`from helpers
 * import fetch_user`). The docs do not write the asker's code, so it is no anchor; the names in it
 * are (`subprocess.run`, found apart by {@link identifiers}). A name with punctuation of its own
 * stays one: `ThreadPoolExecutor()`, `[workspace]`, `links = "foo"`, `total=False`,
 * `--update=none`, `#[derive(Debug)]`.
 *
 * @example
 * isCodeExpression("d.get('x')"); // true
 * isCodeExpression('[workspace]'); // false
 */
export function isCodeExpression(span: string): boolean {
  if (span.startsWith('#[')) return false;
  return CALL_WITH_ARGUMENTS.test(span) || SPACED_ASSIGNMENT.test(span) || SUBSCRIPT.test(span) || STATEMENT.test(span);
}
const CALL_WITH_ARGUMENTS = /[\w)\]]\s*\((?!\s*\))/;
/** An assignment of more than a literal: a setting as the docs write it (`links = "foo"`, `opt-level = 3`) is a name. */
const SPACED_ASSIGNMENT = /\s(?:[-+*/%|&^]|\*\*|\/\/|<<|>>)?=\s(?!(?:"[^"]*"|'[^']*'|[\w.-]+)\s*$)/;
const SUBSCRIPT = /\w\[/;
const STATEMENT = /^(?:from|import|with|for|if|while|return|let|const|var)\s+\S+\s/;

/** A lone capitalised word that opens the question ("Walk me through...") is grammar, not a name. */
function isSentenceStartWord(text: string, entity: string): boolean {
  return !entity.includes(' ') && text.replace(/^[^\p{L}\p{N}]+/u, '').startsWith(entity) && !/^[A-Z0-9]+$/.test(entity);
}

/**
 * Whether a question is about the docs (search) or can be answered directly: greetings,
 * thanks, questions about the conversation itself, and general programming questions that name
 * no product-specific term.
 */
export function needsSearch(question: string): boolean {
  const text = question.trim().toLowerCase();
  if (GREETING.test(text) || CONVERSATION.test(text) || ARITHMETIC.test(text)) return false;
  if (GENERAL_PROGRAMMING.test(text) && !hasProductSignal(question)) return false;
  return true;
}

const GREETING =
  /^(?:hi|hello|hey|yo|hiya|howdy|good (?:morning|afternoon|evening|night)|thanks|thank you|thx|cheers|bye|goodbye|see you|ok(?:ay)?|great|cool|nice|awesome|perfect|got it)\b[\s\w,!.']{0,40}$/;
const CONVERSATION =
  /\b(?:what did (?:you|i) (?:just )?(?:say|ask|mean)|why did you (?:cite|say|answer|search|pick|choose|quote)|(?:repeat|rephrase|summari[sz]e|shorten|simplify|translate) (?:that|this|it|your|the (?:last|previous)|our)|your (?:last|previous) (?:answer|reply|message)|(?:earlier|above) in (?:this|our) (?:chat|conversation)|who are you|what can you do|are you (?:a|an) (?:bot|ai|human)|in (?:this|our) conversation)\b/;
const ARITHMETIC = /^(?:what(?:'s| is)|how much is|calculate|compute)?\s*-?\d[\d.,]*\s*(?:[-+*\/x×^]|times|plus|minus|divided by|to the power of)\s*-?\d[\d.,]*\s*\??$/;
const GENERAL_PROGRAMMING =
  /\b(?:python|javascript|typescript|java|rust|golang|c\+\+|c#|ruby|php|sql|bash|regex|regular expression|big[- ]o|algorithm|recursion|mutex|semaphore|deadlock|closure|pointer|linked list|hash ?map|dictionary|array|list comprehension|string|integer|float|sort(?:ing)?|binary search|git|http status|tcp|udp|dns|oop|inheritance|polymorphism|unit test(?:ing)?|variable|function|loop|lambda|decorator|generator|async(?:hronous)?|promise|thread)\b/;

/** Product-specific signals: identifiers, error codes, config keys, CLI commands, release lines. */
function hasProductSignal(question: string): boolean {
  if (identifiers(question).some((identifier) => !/^(?:[a-z]+\.)?[a-z]+\(\)$/.test(identifier))) return true;
  if (detectVersion(question)) return true;
  const lower = question.toLowerCase();
  return PRODUCT_WORDS.some((word) => new RegExp(`\\b${word}\\b`).test(lower));
}

/** Words that, in a programming question, point at the product docs rather than general knowledge. */
const PRODUCT_WORDS = [
  'config(?:ure|uration)?', 'setting', 'install', 'deploy(?:ment)?', 'upgrade', 'migrat(?:e|ion)', 'error code',
  'queue', 'worker', 'job', 'broker', 'lease', 'flow', 'step', 'schedule[rd]?', 'retry', 'retries', 'dead[- ]letter',
  'token', 'api key', 'endpoint', 'cli', 'command', 'option', 'flag', 'environment variable', 'env var', 'release',
  'version', 'plugin', 'dashboard', 'metric', 'timeout', 'limit', 'payload',
];

/** The words of `question` whose stems are in `stems`, as written, each once, stopwords left out. */
export function originalWords(question: string, stems: string[]): string[] {
  const result: string[] = [];
  for (const word of words(question)) {
    if (STOPWORDS.has(word)) continue;
    if (stems.includes(stem(word)) && !result.some((existing) => stem(existing) === stem(word))) result.push(word);
  }
  return result;
}
