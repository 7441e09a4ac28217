import type { Random } from './prng.ts';

/** Frequent English and documentation words, roughly most frequent first (Zipf head). */
const COMMON = (
  'the of and to a in is for that it on with as be by this are or you can from at not an if ' +
  'will when which your use each set all has have more one new its also than but only any may ' +
  'data server file value default time request user job worker queue config error version run ' +
  'message service node cluster client key name option command index event table log cache ' +
  'limit size number retry lease timeout token policy backup release storage memory disk path ' +
  'update delete create read write start stop restart enable disable check return list field ' +
  'schema query result status state mode level host port network connection session account ' +
  'role access permission team project build deploy test upgrade install migrate rollback ' +
  'payload header body response api endpoint route handler plugin module package library ' +
  'thread process task schedule scheduler interval period second minute hour day week month ' +
  'size bytes kilobytes megabytes rate throughput latency metric alert dashboard monitor ' +
  'trace span audit backup snapshot replica shard partition leader follower election quorum ' +
  'primary secondary region zone tenant quota billing invoice plan tier feature flag rule ' +
  'filter match pattern regex format json yaml toml csv text string integer boolean array ' +
  'object map list entry record document section chapter guide reference tutorial example ' +
  'warning note tip important deprecated removed added changed fixed security encryption ' +
  'certificate secret password credential signature verify validate parse render template'
).split(' ');

const ONSETS = ['b', 'c', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'w', 'z', 'br', 'cr', 'dr', 'gl', 'pl', 'st', 'tr', 'sh', 'ch', 'th'];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou'];
const CODAS = ['', '', '', 'n', 'r', 's', 'l', 'x', 'nd', 'st', 'rk'];

/**
 * A ranked vocabulary: the common words first, then `synthetic` invented words (2-4 syllables)
 * for the long tail, each distinct.
 *
 * @example
 * const words = createVocabulary(random, 30_000); // words[0] === 'the'
 */
export function createVocabulary(random: Random, synthetic: number): string[] {
  const words = [...new Set(COMMON)];
  const seen = new Set(words);
  while (words.length < COMMON.length + synthetic) {
    let word = '';
    const syllables = random.int(2, 4);
    for (let n = 0; n < syllables; n += 1) word += random.pick(ONSETS) + random.pick(VOWELS);
    word += random.pick(CODAS);
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}

/**
 * Identifiers of the kinds docs mention: snake_case settings, camelCase and PascalCase names,
 * dotted config keys, error codes, CLI flags, section-qualified keys.
 *
 * @example
 * createIdentifiers(random, vocabulary, 2000) // ['max_payload_kb', 'ORB-1202', 'quartz.scheduler.idleWaitTime', ...]
 */
export function createIdentifiers(random: Random, vocabulary: readonly string[], count: number): string[] {
  const word = () => vocabulary[random.int(40, Math.min(vocabulary.length - 1, 3000))]!;
  const capital = (text: string) => text[0]!.toUpperCase() + text.slice(1);
  const makers = [
    () => `${word()}_${word()}_${random.pick(['kb', 'ms', 'seconds', 'count', 'max', 'enabled'])}`,
    () => `${word()}${capital(word())}${capital(word())}`,
    () => `${capital(word())}${capital(word())}${random.pick(['Error', 'Exception', 'Timeout', 'TooLarge'])}`,
    () => `${word()}.${word()}.${word()}${capital(word())}`,
    () => `${random.pick(['ORB', 'ATL', 'QRT', 'WRK'])}-${random.int(1000, 9999)}`,
    () => `--${word()}-${word()}`,
  ];
  const identifiers = new Set<string>();
  while (identifiers.size < count) identifiers.add(random.pick(makers)());
  return [...identifiers];
}
