/**
 * Documentation text as a reader sees it: markdown rendered as plain text, and placeholder notes
 * (TODO) told apart from documentation. Pure functions, no state.
 */

/** A note that a page is unfinished ("TODO: which VACUUM options should we recommend?"): it says the docs do not know. */
const PLACEHOLDER_NOTE = /\b(?:TODO|FIXME|TBD)\b[^\n]*/g;

/**
 * True when a sentence is a placeholder note, not documentation.
 *
 * @example
 * isPlaceholderNote('TODO: post perfTest results.'); // true
 */
export function isPlaceholderNote(sentence: string): boolean {
  return /^\s*(?:TODO|FIXME|TBD)\b/.test(sentence);
}

/**
 * A text without its placeholder notes (from "TODO" to the end of its line).
 *
 * @example
 * withoutPlaceholderNotes('Intro.\nTODO: write this.'); // 'Intro.\n'
 */
export function withoutPlaceholderNotes(text: string): string {
  return text.replace(PLACEHOLDER_NOTE, '');
}

/** HTML entities that documentation writes in prose, by name. */
const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '\u2014', ndash: '\u2013', hellip: '\u2026',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', times: '\u00d7', rarr: '\u2192', larr: '\u2190',
};

/**
 * Markdown rendered as plain text for display: code ticks, emphasis, link targets, HTML tags and
 * table pipes removed; backslash escapes (`\|`, `\_`) and HTML entities (`&mdash;`, `&#39;`)
 * rendered; whitespace (hard line wraps included) collapsed.
 *
 * @example
 * plainText('Use `add_job` &mdash; see [Jobs](jobs.md) \\| more'); // 'Use add_job \u2014 see Jobs | more'
 */
export function plainText(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^<>]*>/g, '')
    .replace(/(^|[^\\])\|/g, '$1 \u0000 ')
    .replace(/^\s*\u0000\s*|\s*\u0000\s*$/g, '')
    .replace(/\s*\u0000\s*/g, ' | ')
    .replace(/[`*]/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1')
    .replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (whole, name: string) => decodeEntity(whole, name))
    .replace(/\s+/g, ' ')
    .trim();
}

function decodeEntity(whole: string, name: string): string {
  if (name.startsWith('#')) {
    const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  }
  return ENTITIES[name.toLowerCase()] ?? whole;
}
