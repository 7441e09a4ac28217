// Claim-level support: the answer text split into claims, each scored against the verified quotes.
import { abstention, type Answer, type Claim } from './answer.ts';
import { contentTerms, identifiers, stem, words } from '../../text/text.ts';
import { ABBREVIATIONS as SENTENCE_ABBREVIATIONS, dotEndsSentence } from '../../text/sentences.ts';

/**
 * Support score a claim needs to count as supported (see {@link claimSupport}); calibrated on the
 * dev sets' answers (scripts/calibrate-claims.ts, docs/calibration.md "Claim support").
 */
export const DEFAULT_CLAIM_THRESHOLD = 0.6;

/** Weight of an identifier or a number of a claim in its support score (a content word weighs 1). */
export const ANCHOR_WEIGHT = 2;

/** The abstain reason of a strict answer none of whose claims is supported. */
export const NO_SUPPORTED_CLAIM = 'no claim of the answer is supported by a verified quote';

/** Options of {@link assessClaims} and {@link applyClaimSupport}. */
export interface ClaimOptions {
  /** Score a claim needs (default {@link DEFAULT_CLAIM_THRESHOLD}). */
  threshold?: number;
}

/** What a claim asks of its quotes: content terms, identifiers and numbers, normalised. */
interface ClaimUnits {
  terms: string[];
  identifiers: string[];
  numbers: string[];
}

/** Abbreviations whose final dot does not end a claim: the docs' own (text/sentences.ts), and `etc.` */
const ABBREVIATIONS = new Set([...SENTENCE_ABBREVIATIONS, 'etc']);

// "one" is left out: far more often a pronoun ("the one that failed") than a count.
const NUMBER_WORDS = new Map(
  Object.entries({
    zero: '0', two: '2', three: '3', four: '4', five: '5', six: '6', seven: '7', eight: '8', nine: '9', ten: '10',
    eleven: '11', twelve: '12', twenty: '20', thirty: '30', forty: '40', fifty: '50', hundred: '100', thousand: '1000',
  }),
);

/**
 * Splits an answer text into claims: each line (a list item's marker and a heading line's `#`
 * left out), then each line into sentences: after `.`, `!` or `?` and whitespace, unless the
 * word before the dot is an abbreviation (`e.g.`, `etc.`, `Dr.`) or an initial (`J.`); and at
 * `; ` between clauses. Code spans (`` `a.b; c` ``) are never split, decimals (`1.5`) and dotted
 * names have no whitespace after their dot. Citation markers right after a sentence
 * (`It fails. [1] Retry. [2]`) end it and are part of it; they never count as numbers of a claim
 * ({@link claimSupport}). A piece without a letter or a digit (`---`, `:`) is no
 * claim. Every claim is an exact substring of `text`, in order.
 *
 * @example
 * splitClaims('Leases last 45 minutes; set lease_seconds.'); // ['Leases last 45 minutes;', 'set lease_seconds.']
 * splitClaims('Use e.g. `a.b`. It is 1.5 s.'); // ['Use e.g. `a.b`.', 'It is 1.5 s.']
 * splitClaims('It fails. [1] Retry it. [2]'); // ['It fails. [1]', 'Retry it. [2]']
 */
