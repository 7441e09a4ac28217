/**
 * Identifiers named in a text: names from code and configuration rather than words. Error codes
 * (`ORB-1202`), options (`gracefulShutdownAbortTimeout`, `max_payload_kb`), environment variables
 * (`GRAPHILE_ENABLE_DANGEROUS_LOGS`), CLI flags (`--schema`), functions (`add_job()`, `addJob()`),
 * dotted keys (`quartz.scheduler.idleWaitTime`), and whatever a code span holds as one name.
 *
 * Queries and definitions (see `definitions.ts`) are read with the same rules. An identifier has
 * a *spelling* (lower-cased as written, with `--` for a flag: `add_job`, `addjob`, `--schema`) and
 * a *key* (separators dropped: `addjob`), so `add_job`, `addJob()` and `graphile_worker.add_job`
 * meet on the key `addjob` while the spelling still tells the SQL function from the JS one.
 */

/** One identifier found in a text. */
export interface FoundIdentifier {
  /** As written, without backticks, leading `--` or call parentheses: `worker.concurrentJobs`. */
  name: string;
  /** Whether it was written as a CLI flag (`--schema`). */
  flag: boolean;
  /** Whether it was written as code: in backticks, as a `--flag` or as a call `name(`. */
  marked: boolean;
  /** Offset of the name in the text. */
  offset: number;
}

