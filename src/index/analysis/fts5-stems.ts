// The end of a token as FTS5 makes it: the porter stem of the folded token (FTS5's Porter port on
// its UTF-8 bytes, fts5-porter.ts), cached per tokenizer, and the cut at FTS5's largest token.
import { PORTER_MAX_TOKEN_BYTES, porterStem } from './fts5-porter.ts';

/** FTS5 stores at most this many bytes of a token (FTS5_MAX_TOKEN_SIZE). */
export const FTS5_MAX_TOKEN_BYTES = 32768;

/** The last letters of every Porter suffix rule: a word ending otherwise is its own stem. */
const STEMMABLE_LAST = new Uint8Array(128).map((_, code) => ('cdegilmnrstuy'.includes(String.fromCharCode(code)) ? 1 : 0));
/** Stems a tokenizer remembers by default (see `Fts5TokenizerOptions.stemCacheSize`). */
export const DEFAULT_STEM_CACHE_SIZE = 131072;

/**
 * The stemmer of one tokenizer: the porter stem of a folded token as FTS5 gives it, or the token
 * when FTS5 would not stem it (`ascii`: the token holds only ASCII). The last `cacheSize` stems
 * are remembered by token (0: none), in a cache that starts over when full.
 *
 * @example
 * createPorterStemmer(1024)('retrying', true); // 'retri'
 */
export function createPorterStemmer(cacheSize: number): (token: string, ascii: boolean) => string {
  const stems = new Map<string, string>();
  const bytes = new Uint8Array(PORTER_MAX_TOKEN_BYTES + 64);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  return (token, ascii) => {
    // Bounds in UTF-8 bytes: a non-ASCII token has at least as many bytes as UTF-16 units.
    if (token.length > PORTER_MAX_TOKEN_BYTES || (ascii && (token.length < 3 || !STEMMABLE_LAST[token.charCodeAt(token.length - 1)]))) return token;
    const cached = stems.get(token);
    if (cached !== undefined) return cached;
    let length = token.length;
    if (ascii) {
      for (let i = 0; i < length; i++) bytes[i] = token.charCodeAt(i);
    } else {
      const encoded = encoder.encode(token);
      if (encoded.length > PORTER_MAX_TOKEN_BYTES || encoded.length < 3) return token;
      bytes.set(encoded);
      length = encoded.length;
    }
    const stemLength = porterStem(bytes, length);
    const result = ascii ? asciiStem(token, bytes, stemLength) : decoder.decode(bytes.subarray(0, stemLength));
    if (stems.size >= cacheSize) stems.clear();
    if (cacheSize > 0) stems.set(token, result);
    return result;
  };
}

/** The stem in `bytes` of an ASCII token, as a string: mostly a prefix of the token, maybe with a new ending. */
function asciiStem(token: string, bytes: Uint8Array, length: number): string {
  let same = 0;
  while (same < length && bytes[same] === token.charCodeAt(same)) same++;
  const prefix = same === token.length ? token : token.slice(0, same);
  return same === length ? prefix : prefix + String.fromCharCode(...bytes.subarray(same, length));
}

/**
 * Whether every UTF-16 unit of `token` is ASCII.
 *
 * @example
 * isAscii('naive'); // true
 * isAscii('naïve'); // false
 */
export function isAscii(token: string): boolean {
  for (let i = 0; i < token.length; i++) if (token.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * The token as FTS5 stores it: its first 32768 UTF-8 bytes (a cut character reads as U+FFFD).
 *
 * @example
 * cutToken('a'.repeat(40000), new TextEncoder(), new TextDecoder()).length; // 32768
 */
export function cutToken(token: string, encoder: TextEncoder, decoder: TextDecoder): string {
  if (isAscii(token)) return token.length > FTS5_MAX_TOKEN_BYTES ? token.slice(0, FTS5_MAX_TOKEN_BYTES) : token;
  const encoded = encoder.encode(token);
  return encoded.length > FTS5_MAX_TOKEN_BYTES ? decoder.decode(encoded.subarray(0, FTS5_MAX_TOKEN_BYTES)) : token;
}
