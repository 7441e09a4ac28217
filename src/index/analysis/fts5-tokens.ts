/**
 * The tokens SQLite FTS5 makes of a text, in TypeScript: `tokenize='unicode61 remove_diacritics 2'`
 * and `tokenize='porter unicode61 remove_diacritics 2'` (the two tokenizers an Atlas index can
 * use, schema.ts), term for term, so an index built outside FTS5 ranks with FTS5's terms.
 *
 * unicode61: a token is a run of token characters (SQLite's categories L*, N*, Co, and code
 * points its Unicode 6.1-era tables leave unassigned, such as emoji newer than 2012: U+1F916 is a
 * token, U+1F600 a separator), plus the diacritics U+0300..U+0331 that SQLite lets continue (not
 * start) a token; everything else separates, including most combining marks (Arabic harakat,
 * Devanagari vowel signs split words, as in FTS5). Each code point is folded on its own:
 * ASCII A-Z lower-cased, others case-folded and stripped of diacritics (fts5-unicode-data.ts,
 * read from SQLite itself). A lone surrogate separates (it reaches SQLite as U+FFFD).
 * porter: FTS5's own Porter port on the folded token's UTF-8 bytes (fts5-porter.ts).
 * A token longer than 32768 UTF-8 bytes is cut there, as FTS5 stores it.
 *
 * No known difference, as JS sees FTS5's terms. One subtlety: a token cut at 32768 bytes in the
 * middle of a multi-byte character, or a porter stem cut inside one (`ing` after U+1000, bytes
 * E1 80 80, loses its last 80 as a "double consonant"), is invalid UTF-8 in FTS5; its broken
 * bytes read as U+FFFD here, as better-sqlite3 returns such a term (fts5-tokens.test.ts pins both).
 * Tested token for token against FTS5 on every code point, the real corpora and random text.
 *
 * An Atlas index (the `spaceless` option) parts from FTS5 where FTS5 cannot read a language: text
 * without spaces as words (spaceless-tokens.ts), a combining mark as part of the word it follows
 * (a Hindi word whole, an Arabic word without its harakat), and the accents of every script folded,
 * not only Latin ones (Greek `ά` as `α`): fts5-unicode.ts `readMarks`.
 */
import { AtlasError } from '../../errors.ts';
import { createFts5UnicodeTables, readMarks, SEPARATOR, TOKEN_CHAR } from './fts5-unicode.ts';
import { OTHER_SCRIPT, SCRIPT_CLASS } from '../../text/scripts.ts';
import { spacelessRunEnd, visitSpacelessRun } from './spaceless-tokens.ts';
import { createPorterStemmer, cutToken, DEFAULT_STEM_CACHE_SIZE, FTS5_MAX_TOKEN_BYTES, isAscii } from './fts5-stems.ts';

export { FTS5_MAX_TOKEN_BYTES } from './fts5-stems.ts';

/** Options of {@link createFts5Tokenizer}. */
export interface Fts5TokenizerOptions {
  /** `porter unicode61 remove_diacritics 2` when true, `unicode61 remove_diacritics 2` when false. */
  porter: boolean;
  /** Most stems remembered (by folded token) before the cache starts over; default 131072. */
  stemCacheSize?: number;
  /**
   * Text without spaces (Han, kana, Thai, Lao, Khmer, Myanmar) read as words (text/scripts.ts):
   * `'ingest'` its bigrams and characters, `'query'` its bigrams (a lone character as itself);
   * and either way a combining mark continues its word and the accents of every script fold
   * away (fts5-unicode.ts `readMarks`).
   * Unset: as FTS5 (a whole run one token, a word cut at its marks). An Atlas index uses them
   * (spaceless-tokens.ts).
   */
  spaceless?: 'ingest' | 'query';
}