/** A code span, or an identifier-like run with an optional `--` before it and `(` after it. */
const TOKEN = /`([^`\n]+)`|(--)?([\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*)(\()?/gu;
/** Identifier-like runs inside a code span. */
const RUN = /(--)?([\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*)(\()?/gu;
/** A code span that holds exactly one name: `--schema`, `add_job()`, `maxPoolSize?`, `schema`. */
const SINGLE_NAME = /^\s*(?:--)?[\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*(?:\(\))?\??\s*$/u;
const SEPARATOR = /[-.:/]/;
const NAMESPACE_SEPARATOR = /[.:/]/;
const HAS_LETTER = /\p{L}/u;
const HAS_DIGIT = /\p{N}/u;
/** `addJob`, `idleWaitTime`, `PayloadTooLarge`, `HTTPServer`, `IOError`. */
const CAMEL = /\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}{2}/u;
/** Letter-and-digit words that are not names: versions, ordinals, decades, quantities with a unit. */
const NOT_A_NAME = /^(?:v\p{N}+|\p{N}+(?:st|nd|rd|th|s|x)|\p{N}+\p{L}{1,3})$/iu;
const ONLY_DIGITS_OR_ONE_LETTER = /^(?:\p{N}+|\p{L})$/u;
/** A number joined to words: `300-second`, `30-minute`, `3-way`. */
const QUANTITY = /^\p{N}+(?:-\p{Ll}+)+$/u;
/** What every text naming an identifier has: a code span, a separator, a digit, a `(` or an inner capital. */
const MAY_NAME = /[`_\-.:/(\p{N}]|\p{Ll}\p{Lu}|\p{Lu}{2}\p{Ll}/u;
const NOT_IN_KEY = /[^\p{L}\p{N}\p{M}]+/gu;
/** Shortest key kept: one-letter names (`-q`, `x`) say nothing. */
const MIN_KEY_LENGTH = 2;

/**
 * Whether a run of letters, digits and separators reads as an identifier by its shape alone:
 * it has an underscore, a namespace separator (`.`, `:`, `/`), letters and digits mixed
 * (`ORB-1202`, `ORB1202`, `base64`), or an inner capital (`addJob`, `PayloadTooLarge`). Plain
 * words, hyphenated words (`long-running`), acronyms (`NATO`), versions (`3.x`, `v2`), ordinals,
 * quantities (`100ms`, `30-minute`) and abbreviations (`U.S`) do not.
 *
 * @example
 * looksLikeIdentifier('max_payload_kb') // true
 * looksLikeIdentifier('long-running')   // false
 */
export function looksLikeIdentifier(run: string): boolean {
  if (!HAS_LETTER.test(run)) return false;
  if (run.includes('_')) return true;
  const segments = run.split(SEPARATOR);
  if (segments.length > 1) {
    if (segments.every((segment) => ONLY_DIGITS_OR_ONE_LETTER.test(segment))) return false;
    if (NAMESPACE_SEPARATOR.test(run)) return true;
    if (QUANTITY.test(run)) return false;
    const mixed = segments.some((segment) => HAS_DIGIT.test(segment)) && segments.some((segment) => HAS_LETTER.test(segment));
    return mixed || segments.some((segment) => CAMEL.test(segment));
  }
  if (CAMEL.test(run)) return true;
  return HAS_DIGIT.test(run) && !NOT_A_NAME.test(run);
}

/**
 * The identifiers a text names, in order: every run that {@link looksLikeIdentifier}, every
 * `--flag`, every `name(` call, and every code span that holds a single name (even a plain word:
 * `` `schema` ``); in a longer code span, the runs that qualify on their own.
 *
 * @example
 * findIdentifiers('Is `localQueue` on? See --schema, add_job() and ORB-1202.').map((found) => found.name)
 * // ['localQueue', 'schema', 'add_job', 'ORB-1202']
 */
export function findIdentifiers(text: string): FoundIdentifier[] {
  if (!MAY_NAME.test(text)) return [];
  const found: FoundIdentifier[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const code = match[1];
    if (code === undefined) {
      const name = match[3]!;
      if (match[2] !== undefined || match[4] !== undefined || looksLikeIdentifier(name)) {
        const marked = match[2] !== undefined || match[4] !== undefined;
        found.push({ name, flag: match[2] !== undefined, marked, offset: match.index + (match[2]?.length ?? 0) });
      }
      continue;
    }
    const single = SINGLE_NAME.test(code);
    for (const run of code.matchAll(RUN)) {
      const name = run[2]!;
      if (single || run[1] !== undefined || run[3] !== undefined || looksLikeIdentifier(name)) {
        found.push({ name, flag: run[1] !== undefined, marked: true, offset: match.index + 1 + run.index + (run[1]?.length ?? 0) });
      }
    }
  }
  return found;
}

/**
 * How an identifier is spelled: lower-cased as written, with `--` in front of a flag.
 *
 * @example
 * spellingOf({ name: 'addJob', flag: false }) // 'addjob'
 * spellingOf({ name: 'schema', flag: true })  // '--schema'
 */
export function spellingOf(found: Pick<FoundIdentifier, 'name' | 'flag'>): string {
  return `${found.flag ? '--' : ''}${found.name.toLowerCase()}`;
}

/**
 * A spelling and each of its namespace suffixes that starts with a letter
 * (`quartz.scheduler.idlewaittime` is also `scheduler.idlewaittime` and `idlewaittime`;
 * `127.0.0.1/my_db` is also `my_db`): a definition of the qualified name also defines the short one.
 *
 * @example
 * spellingSuffixes('graphile_worker.add_job') // ['graphile_worker.add_job', 'add_job']
 */
export function spellingSuffixes(spelling: string): string[] {
  const parts = spelling.split(NAMESPACE_SEPARATOR);
  const suffixes = [spelling];
  for (let start = 1; start < parts.length; start += 1) {
    if (HAS_LETTER.test(parts[start]!)) suffixes.push(parts.slice(start).join('.'));
  }
  return suffixes;
}

/**
 * The keys of a defined spelling: each of its {@link spellingSuffixes} with separators and `--`
 * dropped, each once, one-letter keys left out.
 *
 * @example
 * definitionKeys('graphile_worker.add_job') // ['graphileworkeraddjob', 'addjob']
 */
export function definitionKeys(spelling: string): string[] {
  const keys = spellingSuffixes(spelling).map(keyOf);
  return [...new Set(keys)].filter((key) => key.length >= MIN_KEY_LENGTH);
}

/**
 * The key of a spelling: its letters, digits and marks (a spelling is already lower-cased), what
 * `normalizeIdentifier` (tokenize.ts) gives for the name as written.
 *
 * @example
 * keyOf('graphile_worker.add_job') // 'graphileworkeraddjob'
 */
export function keyOf(spelling: string): string {
  return spelling.replace(NOT_IN_KEY, '');
}

/** An identifier a query names: the spellings to look its definition up under, best first, and their keys. */
export interface QueryIdentifier {
  name: string;
  /** The whole spelling, then the last namespace segment when that is an identifier itself. */
  spellings: string[];
  /** `spellings[i]` with separators dropped. */
  keys: string[];
}

/**
 * The identifiers a query names, each once: the whole spelling first, then the last namespace
 * segment when that segment is an identifier itself (`graphile_worker.force_unlock_workers` falls
 * back to `force_unlock_workers`, while `orbit.toml` does not fall back to `toml`).
 *
 * @example
 * queryIdentifiers('Is --schema like `graphile_worker.add_jobs`?')
 * // [{ name: 'schema', spellings: ['--schema'], keys: ['schema'] },
 * //  { name: 'graphile_worker.add_jobs', spellings: ['graphile_worker.add_jobs', 'add_jobs'], keys: ['graphileworkeraddjobs', 'addjobs'] }]
 * queryIdentifiers('How do retries work?') // []
 */
export function queryIdentifiers(query: string): QueryIdentifier[] {
  const bySpelling = new Map<string, QueryIdentifier>();
  for (const found of findIdentifiers(query)) {
    const spelling = spellingOf(found);
    const last = spelling.split(NAMESPACE_SEPARATOR).pop()!;
    const candidates = last !== spelling && looksLikeIdentifier(last) ? [spelling, last] : [spelling];
    const spellings = candidates.filter((candidate) => keyOf(candidate).length >= MIN_KEY_LENGTH);
    if (spellings.length === 0 || bySpelling.has(spelling)) continue;
    bySpelling.set(spelling, { name: found.name, spellings, keys: spellings.map(keyOf) });
  }
  return [...bySpelling.values()];
}
