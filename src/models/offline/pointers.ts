import type { Conversation } from './conversation.ts';
import type { EvidenceView, Sentence } from './evidence-view.ts';
import { markdownLinks } from './link-follow.ts';
import { contentTerms } from '../../text/text.ts';

/** Tunables of command pointers; the defaults are what the planner ships (docs/calibration.md). */
export interface PointerOptions {
  /** Ranks of the question's first search whose passages are looked at (0: pointers off). */
  maxRank: number;
}

export const DEFAULT_POINTERS: PointerOptions = { maxRank: 5 };

/** A sentence that sends the reader to a list held elsewhere: "For the current list of ... you can run:". */
const DEFERS_TO_LIST = /\blist of\b/i;

/** A unit that is one inline code span and nothing else: `docker run ... --help`. */
const WHOLE_CODE_SPAN = /^`([^`\n]{3,200})`[.:;,]?$/;

/**
 * Commands the question's best passages point to for a list they do not hold themselves: a
 * sentence that defers to a list ("For the current list of supported command line options you
 * can run:") followed by, or holding, an inline code span that is a command of several words
 * (`docker run --init --rm -it graphile/worker --help`). Searched verbatim, the command ranks the
 * page that documents it (the CLI reference whose listing it prints) right after the passage
 * already seen, which the session skips. Pointers written as links are left to link following
 * (link-follow.ts); commands already searched are left out. Best-ranked passage first.
 *
 * @example
 * commandPointers(view, conversation); // ['docker run --init --rm -it graphile/worker --help']
 */
export function commandPointers(view: EvidenceView, conversation: Conversation, options: PointerOptions = DEFAULT_POINTERS): string[] {
  const searched = new Set(conversation.searches.map((search) => normalize(search.query)));
  const result: Array<{ command: string; rank: number }> = [];
  const candidates = view.sentences.filter(
    (sentence) => sentence.passage.searchIndex === 0 && sentence.passage.rank < options.maxRank && !sentence.code && !sentence.heading,
  );
  for (const sentence of candidates) {
    if (!DEFERS_TO_LIST.test(sentence.text) || markdownLinks(sentence.text).length > 0) continue;
    for (const command of referents(view, sentence)) {
      if (searched.has(normalize(command)) || result.some((other) => other.command === command)) continue;
      result.push({ command, rank: sentence.passage.rank });
    }
  }
  return result.sort((a, b) => a.rank - b.rank).map((pointer) => pointer.command);
}

/** The commands a deferring sentence names: its own inline code spans, or the code span unit after its colon. */
function referents(view: EvidenceView, sentence: Sentence): string[] {
  const own = [...sentence.text.matchAll(/`([^`\n]{3,200})`/g)].map((match) => match[1] ?? '');
  const next = sentence.text.trimEnd().endsWith(':')
    ? view.sentences.find((other) => other.passage === sentence.passage && other.order === sentence.order + 1)
    : undefined;
  const following = next && !next.heading ? (WHOLE_CODE_SPAN.exec(next.text.trim())?.[1] ?? (next.code ? next.text.trim() : undefined)) : undefined;
  return [...own, ...(following ? [following] : [])].map((text) => text.trim()).filter(isCommand);
}

/** A command line: several words, one of them an option flag (`--help`, `-c`) or a subcommand path. */
function isCommand(text: string): boolean {
  const parts = text.split(/\s+/);
  return parts.length >= 2 && parts.some((part) => /^--?[a-z]/i.test(part));
}

function normalize(query: string): string {
  return contentTerms(query).sort().join(' ');
}