/** Tokenizes text exactly as an FTS5 table with the same tokenizer would. */
export interface Fts5Tokenizer {
  readonly porter: boolean;
  /** Every token of `text`, in order, duplicates kept, folded (and stemmed with porter). */
  tokens(text: string): string[];
  /**
   * The same tokens, one call each, without building an array (for ingest); `position` counts
   * tokens from 0, as FTS5's offsets (`fts5vocab` instance tables) do.
   */
  forEachToken(text: string, visit: (token: string, position: number) => void): void;
  /** How many tokens `text` has (its FTS5 column size), without building them. */
  count(text: string): number;
  /**
   * Every token of `text` as folded before stemming and cutting (for callers that cache what they
   * make of each folded token); {@link Fts5Tokenizer.termOf} turns one into the token that
   * {@link Fts5Tokenizer.forEachToken} gives.
   */
  forEachFolded(text: string, visit: (folded: string) => void): void;
  /**
   * The tokens of {@link Fts5Tokenizer.forEachFolded}, but an ASCII one as its place in `text`
   * (`start` to `end`) and the {@link foldedHash} of its folded form, upper-case letters read as
   * lower-case when `upper` says it has some: a caller that looks tokens up by their characters
   * makes no string for one it has seen. The others go to `visit` as folded strings.
   */
  forEachFoldedSpan(
    text: string,
    span: (text: string, start: number, end: number, hash: number, upper: boolean) => void,
    visit: (folded: string) => void,
  ): void;
  /** The token (stemmed with porter, cut as FTS5 stores it) of a folded token of {@link Fts5Tokenizer.forEachFolded}. */
  termOf(folded: string): string;
}

/** ASCII: 0 separator, 1 lower-case letter or digit, 2 upper-case letter. */
const ASCII_KIND = new Uint8Array(128).map((_, code) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) ? 1 : code >= 0x41 && code <= 0x5a ? 2 : 0,
);
/** FNV-1a, 32 bits: the hash of {@link foldedHash}. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/**
 * The hash {@link Fts5Tokenizer.forEachFoldedSpan} gives with an ASCII token: FNV-1a over the
 * UTF-16 units of its folded form.
 *
 * @example
 * foldedHash('retries'); // the hash given with the span of "Retries" in a text
 */
export function foldedHash(folded: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < folded.length; i++) hash = Math.imul(hash ^ folded.charCodeAt(i), FNV_PRIME);
  return hash;
}

function checkOptions(options: Fts5TokenizerOptions): void {
  if (typeof options !== 'object' || options === null || typeof options.porter !== 'boolean') {
    const got = typeof options === 'object' && options !== null ? JSON.stringify(options.porter) : String(options);
    throw new AtlasError('usage', `Atlas: createFts5Tokenizer needs options.porter true or false, got ${got}. Pass e.g. { porter: true }.`);
  }
  const size = options.stemCacheSize;
  if (size !== undefined && !(Number.isInteger(size) && size >= 0)) {
    throw new AtlasError('usage', `Atlas: createFts5Tokenizer options.stemCacheSize must be a non-negative integer, got ${String(size)}. Pass e.g. 131072, or 0 for no cache.`);
  }
  const spaceless = options.spaceless;
  if (spaceless !== undefined && spaceless !== 'ingest' && spaceless !== 'query') {
    throw new AtlasError('usage', `Atlas: createFts5Tokenizer options.spaceless must be 'ingest', 'query' or unset, got ${JSON.stringify(spaceless)}.`);
  }
}

/**
 * Creates a tokenizer that reproduces FTS5 `[porter] unicode61 remove_diacritics 2`, or with
 * `spaceless` an Atlas index's reading of the scripts FTS5 cannot read (fts5-unicode.ts
 * `readMarks`, spaceless-tokens.ts). Each tokenizer keeps its own tables and stem cache; make one
 * per index and reuse it.
 *
 * @example
 * const tokenizer = createFts5Tokenizer({ porter: true });
 * tokenizer.tokens('Retrying ORB-1202 jobs, naïvely'); // ['retri', 'orb', '1202', 'job', 'naiv']
 * createFts5Tokenizer({ porter: false }).tokens('Ærø café'); // ['ærø', 'cafe']
 */
