/**
 * What a chunk defines: the identifiers it is the reference for, as opposed to those it merely
 * mentions. The index stores their keys (see `identifiers.ts`) in a table of their own, and
 * their spellings with the chunk, so a query naming an identifier can rank the defining chunk first.
 *
 * A chunk defines an identifier when
 * - a heading of its heading path names it (`### worker.concurrentJobs`, `## graphile_worker.add_job()`;
 *   a question or a sentence that mentions a name does not define it), or the whole heading
 *   spells it as words (`## Force unlock workers` defines `force_unlock_workers`);
 * - a heading inside its text does (a `###` that a long `##` chunk contains);
 * - a list item or a table row starts with it (`` - `GWBKM` - Invalid ``, `` | `max_payload_kb` | integer | ``);
 * - a line starts with it followed by `:`, ` - `, `—` or `–` (`` `lease_seconds`: how long ``);
 * - in a code block, a declaration names it (`gracefulShutdownAbortTimeout?: number;`,
 *   `addJob(spec: TaskSpec): Promise<Job>;`) or a help line starts with its flag (`-s, --schema  ...`).
 */
import type { Chunk } from '../../corpus/types.ts';
import { definitionKeys, findIdentifiers, looksLikeIdentifier, spellingOf, type FoundIdentifier } from './identifiers.ts';
import { STOPWORDS, words } from './tokenize.ts';

/** A heading of at most this many words also defines its words joined (`Job key` -> `jobkey`). */
const MAX_PHRASE_WORDS = 6;
/** A heading with more words than this besides its identifiers (stopwords aside) is a sentence, not a name. */
const MAX_HEADING_WORDS = 3;

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+(.*)$/;
const TABLE_ROW = /^\s*\|(.*)$/;
/**
 * A line that starts with one name (in a code span or not, maybe bold) and a definition
 * separator: `` `lease_seconds`: ``, `**prefetch** —`, `max_tasks - `. A cheap first test; the
 * name is then read like the start of a list item.
 */
const TERM_LINE =
  /^\s*(?:\*\*|__|\*|_)?(?:`[^`\n]+`|(?:--)?[\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*(?:\(\))?)(?:\*\*|__|\*|_)?\s*(?::|—|–|\s-\s)/u;
/** A heading's custom anchor: `### Retries {#retries}`. */
const HEADING_ANCHOR = /\s*\{#[^}]*\}\s*$/;
/** Markup that may open a list item, cell or line before the name: `**`, `[`, `>`, `(`. */
const LEADING_MARKUP = /^[\s*_>[(!]*/;
/** Between two names of one definition: `` `-q`, `--queues` ``, `a / b`, `**`. */
const NAME_GAP = /^[\s,/*_|()[\]`'"?]*$/;
/** A code span or an identifier-like run with its `--` and `(`: the tokens of a definition's start. */
const TOKEN = /`([^`\n]+)`|(--)?([\p{L}\p{N}\p{M}_]+(?:[-.:/][\p{L}\p{N}\p{M}_]+)*)(\()?/gu;
/** A TypeScript-style member declaration: modifiers, name, optional mark, parameters, `:`, type. */
const DECLARATION =
  /^\s*(?:(?:readonly|export|declare|static|public|private|protected)\s+)*([\p{L}_$][\p{L}\p{N}_$]*)(\?)?(\([^)]*\))?\s*:\s*(\S.*?)\s*$/u;
/** A value, not a type, after the colon: `10,` `"x"` `true`. */
const LITERAL = /^(?:[-+]?\p{N}|["'`[{]|true\b|false\b|null\b|undefined\b)/u;
/** A CLI help line: `  -c, --connection   Database connection string`. */
const HELP_LINE = /^\s*(?:-[\p{L}\p{N}],\s*)?--([\p{L}\p{N}][\p{L}\p{N}_-]*)/u;

/**
 * The identifiers a chunk defines, as spellings (see `identifiers.ts`: lower-cased as written,
 * `--` for a flag), each once, in order of appearance, in two tiers: named by a heading (of its
 * heading path, or inside its text), the chunk is *the* place for the name; named at the start
 * of a list item, table row, term line, declaration or help line, it is one entry of a list of
 * names. A spelling in both tiers is only in `headings`.
 */
export interface Definitions {
  headings: string[];
  lines: string[];
}

/**
 * What a chunk defines (see {@link Definitions}). `headingCache`, when given, keeps what each
 * heading of a heading path defines, for the next chunks of the same document (one ingest owns it).
 *
 * @example
 * definitionsOf({ headingPath: ['Errors'], text: '### ORB-1202 PayloadTooLarge\n\n| `max_payload_kb` | 256 |' })
 * // { headings: ['orb-1202', 'payloadtoolarge'], lines: ['max_payload_kb'] }
 */
export function definitionsOf(
  chunk: Pick<Chunk, 'headingPath' | 'text'>,
  headingCache: Map<string, string[]> = new Map(),
): Definitions {
  const headings = new Set<string>();
  const lines = new Set<string>();
  for (const heading of chunk.headingPath) {
    let spellings = headingCache.get(heading);
    if (spellings === undefined) {
      spellings = headingSpellings(heading);
      headingCache.set(heading, spellings);
    }
    addAll(headings, spellings);
  }
  let fence: string | undefined;
  for (const line of chunk.text.split('\n')) {
    const marker = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
        fence = undefined;
      } else {
        addAll(lines, codeLineSpellings(line));
      }
      continue;
    }
    if (marker !== undefined) {
      fence = marker;
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) addAll(headings, headingSpellings(heading[1]!));
    else addAll(lines, textLineSpellings(line));
  }
  return { headings: [...headings], lines: [...lines].filter((spelling) => !headings.has(spelling)) };
}

