/**
 * Documentation text as a reader sees it: markdown rendered as plain text, and placeholder notes
 * (TODO) told apart from documentation. Pure functions, no state.
 */
import { decodeEntities } from '../../corpus/markdown/html.ts';

/**
 * A note that a page is unfinished ("TODO: which VACUUM options should we recommend?"): it says
 * the docs do not know. It runs to the end of its line, and on across hard wraps: while a line
 * does not end a sentence, the next line of the same paragraph (not blank, not a list item,
 * quote, table row, heading or fence) still belongs to the note.
 */
const PLACEHOLDER_NOTE = /\b(?:TODO|FIXME|TBD)\b[^\n]*(?:(?<![.!?][ \t]*)\n(?![ \t]*(?:\n|$|[-*+>|#]|\d+\.\s|```|~~~))[^\n]*)*/g;

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
 * The placeholder notes of a text, each as one line (hard wraps joined).
 *
 * @example
 * placeholderNotes('Intro.\nTODO: post results on an\nRDS server.\nEnd.'); // ['TODO: post results on an RDS server.']
 */
export function placeholderNotes(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER_NOTE)].map((match) => match[0].replace(/\s+/g, ' ').trim());
}

/**
 * A text without its placeholder notes (from "TODO" to the end of the note, hard wraps included).
 *
 * @example
 * withoutPlaceholderNotes('Intro.\nTODO: write this.'); // 'Intro.\n'
 */
export function withoutPlaceholderNotes(text: string): string {
  return text.replace(PLACEHOLDER_NOTE, '');
}

/**
 * Markdown rendered as plain text for display: code ticks, emphasis, link targets, HTML tags and
 * table pipes removed; backslash escapes (`\|`, `\_`) and HTML entities (`&mdash;`, `&#39;`)
 * rendered; whitespace (hard line wraps included) collapsed.
 *
 * @example
 * plainText('Use `add_job` &mdash; see [Jobs](jobs.md) \\| more'); // 'Use add_job \u2014 see Jobs | more'
 */
export function plainText(text: string): string {
  return decodeEntities(text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<\/?[a-zA-Z][^<>]*>/g, '')
    .replace(/(^|[^\\])\|/g, '$1 \u0000 ')
    .replace(/^\s*\u0000\s*|\s*\u0000\s*$/g, '')
    .replace(/\s*\u0000\s*/g, ' | ')
    .replace(/[`*]/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1'))
    .replace(/\s+/g, ' ')
    .trim();
}