export function createFts5Tokenizer(options: Fts5TokenizerOptions): Fts5Tokenizer {
  checkOptions(options);
  const { bmpClass, bmpFold, astralClass, astralFold } = createFts5UnicodeTables();
  const porter = options.porter;
  const spaceless = options.spaceless !== undefined;
  if (spaceless) readMarks(bmpClass, bmpFold);
  const unigrams = options.spaceless === 'ingest';
  const stem = createPorterStemmer(options.stemCacheSize ?? DEFAULT_STEM_CACHE_SIZE);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  const folded: number[] = [];

  /** Class of the code point at `index` (its width is 2 for a surrogate pair, read by the caller). */
  function classAt(text: string, code: number, index: number): number {
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) return astralClass(((code - 0xd800) << 10) + (next - 0xdc00) + 0x10000);
    }
    return bmpClass[code] ?? SEPARATOR;
  }

  /** Folds text[start..end), a token with a non-ASCII character, code point by code point. */
  function foldToken(text: string, start: number, end: number): string {
    folded.length = 0;
    for (let i = start; i < end; i++) {
      const code = text.charCodeAt(i);
      if (code < 0x80) {
        folded.push(code >= 0x41 && code <= 0x5a ? code + 32 : code);
        continue;
      }
      const next = text.charCodeAt(i + 1);
      if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        const fold = astralFold(((code - 0xd800) << 10) + (next - 0xdc00) + 0x10000);
        if (fold >= 0x10000) folded.push(0xd800 + ((fold - 0x10000) >> 10), 0xdc00 + ((fold - 0x10000) & 0x3ff));
        else if (fold !== 0) folded.push(fold);
        i++;
        continue;
      }
      const fold = bmpFold[code] ?? code;
      if (fold !== 0) folded.push(fold);
    }
    let token = '';
    for (let i = 0; i < folded.length; i += 4096) token += String.fromCharCode(...folded.slice(i, i + 4096));
    return token;
  }

  function scan(
    text: string,
    visit: ((token: string, position: number) => void) | undefined,
    finish = true,
    span?: (text: string, start: number, end: number, hash: number, upper: boolean) => void,
  ): number {
    if (typeof text !== 'string') {
      throw new AtlasError('usage', `Atlas: the FTS5 tokenizer needs a string, got ${text === null ? 'null' : typeof text}. Pass the text of a chunk or query.`);
    }
    const length = text.length;
    let count = 0;
    let i = 0;
    while (i < length) {
      let code = text.charCodeAt(i);
      if (code < 0x80) {
        if (ASCII_KIND[code] === 0) {
          i++;
          continue;
        }
      } else if (spaceless && SCRIPT_CLASS[code] !== OTHER_SCRIPT) {
        const end = spacelessRunEnd(text, i);
        count = visitSpacelessRun(text.slice(i, end), unigrams, visit, count);
        i = end;
        continue;
      } else if (classAt(text, code, i) !== TOKEN_CHAR) {
        i += code >= 0xd800 && code <= 0xdbff && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
        continue;
      }
      const start = i;
      let kind = 0; // bits: 1 an ASCII upper-case letter, 2 a non-ASCII code point
      let hash = FNV_OFFSET; // of the folded ASCII units (see foldedHash)
      while (i < length) {
        code = text.charCodeAt(i);
        if (code < 0x80) {
          const ascii = ASCII_KIND[code];
          if (ascii === 0) break;
          if (ascii === 2) {
            kind |= 1;
            code += 32;
          }
          hash = Math.imul(hash ^ code, FNV_PRIME);
          i++;
        } else {
          if (classAt(text, code, i) === SEPARATOR || (spaceless && SCRIPT_CLASS[code] !== OTHER_SCRIPT)) break;
          kind |= 2;
          i += code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
        }
      }
      if (visit === undefined) {
        count++;
        continue;
      }
      if (span !== undefined && kind < 2) {
        span(text, start, i, hash, kind === 1);
        count++;
        continue;
      }
      let token = kind === 0 ? text.slice(start, i) : kind === 1 ? text.slice(start, i).toLowerCase() : foldToken(text, start, i);
      if (finish) {
        if (porter) token = stem(token, kind < 2 || isAscii(token));
        if (token.length > FTS5_MAX_TOKEN_BYTES / 3) token = cutToken(token, encoder, decoder);
      }
      visit(token, count++);
    }
    return count;
  }

  return {
    porter,
    tokens(text) {
      const tokens: string[] = [];
      scan(text, (token) => tokens.push(token));
      return tokens;
    },
    forEachToken(text, visit) {
      scan(text, visit);
    },
    count(text) {
      return scan(text, undefined);
    },
    forEachFolded(text, visit) {
      scan(text, visit, false);
    },
    forEachFoldedSpan(text, span, visit) {
      scan(text, visit, false, span);
    },
    termOf(folded) {
      const token = porter ? stem(folded, isAscii(folded)) : folded;
      return token.length > FTS5_MAX_TOKEN_BYTES / 3 ? cutToken(token, encoder, decoder) : token;
    },
  };
}