/**
 * What the index looks a chunk up under (`definitions_fts`): the keys of every spelling it
 * defines (both tiers, namespace suffixes included), each once, space-separated.
 *
 * @example
 * definitionKeysText({ headings: ['graphile_worker.add_job'], lines: ['--schema'] }) // 'graphileworkeraddjob addjob schema'
 */
export function definitionKeysText(definitions: Definitions): string {
  const keys = new Set<string>();
  for (const spelling of [...definitions.headings, ...definitions.lines]) addAll(keys, definitionKeys(spelling));
  return [...keys].join(' ');
}

function addAll(set: Set<string>, values: Iterable<string>): void {
  for (const value of values) set.add(value);
}

/**
 * Spellings a heading defines, when the heading is a name rather than a sentence (not a
 * question, at most {@link MAX_HEADING_WORDS} other words): the identifiers written as code
 * (backticks, `--flag`, `call()`), those it starts with, and, when it is little else (at most
 * one other word), all of them. So `### ORB-1202 PayloadTooLarge`, `## GET /v1/queues` and
 * ``## Large results: `put_blob` and `ResultRef` `` define their names, while
 * `### My step failed with ORB-1202. Why?` and `## Loading JavaScript files` do not. A heading
 * that names none defines its words joined if it is short (`## Force unlock workers` ->
 * `forceunlockworkers`).
 */
function headingSpellings(heading: string): string[] {
  const text = heading.replace(HEADING_ANCHOR, '');
  const found = findIdentifiers(text);
  if (found.length === 0) {
    const phrase = words(text);
    return phrase.length > 1 && phrase.length <= MAX_PHRASE_WORDS ? [phrase.join('')] : [];
  }
  const others = otherWords(text, found);
  if (text.trimEnd().endsWith('?') || others > MAX_HEADING_WORDS) return [];
  const leading = new Set(leadingNames(text));
  return found
    .filter((identifier) => identifier.marked || others <= 1 || leading.has(spellingOf(identifier)))
    .map(spellingOf);
}

/** Words of `text` outside the identifiers found in it, stopwords not counted. */
function otherWords(text: string, found: FoundIdentifier[]): number {
  let rest = '';
  let from = 0;
  for (const identifier of found) {
    rest += ` ${text.slice(from, identifier.offset)}`;
    from = identifier.offset + identifier.name.length;
  }
  rest += ` ${text.slice(from)}`;
  return words(rest).filter((word) => !STOPWORDS.has(word)).length;
}

/** Spellings one markdown line (outside code blocks, not a heading) defines. */
function textLineSpellings(line: string): string[] {
  const row = TABLE_ROW.exec(line);
  if (row) return leadingNames(firstCell(row[1]!));
  const item = LIST_ITEM.exec(line);
  if (item) return leadingNames(item[1]!);
  return TERM_LINE.test(line) ? leadingNames(line) : [];
}

/** Spellings one line inside a code block defines: a member declaration or a CLI help line. */
function codeLineSpellings(line: string): string[] {
  const flag = HELP_LINE.exec(line);
  if (flag) return [spellingOf({ name: flag[1]!, flag: true })];
  const declaration = DECLARATION.exec(line);
  if (!declaration) return [];
  const [, name = '', optional, parameters, type = ''] = declaration;
  const endsMember = type.endsWith(';');
  const typeText = endsMember ? type.slice(0, -1).trim() : type;
  const declared =
    (optional !== undefined && !LITERAL.test(typeText)) ||
    (endsMember && typeText !== '' && !LITERAL.test(typeText)) ||
    (parameters !== undefined && endsMember);
  return declared ? [spellingOf({ name, flag: false })] : [];
}

/**
 * The identifiers a fragment starts with (after markup such as `**` or `[`), up to the first
 * plain word. A code span naming nothing (`` `-q` ``) is skipped.
 */
function leadingNames(fragment: string): string[] {
  const spellings: string[] = [];
  const base = LEADING_MARKUP.exec(fragment)![0].length;
  let end = base;
  for (const match of fragment.slice(base).matchAll(TOKEN)) {
    const start = base + match.index;
    if (!NAME_GAP.test(fragment.slice(end, start))) break;
    if (match[1] !== undefined) {
      spellings.push(...findIdentifiers(match[0]).map(spellingOf));
    } else if (match[2] !== undefined || match[4] !== undefined || looksLikeIdentifier(match[3]!)) {
      spellings.push(spellingOf({ name: match[3]!, flag: match[2] !== undefined }));
    } else {
      break;
    }
    end = start + match[0].length;
  }
  return spellings;
}

/** The first cell of a table row (the text after the opening `|`), ignoring `|` inside code spans. */
function firstCell(row: string): string {
  let inCode = false;
  for (let position = 0; position < row.length; position += 1) {
    const char = row[position];
    if (char === '`') inCode = !inCode;
    else if (char === '|' && !inCode && row[position - 1] !== '\\') return row.slice(0, position);
  }
  return row;
}