export function splitClaims(text: string): string[] {
  const claims: string[] = [];
  // Code spans masked with a neutral character of the same length, so offsets stay exact.
  const masked = text.replace(/`[^`\n]*`/g, (span) => 'x'.repeat(span.length));
  let lineStart = 0;
  for (const line of masked.split('\n')) {
    const marker = /^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)?/.exec(line)?.[0].length ?? 0;
    let start = lineStart + marker;
    const end = lineStart + line.length;
    // Chinese and Japanese sentences end at 。！？；, a closing quote or bracket with them, spaces or
    // not; those of other scripts at their own full stops and question marks (text/sentences.ts).
    for (const match of line.slice(marker).matchAll(/([.!?])\s+|;\s+|([。！？；।॥؟۔։።፧။។།][」』”’）]?)\s*/g)) {
      const at = lineStart + marker + (match.index ?? 0);
      if (match[1] === '.' && !dotEndsSentence(masked.slice(start, at + 1), ABBREVIATIONS)) continue;
      // Citation markers after the sentence ("... limit. [2]") end it: they belong to it.
      const next = at + match[0].length;
      const markers = LEADING_MARKERS.exec(masked.slice(next, end))?.[0] ?? '';
      pushClaim(claims, text.slice(start, markers === '' ? at + (match[2]?.length ?? 1) : next + markers.length));
      start = next + markers.length;
    }
    pushClaim(claims, text.slice(start, end));
    lineStart = end + 1;
  }
  return claims;
}

/** Citation markers (`[1] [2]`) at the start of a text, with the blanks after them. */
const LEADING_MARKERS = /^(?:\[\d+\][ \t]*)+/;

/** A citation marker of an answer text (`[2]`): an index into its citations, no part of a claim's wording. */
const CITATION_MARKER = /\[\d+\]/g;

function pushClaim(claims: string[], piece: string): void {
  const trimmed = piece.trim();
  if (/[\p{L}\p{N}]/u.test(trimmed)) claims.push(trimmed);
}

/**
 * The lexical support score of a claim against quotes, in [0, 1]: the weighted share of the
 * claim's units that occur in the quotes. Units are its content words (stopwords out, stemmed:
 * "leases" meets "lease"; weight 1), its identifiers (error codes such as `ERR-123`, snake_case,
 * camelCase and dotted names, env vars, `--flags`, short code spans; weight {@link ANCHOR_WEIGHT})
 * and its numbers (digits with `,`/`_` separators dropped, and the number words two to twelve,
 * twenty ... thousand; weight {@link ANCHOR_WEIGHT}). An identifier counts when its normalised
 * spelling (lowercase, no backticks, backslashes or trailing `()`) occurs in a quote; a number
 * when a quote holds the same number. `missing` lists the claim's identifiers and numbers that no
 * quote holds: one is enough to make the claim unsupported, whatever the score. A claim with no
 * unit scores 0.
 *
 * @example
 * claimSupport('Leases last 45 minutes.', ['A lease lasts 60 seconds.']); // { score: 0.4, missing: ['45'] }
 */
export function claimSupport(claim: string, quotes: string[]): { score: number; missing: string[] } {
  const units = claimUnits(claim);
  const quoteTerms = new Set(quotes.flatMap((quote) => words(quote).map(stem)));
  const quoteText = quotes.map(normalizeIdentifier).join('\n');
  const quoteNumbers = new Set(quotes.flatMap(numbersOf));
  const missing = [
    ...units.identifiers.filter((identifier) => !quoteText.includes(identifier)),
    ...units.numbers.filter((number) => !quoteNumbers.has(number)),
  ];
  const total = units.terms.length + ANCHOR_WEIGHT * (units.identifiers.length + units.numbers.length);
  if (total === 0) return { score: 0, missing };
  const covered = units.terms.filter((term) => quoteTerms.has(term) || inflectedIn(term, quoteTerms)).length + ANCHOR_WEIGHT * (units.identifiers.length + units.numbers.length - missing.length);
  return { score: Math.round((covered / total) * 1000) / 1000, missing };
}

/** Letters of the last inflection a word of another script than Latin may change ({@link inflectedIn}). */
const INFLECTION_LETTERS = 3;

/**
 * Whether the quotes hold a claim's word in another inflection, for the words of a script other
 * than Latin, which `stem` leaves whole: two words that share all but their last
 * {@link INFLECTION_LETTERS} letters, and at least 4 ("повернуть" and "повёрнут", "объекта" and
 * "объект", "φύλλων" and "φύλλα"). Russian, Greek, Hindi or Arabic answers paraphrase their
 * quotes in other cases and tenses; a real model's correct Russian answers had 7 of 16 claims
 * supported. Latin-script words keep `stem`'s matching ("state" is no "statement").
 */
function inflectedIn(term: string, quoteTerms: ReadonlySet<string>): boolean {
  if (/[a-z]/.test(term) || term.length < 4) return false;
  for (const quoteTerm of quoteTerms) {
    if (/[a-z]/.test(quoteTerm)) continue;
    let shared = 0;
    while (shared < term.length && term.charCodeAt(shared) === quoteTerm.charCodeAt(shared)) shared++;
    if (shared >= 4 && shared >= Math.min(term.length, quoteTerm.length) - INFLECTION_LETTERS) return true;
  }
  return false;
}

function claimUnits(text: string): ClaimUnits {
  const claim = text.replace(CITATION_MARKER, ' ');
  const found = [...identifiers(claim), ...(claim.match(/(?<![\w-])--?[a-zA-Z][\w-]*/g) ?? [])];
  const unique = [...new Set(found.map(normalizeIdentifier).filter((identifier) => /[a-z]/.test(identifier)))];
  // The digits of an identifier (ORB-1203) are part of it, not a number of their own.
  const outsideIdentifiers = found.reduce((text, identifier) => text.split(identifier).join(' '), claim);
  const numbers = [...new Set(numbersOf(outsideIdentifiers))];
  const terms = contentTerms(words(claim).filter((word) => !/^\d+$/.test(word) && !NUMBER_WORDS.has(word)).join(' '));
  return { terms, identifiers: unique, numbers };
}

function normalizeIdentifier(text: string): string {
  return text.toLowerCase().replace(/[`\\*]/g, '').replace(/\(\)$/, '').replace(/\s+/g, ' ').trim();
}

function numbersOf(text: string): string[] {
  // Separators and leading zeros dropped: "5_000" and "5,000" are 5000, the "05" of a date is 5.
  const digits = (text.match(/\d+(?:[,_]\d{3})*(?:\.\d+)?/g) ?? []).map((number) => number.replace(/[,_]/g, '').replace(/^0+(?=\d)/, ''));
  const spelled = words(text).flatMap((word) => NUMBER_WORDS.get(word) ?? []);
  return [...digits, ...spelled];
}

