/** A fenced code block right after a sentence (blank lines between allowed): its fence and its code. */
const CODE_BLOCK_AFTER = /^[ \t]*\n(?:[ \t]*\n)*[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n[ \t]*\1[ \t]*(?=\n|$)/;

/**
 * The fenced code block right after `sentence` in the first of `texts` that writes the sentence
 * before one: its code, and the sentence with the block as the text writes them (the quote).
 *
 * @example
 * codeAfter(['Run it:\n\n```sh\nnpx atlas ingest docs\n```'], 'Run it:');
 * // { code: 'npx atlas ingest docs', quote: 'Run it:\n\n```sh\nnpx atlas ingest docs\n```' }
 */
export function codeAfter(texts: readonly string[], sentence: string): { code: string; quote: string } | undefined {
  // The sentence as the text writes it: its words may be wrapped over lines.
  const written = new RegExp(sentence.trim().replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+'));
  for (const text of texts) {
    const at = written.exec(text);
    if (at === null) continue;
    const end = at.index + at[0].length;
    const block = CODE_BLOCK_AFTER.exec(text.slice(end));
    if (block === null) continue;
    return { code: block[2]!, quote: text.slice(at.index, end + block[0].length) };
  }
  return undefined;
}
