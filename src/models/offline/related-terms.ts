import type { QuestionAnalysis } from '../../text/question.ts';
import { stem, words } from '../../text/text.ts';

/**
 * How reference texts phrase the relations questions ask about in other words: an encyclopedia's
 * "born" for a question's "birthplace", a software manual's "attempts" for "tried", "concurrency"
 * for "at the same time". General English of the two genres, not the vocabulary of one corpus.
 * Keys and values are stemmed when the map is built.
 */
const PHRASINGS: Record<string, string> = {
  // Encyclopedic relations.
  author: 'wrote written writer novel book',
  writer: 'wrote written author',
  singer: 'sang sung song recorded performed',
  performer: 'performed recorded song band singer',
  birthplace: 'born native',
  born: 'birthplace native',
  spouse: 'married wife husband',
  wife: 'married spouse',
  husband: 'married spouse',
  sibling: 'brother sister',
  child: 'son daughter children',
  father: 'son daughter',
  mother: 'son daughter',
  founder: 'founded',
  director: 'directed',
  producer: 'produced',
  composer: 'composed music',
  creator: 'created',
  died: 'death dead crash fail',
  death: 'died',
  located: 'location situated lies',
  country: 'nation',
  city: 'town',
  // How software documentation words what users describe.
  try: 'attempt attempts retry',
  tried: 'attempt attempts retry',
  again: 'retry attempt',
  once: 'attempt single',
  enqueue: 'add schedule queue insert',
  remove: 'delete drop uninstall clear',
  delete: 'remove drop',
  uninstall: 'remove drop',
  stop: 'shutdown abort cancel exit halt',
  cancel: 'abort stop',
  crash: 'fail dead died killed',
  dead: 'crash died fail',
  big: 'large huge size',
  small: 'tiny little size',
  finish: 'done complete completed end',
  late: 'delay latency',
  slow: 'latency delay performance',
  often: 'frequency interval poll',
  wait: 'timeout delay block',
  simultaneous: 'concurrency concurrent parallel',
  parallel: 'concurrency concurrent simultaneous',
  sequential: 'serial order',
  serially: 'serial queue order',
  tag: 'flag label',
  skip: 'forbidden exclude ignore',
  list: 'view select query',
  show: 'view display',
  limit: 'max maximum cap',
  cap: 'max maximum limit',
  maximum: 'max limit',
  minimum: 'min',
  schedule: 'cron crontab',
  periodic: 'cron crontab interval',
  weekly: 'cron crontab',
  daily: 'cron crontab',
  hourly: 'cron crontab',
  nightly: 'cron crontab',
  duplicate: 'dedupe unique key',
  debounce: 'key replace delay',
  upgrade: 'migration migrate version',
  migrate: 'migration upgrade',
  database: 'postgres sql db',
  log: 'logger logging',
  logs: 'logger logging',
  error: 'fail failure exception',
  fails: 'error failure',
  switch: 'disable enable toggle',
  setting: 'option config configuration',
  option: 'setting config',
  configure: 'config option setting',
  environment: 'env envvar variable',
  permission: 'role grant privilege',
  secure: 'security encrypt',
  test: 'testing once',
  tests: 'testing once',
};

/** Stemmed question term -> stemmed words texts use for the same relation. */
export const RELATED: ReadonlyMap<string, string[]> = new Map(
  Object.entries(PHRASINGS).map(([word, related]) => [stem(word), related.split(' ').map(stem)]),
);

const RELATED_WORDS: ReadonlyMap<string, string[]> = new Map(
  Object.entries(PHRASINGS).map(([word, related]) => [stem(word), related.split(' ')]),
);

/**
 * The words reference texts use for a stemmed question term, as written (for queries).
 *
 * @example
 * relatedWords(stem('tried')); // ['attempt', 'attempts', 'retry']
 */
export function relatedWords(term: string): string[] {
  return RELATED_WORDS.get(term) ?? [];
}

/**
 * Whether a set of stemmed words holds a stemmed question term, itself or a word texts use for it
 * ("large" for "big").
 *
 * @example
 * holdsTerm(new Set([stem('large')]), stem('big')); // true
 */
export function holdsTerm(have: ReadonlySet<string>, term: string): boolean {
  return termForms(term).some((form) => have.has(form));
}

/**
 * A stemmed question term and the stemmed words texts use for it.
 *
 * @example
 * termForms(stem('wife')); // ['wif', 'marry', 'spous']
 */
export function termForms(term: string): string[] {
  return [term, ...(RELATED.get(term) ?? [])];
}

/**
 * The words docs use for the question's own words ("attempts" for "tried"), two a term, six at
 * most, leaving out those the question or `terms` (a hop's bridge) already hold: what a hop query
 * adds so that it meets the docs' wording.
 *
 * @example
 * queryExpansions(analyzeQuestion('How often is a failed job tried again?'), ['ORB-1101']);
 * // ['frequency', 'interval', 'error', 'failure', 'attempt', 'attempts']
 */
export function queryExpansions(analysis: QuestionAnalysis, terms: string[]): string[] {
  const have = new Set([...terms.flatMap((term) => words(term)), ...words(analysis.question)]);
  const result: string[] = [];
  for (const term of analysis.terms) {
    for (const word of relatedWords(term).slice(0, 2)) if (!have.has(word) && !result.includes(word)) result.push(word);
  }
  return result.slice(0, 6);
}
