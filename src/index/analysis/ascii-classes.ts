// The classes of ASCII characters the tokenizer's fast paths read text by (tokenize.ts words and
// splitCamelCase, identifier-expansions.ts): one table lookup per character instead of a regular
// expression over Unicode classes.

/** Any other ASCII character. */
export const OTHER = 0;
/** a-z */
export const LOWER = 1;
/** A-Z */
export const UPPER = 2;
/** 0-9 */
export const DIGIT = 3;
/** `_` */
export const UNDERSCORE = 4;
/** `-`, `.`, `:`, `/`: what joins the runs of an identifier (`os.path`, `ORB-1202`). */
export const SEPARATOR = 5;

/** The class of each ASCII code (0-127). */
export const ASCII_CLASS: Uint8Array = (() => {
  const classes = new Uint8Array(128);
  for (let code = 0; code < 128; code += 1) {
    const char = String.fromCharCode(code);
    if (char >= 'a' && char <= 'z') classes[code] = LOWER;
    else if (char >= 'A' && char <= 'Z') classes[code] = UPPER;
    else if (char >= '0' && char <= '9') classes[code] = DIGIT;
    else if (char === '_') classes[code] = UNDERSCORE;
    else if ('-.:/'.includes(char)) classes[code] = SEPARATOR;
  }
  return classes;
})();

/**
 * Whether text[start..end) is all ASCII.
 *
 * @example
 * isAscii('max_payload_kb'); // true
 * isAscii('café', 0, 3); // true
 */
export function isAscii(text: string, start = 0, end = text.length): boolean {
  for (let position = start; position < end; position += 1) if (text.charCodeAt(position) >= 128) return false;
  return true;
}
