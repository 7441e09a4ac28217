/**
 * The tokens an Atlas index makes of text without spaces, where FTS5's `unicode61` would make a
 * whole clause one token (Chinese, Japanese) or cut words at their vowel signs (Thai): the words
 * of text/scripts.ts, Han and kana as character bigrams (and, at ingest, characters), Thai, Lao,
 * Khmer and Myanmar as `Intl.Segmenter` words. Every other character is tokenized as FTS5 does
 * (fts5-tokens.ts reads the runs with these functions when its `spaceless` option is set).
 */
import { runWords, SCRIPT_CLASS } from '../../text/scripts.ts';

/**
 * Where the run of one script class that starts at `start` ends (a surrogate pair read as one
 * character).
 *
 * @example
 * spacelessRunEnd('使用redis缓存', 0); // 2
 */
export function spacelessRunEnd(text: string, start: number): number {
  const cls = SCRIPT_CLASS[text.charCodeAt(start)];
  let end = start;
  while (end < text.length) {
    const code = text.charCodeAt(end);
    if (SCRIPT_CLASS[code] !== cls) break;
    end += code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(end + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
  }
  return end;
}

/**
 * Gives `visit` the tokens of one run, numbered from `position`, and returns the next position
 * (without `visit`, only counts them).
 *
 * @example
 * visitSpacelessRun('北京大学', false, (token, at) => console.log(at, token), 0); // 0 北京, 1 京大, 2 大学; returns 3
 */
export function visitSpacelessRun(
  run: string,
  unigrams: boolean,
  visit: ((token: string, position: number) => void) | undefined,
  position: number,
): number {
  const words = runWords(run, unigrams);
  if (visit === undefined) return position + words.length;
  let next = position;
  for (const { word } of words) visit(word, next++);
  return next;
}