/**
 * The claims of an answer: its text split by {@link splitClaims}, each scored by
 * {@link claimSupport} against the quotes of all its verified citations together (a claim may
 * join two quotes); `citations` are the indexes (into `answer.citations`) of the quotes that
 * reach the threshold alone, or, when none does, of those scoring at least half the best one. A claim is
 * supported when it scores at least the threshold, no identifier or number of it is missing from
 * the quotes, and a citation backs it. An abstention makes no claim.
 *
 * @example
 * assessClaims({ text: 'Leases last 45 minutes; set lease_seconds.', citations, abstained: false });
 * // [{ text: 'Leases last 45 minutes;', supported: false, score: 0.2, citations: [0] },
 * //  { text: 'set lease_seconds.', supported: true, score: 1, citations: [0] }]
 */
export function assessClaims(answer: Pick<Answer, 'text' | 'citations' | 'abstained'>, options: ClaimOptions = {}): Claim[] {
  if (answer.abstained) return [];
  const threshold = options.threshold ?? DEFAULT_CLAIM_THRESHOLD;
  // A stale quote (no longer in the docs as they are now) backs nothing.
  const quotes = answer.citations.map((citation) => (citation.stale ? '' : citation.quote));
  return splitClaims(answer.text).map((text) => {
    const { score, missing } = claimSupport(text, quotes);
    const each = quotes.map((quote) => claimSupport(text, [quote]).score);
    const best = Math.max(0, ...each);
    // The quotes that back the claim alone, else (a claim drawn from several) those scoring at least half the best.
    const floor = best >= threshold ? threshold : best / 2;
    const backing = each.flatMap((value, index) => (value > 0 && value >= floor ? [index] : []));
    return { text, supported: score >= threshold && missing.length === 0 && backing.length > 0, score, citations: backing };
  });
}

/**
 * Gives an answer its claims (an abstention claims nothing and is returned as it is, without a
 * `claims` field); with `strict`, removes the unsupported claims from the text (list markers
 * and blank lines they leave go too) and abstains when no claim is supported, with
 * {@link NO_SUPPORTED_CLAIM} as the reason. Citations are kept as verified, so the claims'
 * indexes stay valid. Pieces that are no claim (a lone "---") are dropped in strict mode.
 *
 * @example
 * const { answer, abstainReason } = applyClaimSupport(verified, { strict: true });
 */
export function applyClaimSupport(answer: Answer, options: ClaimOptions & { strict?: boolean } = {}): { answer: Answer; abstainReason?: string } {
  if (answer.abstained) return { answer };
  const claims = assessClaims(answer, options);
  if (!options.strict) return { answer: { ...answer, claims } };
  const kept = claims.filter((claim) => claim.supported);
  if (kept.length === 0) return { answer: abstention(), abstainReason: NO_SUPPORTED_CLAIM };
  return { answer: { ...answer, text: keepClaims(answer.text, claims), claims: kept } };
}

/** The text with only the supported claims, line structure kept. */
function keepClaims(text: string, claims: Claim[]): string {
  const lines: string[] = [];
  let cursor = 0;
  const spans = locateClaims(text, claims);
  for (const rawLine of text.split('\n')) {
    const lineEnd = cursor + rawLine.length;
    const inLine = spans.filter((span) => span.start >= cursor && span.end <= lineEnd);
    const marker = /^\s*(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s*)?/.exec(rawLine)?.[0] ?? '';
    const pieces = inLine.filter((span) => span.claim.supported).map((span) => span.claim.text);
    if (pieces.length > 0) lines.push(`${marker}${pieces.join(' ')}`);
    else if (rawLine.trim() === '' && lines.length > 0 && lines.at(-1) !== '') lines.push('');
    cursor = lineEnd + 1;
  }
  while (lines.at(-1) === '') lines.pop();
  return lines.join('\n');
}

/**
 * Where each claim stands in the answer text: claims are exact substrings in order, so each is
 * found from the end of the one before.
 *
 * @example
 * locateClaims(answer.text, answer.claims); // [{ claim, start: 0, end: 23 }, ...]
 */
export function locateClaims(text: string, claims: Claim[]): Array<{ claim: Claim; start: number; end: number }> {
  const spans: Array<{ claim: Claim; start: number; end: number }> = [];
  let from = 0;
  for (const claim of claims) {
    const start = text.indexOf(claim.text, from);
    if (start < 0) continue;
    spans.push({ claim, start, end: start + claim.text.length });
    from = start + claim.text.length;
  }
  return spans;
}

/**
 * The answer text with `[unsupported]` after each unsupported claim (for the CLI and reports).
 *
 * @example
 * markUnsupported(answer); // 'Leases last 45 minutes; [unsupported] set lease_seconds.'
 */
export function markUnsupported(answer: Pick<Answer, 'text' | 'claims'>, mark = '[unsupported]'): string {
  let text = answer.text;
  for (const span of locateClaims(answer.text, answer.claims ?? []).reverse()) {
    if (!span.claim.supported) text = `${text.slice(0, span.end)} ${mark}${text.slice(span.end)}`;
  }
  return text;
}
