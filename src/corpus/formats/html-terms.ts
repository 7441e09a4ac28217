// What a definition term (`<dt>`) of a converted HTML page becomes: API references such as
// Sphinx's and Javadoc's mark a function's signature with one.
import type { MarkdownWriter } from './markdown-writer.ts';

/** A term longer than this is no heading. */
const MAX_HEADING_TERM = 200;

/** The name a signature opens with, before its parameters: `subprocess.run` of `subprocess.run(args, *, ...)`, `class asyncio.Task` too. */
const SIGNATURE_NAME = /^(?:(?:class|async|classmethod|staticmethod|abstractmethod|awaitable|coroutine|method|function)\s+)*([A-Za-z_][\w.]*)\s*\(/;

/**
 * Writes a definition term: a heading at `level`; a term right after another (`afterTerm`: a
 * second signature of one function, `lru_cache(maxsize=128, typed=False)` after
 * `lru_cache(user_function)`) as code under the first's heading, not an empty section; a long
 * signature (`subprocess.run(args, *, stdin=None, ...)`) headed by its name and shown as code; a
 * long term that is no signature (a whole sentence) as a paragraph.
 *
 * @example
 * writeTerm(writer, 2, 'itertools.groupby(iterable, key=None)', false); // ## itertools.groupby(iterable, key=None)
 */
export function writeTerm(writer: MarkdownWriter, level: number, text: string, afterTerm: boolean): void {
  if (afterTerm && text !== '') return writer.code(text);
  if (text.length <= MAX_HEADING_TERM) return writer.heading(level, text);
  const name = SIGNATURE_NAME.exec(text)?.[1];
  if (name === undefined) return writer.paragraph(text);
  writer.heading(level, `${name}()`);
  writer.code(text);
}
