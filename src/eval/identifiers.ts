/** The shapes {@link findIdentifiers} recognises. */
export type IdentifierShape = 'backticked' | 'flag' | 'code' | 'assignment' | 'path' | 'dotted' | 'screaming_case' | 'snake_case' | 'camelCase';

/** One identifier-looking token of a text. */
export interface IdentifierToken {
  text: string;
  shape: IdentifierShape;
}

interface Detector {
  shape: IdentifierShape;
  pattern: RegExp;
  /** Extra condition on the matched token. */
  accept?: (token: string) => boolean;
}

/**
 * The detectors, most specific first; a token overlapping one already found is not reported
 * again. Letters, digits and `_` never continue a token on either side.
 */
const DETECTORS: Detector[] = [
  // Anything in backticks: `job_key_mode = 'unsafe_dedupe'`, `orbit dlq replay`.
  { shape: 'backticked', pattern: /`([^`\n]+)`/g },
  // A long command-line flag: --max-chunks, --dry-run.
  { shape: 'flag', pattern: /(?<![\w-])--[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*/g },
  // An error or ticket code: capitals, a dash, digits (ORB-1202, ERR-123).
  { shape: 'code', pattern: /(?<![\w-])[A-Z][A-Z0-9]+-\d+(?![\w-])/g },
  // A setting written as name=value: KillMode=mixed, ORBIT_LOG_LEVEL=debug.
  { shape: 'assignment', pattern: /(?<![\w.-])[A-Za-z_][\w.-]*=(?:[^\s,;'"`()]*[^\s,;'"`().?!:])/g },
  // An absolute path of two or more segments: /v1/queues, /etc/orbit.
  { shape: 'path', pattern: /(?<![\w/.])(?:\/[\w.-]+){2,}\/?/g },
  // Dotted names whose parts are 2+ characters: orbit.toml, GraphileWorker.Tasks,
  // graphile_worker.add_job; not "e.g." (one-character parts) nor "3.x" (a leading digit).
  { shape: 'dotted', pattern: /(?<![\w.])[A-Za-z_][\w-]*[A-Za-z0-9_](?:\.[A-Za-z_][\w-]*[A-Za-z0-9_])+(?!\w)/g },
  // SCREAMING_CASE with an underscore: GRAPHILE_ENABLE_DANGEROUS_LOGS, ORBIT_LEASE_TIMEOUT.
  { shape: 'screaming_case', pattern: /(?<!\w)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?!\w)/g },
  // snake_case holding a letter: max_payload_kb, job_key; not 5_000 (a number).
  { shape: 'snake_case', pattern: /(?<!\w)[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+(?!\w)/g, accept: (token) => /[A-Za-z]/.test(token) },
  // camelCase starting lowercase (gracefulShutdownAbortTimeout, runAt), or PascalCase of three or
  // more humps (PayloadTooLarge); two-hump capitalised words (JavaScript, McDonald) are names.
  { shape: 'camelCase', pattern: /(?<!\w)(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+){2,})(?!\w)/g },
];

/**
 * The identifier-looking tokens of a query, in order of appearance, each once: backticked
 * spans, `--flags`, codes like `ERR-123`, `name=value` settings, `/absolute/paths`, dotted names,
 * SCREAMING_CASE, snake_case and camelCase (see the detectors above for the exact rules). Plain words, numbers, versions like `3.x` and
 * capitalised names are not identifiers.
 *
 * @example
 * findIdentifiers('Does `--max-chunks` cap ORB-1202 or max_payload_kb?');
 * // [{ text: '--max-chunks', shape: 'backticked' }, { text: 'ORB-1202', shape: 'code' }, { text: 'max_payload_kb', shape: 'snake_case' }]
 */
export function findIdentifiers(query: string): IdentifierToken[] {
  const found: Array<IdentifierToken & { start: number; end: number }> = [];
  for (const { shape, pattern, accept } of DETECTORS) {
    for (const match of query.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (accept && !accept(match[0])) continue;
      if (found.some((token) => start < token.end && end > token.start)) continue;
      found.push({ text: match[1] ?? match[0], shape, start, end });
    }
  }
  const seen = new Set<string>();
  return found
    .sort((a, b) => a.start - b.start)
    .filter((token) => !seen.has(token.text) && seen.add(token.text) !== undefined)
    .map(({ text, shape }) => ({ text, shape }));
}

/**
 * True when a retrieval query names an identifier: its kind is `exact_term`, or it holds a token
 * {@link findIdentifiers} recognises.
 *
 * @example
 * namesIdentifier({ kind: 'semantic', query: 'What does lease_seconds do?' }); // true
 * namesIdentifier({ kind: 'semantic', query: 'How do I retry a job?' }); // false
 */
export function namesIdentifier(query: { kind: string; query: string }): boolean {
  return query.kind === 'exact_term' || findIdentifiers(query.query).length > 0;
}
