import type { Conversation, Passage } from './conversation.ts';
import type { QuestionAnalysis } from '../../text/question.ts';
import { placeholderNotes, withoutCodeMarks } from './plain-text.ts';
import { RELATED } from './related-terms.ts';
import { codeAfter, showsDiff } from '../../text/code-blocks.ts';
import { sentenceUnits, stem, termSet, words, type SentenceUnit } from '../../text/text.ts';

/** A quotable unit of a passage with its stemmed terms. */
export interface Sentence {
  text: string;
  passage: Passage;
  terms: Set<string>;
  /** Inside a fenced code block. */
  code: boolean;
  /** A heading line: context for the sentences under it, never an answer. */
  heading: boolean;
  /** Stemmed words of the headings the sentence sits under (its chunk's path, then a heading inside the text). */
  context: Set<string>;
  /** Those headings as text, lower-cased (identifiers are matched in it). */
  contextText: string;
  /** Position among its passage's sentences, from 0: neighbours in a passage are consecutive. */
  order: number;
  /** Part of a placeholder note ("TODO: ..."), which says the docs do not know. */
  placeholder: boolean;
  /** Ends with a colon before code ("let the downstream step load it:"): the code is its example. */
  introducesCode: boolean;
  /** The example a sentence introduces, when it is short enough to show with it (see {@link shortExample}). */
  example?: Example;
  /** A table row's header row, so the row can be read with its column names. */
  tableHeader?: string;
  /**
   * When the sentence is the first prose sentence of a section (under a heading line of its text,
   * or the first of its chunk when the chunk was read from its start), that section's heading,
   * lower-cased: reference docs open a section with what its subject is or does.
   */
  leadOf?: string;
}

/** Weak, generic words: they count half when matching a question. */
const GENERIC = new Set(
  'name number type kind value values thing way time times new first last main make work works file data set get run runs used default system part other'
    .split(' ')
    .map(stem),
);

/**
 * Whether a stemmed term is a weak, generic word ("name", "type", "value"): it counts half when
 * matching a question.
 *
 * @example
 * isGenericTerm(stem('name')); // true
 */
export function isGenericTerm(term: string): boolean {
  return GENERIC.has(term);
}

/**
 * The passages of a conversation as the planner reasons over them: restricted to the release
 * line in play, split into sentences, with a weight for each question term.
 */
export class EvidenceView {
  readonly passages: Passage[];
  readonly sentences: Sentence[];
  readonly #weights = new Map<string, number>();

