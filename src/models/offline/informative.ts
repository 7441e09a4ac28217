/**
 * Which terms learned from the evidence are worth searching for. Documentation is full of tokens
 * that look like names but lead nowhere: issue numbers (`#4554`), URL parameters
 * (`utm_campaign`), file names (`dist/cli.js`), type expressions (`number | undefined`), markup,
 * emoji and the generic vocabulary of code (`function`, `SELECT`, `JSON`). A follow-up query built
 * from them drifts away from the question, so the planner never hops on them.
 */

/** Words of programming and documentation in general: they name no particular concept of a product. */
const GENERIC_CODE_WORDS = new Set(
  (
    'src lib dist bin test tests docs doc readme todo fixme note notes tip warning example examples type types ' +
    'string number boolean object array null undefined void any unknown never true false int integer float bool ' +
    'function functions func fn method class interface enum const let var return async await import export require ' +
    'module default value values key keys id ids name names data payload options option config args arg params param ' +
    'select insert update delete from where table tables column columns row rows index json yaml toml xml html css ' +
    'http https url uri api apis cli sql npm npx yarn pnpm node nodejs javascript typescript js ts python bash shell ' +
    'docker git github issue issues pr prs commit release releases changelog version versions license ' +
    'error errors exception result results callback promise event events string[] main master'
  ).split(' '),
);

/** Ends of file names and paths: `cli.js`, `docker-compose.yml`, `package.json`. */
const FILE_NAME = /\.(?:[cm]?[jt]sx?|json|ya?ml|toml|md|mdx|html?|css|sh|py|rb|go|rs|java|sql|txt|lock|env|ini|cfg|conf|png|jpe?g|gif|svg)$/i;

/**
 * True when a candidate term could lead a search to a page the question needs: it is not an
 * issue or PR number, a URL or URL parameter, a file name, markup, emoji, a type expression or a
 * generic code word, and it has at least one letter.
 *
 * @example
 * isInformativeTerm('gracefulShutdownAbortTimeout'); // true
 * isInformativeTerm('issue #118');                   // false
 * isInformativeTerm('number | undefined');           // false
 * isInformativeTerm('dist/cli.js');                  // false
 */
export function isInformativeTerm(term: string): boolean {
  const text = term.trim().replace(/^`|`$/g, '');
  if (!/\p{L}/u.test(text)) return false;
  if (/#\d+|\b(?:issue|pr|pull)\s*#?\d+/i.test(text)) return false;
  if (/^(?:https?:|www\.)|:\/\/|^utm_|[?&][\w-]+=/i.test(text)) return false;
  if (/[<>{}]|&[a-z]+;|\p{Extended_Pictographic}/u.test(text)) return false;
  if (FILE_NAME.test(text) || /^\.{0,2}\//.test(text)) return false;
  if (/\|/.test(text)) return false;
  const parts = text.toLowerCase().split(/[\s()[\]]+/).filter((part) => part !== '');
  if (parts.length === 0) return false;
  // A term made only of generic words ("ARRAY SELECT", "JSON API") names nothing in particular.
  return !parts.every((part) => GENERIC_CODE_WORDS.has(part) || /^\d+$/.test(part));
}
