/** A markdown link or image with no brackets in its label: `[label](url)`, `![alt](src)`. */
const LINK = /!?\[[^[\]\n]*\]\([^()\n]*\)/g;

/**
 * How much a text says in its own words: its letters and digits (any non-ASCII character
 * counts), leaving out images, links (label and target: a link points elsewhere), reference
 * definitions and bare URLs. A badge line, a link-only table of contents or a "See [X](x.md)."
 * pointer count (almost) nothing.
 *
 * @example
 * meaningfulLength('[![npm](https://img.shields.io/npm/v/x.svg)](https://npm.im/x)'); // 0
 * meaningfulLength('- [Install](#install)\n- [Usage](#usage)'); // 0
 * meaningfulLength('See [Install](./install.md) first.'); // 8
 */
export function meaningfulLength(text: string): number {
  // Links without nested brackets, twice: a badge is an image inside a link. Linear: no pattern
  // here can rescan past the next bracket, parenthesis or line end.
  let stripped = text;
  if (stripped.includes('[')) {
    stripped = stripped
      .replace(LINK, '')
      .replace(LINK, '')
      .replace(/^[ \t]*\[[^\]\n]+\]:[ \t]*\S+.*$/gm, '');
  }
  if (stripped.includes('://')) stripped = stripped.replace(/\b(?:https?|ftp):\/\/[^\s)>\]]+/g, '');
  let count = 0;
  for (let index = 0; index < stripped.length; index++) {
    const code = stripped.charCodeAt(index);
    if ((code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code > 127) count++;
  }
  return count;
}