  constructor(
    readonly analysis: QuestionAnalysis,
    conversation: Conversation,
    version: string | undefined,
  ) {
    this.passages = [...conversation.passages.values()].filter(
      (passage) => version === undefined || passage.appliesTo === 'all' || passage.appliesTo === version,
    );
    const keys = new Set(analysis.keyTerms);
    this.sentences = this.passages.flatMap((passage) => {
      const base = `${passage.headingPath ?? passage.title ?? ''} ${passage.heading}`;
      const notes = passage.texts.flatMap(placeholderNotes);
      const units = uniqueSentences(passage);
      const leads = leadSentences(passage, units);
      // A hit labelled with a section inside its chunk (where the search matched, `build.jobs`):
      // the chunk's other sentences are not under that heading, only under the chunk's own.
      const label = plainHeading(passage.heading);
      // A heading with nothing under it yet (the chunk's last line) labels a section of the chunk too.
      const labelsSection = units.some(
        (unit) => (unit.heading !== undefined && plainHeading(unit.heading) === label) || (unit.isHeading === true && plainHeading(unit.text) === label),
      );
      const chunkBase = withoutLastHeading(passage.headingPath ?? passage.title ?? '', passage.heading);
      return units.map(({ text, code, heading, isHeading, tableHeader }, order) => {
        const underLabel = !labelsSection || (heading !== undefined && plainHeading(heading) === label);
        const contextText = `${underLabel ? base : chunkBase} ${heading ?? ''}`;
        const context = termSet(contextText);
        // The question's key names must be said in prose or headings: an example only adds the other words.
        const example = introducedCodeTerms(units, order);
        for (const term of example) if (!keys.has(term)) context.add(term);
        const flat = text.replace(/\s+/g, ' ').trim();
        const placeholder = notes.some((note) => note.includes(flat));
        const shown = example.size > 0 ? shortExample(passage.texts, text) : undefined;
        return { text, passage, terms: termSet(text), code, heading: isHeading === true, context, contextText: contextText.toLowerCase(), order, placeholder, introducesCode: example.size > 0, ...(shown ? { example: shown } : {}), ...(leads.has(order) ? { leadOf: (heading ?? passage.heading).toLowerCase() } : {}), ...(tableHeader === undefined ? {} : { tableHeader }) };
      });
    });
    for (const term of analysis.terms) {
      const weight = keys.has(term) ? 3 : GENERIC.has(term) ? 0.5 : /\d/.test(term) ? 2 : 1;
      this.#weights.set(term, weight);
    }
    for (const term of analysis.terms) {
      for (const related of RELATED.get(term) ?? []) if (!this.#weights.has(related)) this.#weights.set(related, 0.8);
    }
    this.matchTerms = [...this.#weights.keys()];
  }

  /** The question's terms plus the words texts use for the same relations ("born" for "birthplace"). */
  readonly matchTerms: string[];

  /** Weight of a question term (0 for words not in the question). */
  weight(term: string): number {
    return this.#weights.get(term) ?? 0;
  }

  /** The question's terms (and related words, {@link matchTerms}) that `have` holds, in their order. */
  heldTerms(have: ReadonlySet<string>): string[] {
    return this.matchTerms.filter((term) => have.has(term));
  }

  /** The summed weight of the question's terms `have` holds, each once ({@link heldTerms}). */
  heldWeight(have: ReadonlySet<string>): number {
    let total = 0;
    for (const term of this.matchTerms) if (have.has(term)) total += this.weight(term);
    return total;
  }

  /** Weighted share of `terms` found in `have`. */
  overlap(terms: string[], have: Set<string>): number {
    let total = 0;
    let found = 0;
    for (const term of terms) {
      const weight = this.weight(term) || 1;
      total += weight;
      if (have.has(term)) found += weight;
    }
    return total === 0 ? 0 : found / total;
  }

  /** Stemmed terms of every passage text and heading seen. */
  allTerms(): Set<string> {
    const all = new Set<string>();
    for (const passage of this.passages) {
      for (const text of [...passage.texts, passage.heading, passage.docId.replace(/-/g, ' ')]) for (const word of words(text)) all.add(stem(word));
    }
    return all;
  }

  /** Stemmed words of the titles/headings/doc ids of seen passages: entities whose page was found. */
  titleTerms(): Set<string> {
    const terms = new Set<string>();
    for (const passage of this.passages) {
      for (const text of [passage.title ?? '', passage.docId.replace(/-/g, ' ')]) for (const word of words(text)) terms.add(stem(word));
    }
    return terms;
  }
}

/**
 * The terms of the code a sentence introduces: a sentence that ends with a colon and is followed
 * by code ("Return a reference instead, and let the downstream step load it:") states what the
 * example shows, so the example's words are its context, as a heading's are.
 */
function introducedCodeTerms(units: SentenceUnit[], order: number): Set<string> {
  const terms = new Set<string>();
  const unit = units[order];
  if (unit === undefined || unit.code || !/:\s*$/.test(unit.text)) return terms;
  for (let next = order + 1; next < units.length && units[next]!.code; next++) for (const term of termSet(units[next]!.text)) terms.add(term);
  return terms;
}

/** A short example a sentence introduces: its code lines, and the sentence with the code block as the docs write it (the quote). */
export interface Example {
  lines: string[];
  quote: string;
}

/** Lines of code an example shown with its sentence has at most ("python -m venv /path/to/env"). */
const MAX_EXAMPLE_LINES = 2;
/** Characters of code an example shown with its sentence has at most. */
const MAX_EXAMPLE_CHARS = 120;

/**
 * The example a sentence that introduces code introduces, when it is short: at most
 * {@link MAX_EXAMPLE_LINES} lines and {@link MAX_EXAMPLE_CHARS} characters of code, none holding a
 * backtick (each line is shown as a code span). How-to docs state the command in the example
 * ("run the `venv` module as a script with the directory path:" then `python -m venv
 * /path/to/new/virtual/environment`); a longer example is a sample to read, not a value to quote.
 * The quote is the sentence and its code block as the text writes them, so a citation of both
 * verifies. Undefined when no text of the passage holds the sentence before a short code block.
 *
 * @example
 * shortExample(['Run it:\n\n```sh\nnpx atlas ingest docs\n```'], 'Run it:');
 * // { lines: ['npx atlas ingest docs'], quote: 'Run it:\n\n```sh\nnpx atlas ingest docs\n```' }
 */
export function shortExample(texts: readonly string[], sentence: string): Example | undefined {
  const block = codeAfter(texts, sentence);
  if (block === undefined) return undefined;
  if (showsDiff(block.code)) return undefined;
  // A shell line continued with `\` is one command.
  const lines = block.code.replace(/[ \t]*\\\n[ \t]*/g, ' ').split('\n').map((line) => withoutCodeMarks(line).trim()).filter((line) => line !== '');
  if (lines.length === 0 || lines.length > MAX_EXAMPLE_LINES || lines.some((line) => line.includes('`')) || lines.join('').length > MAX_EXAMPLE_CHARS) return undefined;
  return { lines, quote: block.quote };
}

/**
 * Whether a text is a field of a reference entry: a label and its value on a line of its own,
 * the label bold ("**Default:** `1 / maxWorkers`", "- **Type:** `string`") or a capitalised word
 * or three ("Default: number of logical CPUs", "Environment: `CARGO_BUILD_JOBS`", as Cargo's
 * reference writes them). It says one thing about the section it sits in, as a table row says it
 * about its key; what the section is comes after the fields.
 *
 * @example
 * isFieldLine('**Default:** `0`'); // true
 * isFieldLine('- Default: number of logical CPUs'); // true
 */
export function isFieldLine(text: string): boolean {
  return /^\s*(?:[-*+]\s+)?(?:\*\*[^*\n]{1,40}?(?::\*\*|\*\*:)|\p{Lu}\p{Ll}+(?: \p{L}+){0,2}:)[ \t]*\S/u.test(text);
}

/** A heading as compared: no code or emphasis marks, lower-cased. */
function plainHeading(heading: string): string {
  return heading.replace(/[`*_]/g, '').trim().toLowerCase();
}

/** A heading path ("Configuration > [build] > build.jobs") without its last heading when that is `heading`. */
function withoutLastHeading(path: string, heading: string): string {
  const parts = path.split(' > ');
  return parts.length > 1 && plainHeading(parts[parts.length - 1]!) === plainHeading(heading) ? parts.slice(0, -1).join(' > ') : path;
}

/**
 * The positions of the units that lead a section: the first prose unit (not code, a table row
 * or a field line: a signature or the option's type and default may come first) under each
 * heading line of the text, and under the chunk's own heading when its first page was read.
 */
function leadSentences(passage: Passage, units: SentenceUnit[]): Set<number> {
  const leads = new Set<number>();
  const seen = new Set<string | undefined>(passage.pages.has(0) ? [] : [undefined]);
  units.forEach((unit, order) => {
    if (unit.isHeading === true || unit.code || unit.text.startsWith('|') || isFieldLine(unit.text)) return;
    if (!seen.has(unit.heading)) leads.add(order);
    seen.add(unit.heading);
  });
  return leads;
}

function uniqueSentences(passage: Passage): SentenceUnit[] {
  const result: SentenceUnit[] = [];
  // Pages read supersede snippets (which lose line breaks); pages are read in section order.
  const pages = [...passage.pages.entries()].sort((a, b) => a[0] - b[0]).map(([, text]) => text);
  const texts = passage.full ? pages : [...pages, ...[...passage.texts].filter((text) => !pages.includes(text)).sort((a, b) => b.length - a.length)];
  for (const text of texts) {
    for (const unit of sentenceUnits(text)) {
      if (!result.some((existing) => existing.text.includes(unit.text))) result.push(unit);
    }
  }
  return result;
}
