import MarkdownIt from 'markdown-it';

import type InlineToken from 'markdown-it/lib/token.mjs';

/**
 * The inline parser for headings that hold markup. Configured once here and never changed
 * afterwards: it keeps no state between calls (each parse gets its own state object).
 */
const inlineParser = new MarkdownIt('default', { html: true });

/** Characters that can start inline markup; a heading without them is its own plain text. */
const MARKUP = /[\\`*_[\]<>&!~\n]/;

/**
 * The plain text of a heading's inline content, like mdast-util-to-string: emphasis markers,
 * backticks, link syntax and HTML tags removed, an image's alt text kept, escapes and entities
 * decoded. Headings without markup characters (most) skip the parser.
 *
 * @example
 * headingPlainText('The `run()` **API** <a id="x"></a>'); // 'The run() API '
 * headingPlainText('Install'); // 'Install'
 */
export function headingPlainText(content: string): string {
  if (!MARKUP.test(content)) return content;
  return inlineParser.parseInline(content, {}).map((token) => tokensText(token.children ?? [])).join('');
}

function tokensText(tokens: InlineToken[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'text_special') text += token.content;
    else if (token.type === 'softbreak') text += '\n';
    else if (token.type === 'image') text += tokensText(token.children ?? []);
  }
  return text;
}
