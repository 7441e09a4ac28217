/**
 * Checks that the multi_hop queries of a dataset really need more than one hop: a query must not
 * name a key term of its LAST gold page (the page that holds the final fact), otherwise one search
 * for that term finds the answer directly.
 *
 * Key terms of a page (the rule):
 * 1. Identifiers found in its inline code spans and its headings (never in fenced code blocks):
 *    error codes (`ORB-1202`), snake_case (`max_tasks_per_child`), UPPER_SNAKE (`ORBIT_RESULT_TTL`),
 *    dotted names (`orbit.toml`, `ctx.state`), CamelCase and camelCase (`ResultRef`,
 *    `terminationGracePeriodSeconds`), CLI commands (`orbit dlq replay`, `migrate-config`).
 * 2. Acronyms of its headings (`DLQ`, `TTL`) that occur in the headings of fewer than 3 pages.
 * 3. Words of its title, except stopwords, the product name, version tokens (`2.x`), words that
 *    occur in the titles of 3 or more pages (`API`, `worker`, `jobs`) and words that occur in
 *    the text of at least 90% of the pages (`queue`).
 *
 * A query leaks when it contains a key term, case-insensitively and on word boundaries.
 * Identifiers and acronyms must match exactly; title words match any inflection with the same
 * light stem (`lease`, `leases`, `leased`; `retry`, `retried`; `dead-letter`, `dead letters`)
 * or a stem that extends a stem of 5+ letters (`schedul-er`, `config-uration`).
 *
 * CLI: `npx tsx scripts/check-multihop.ts datasets/orbit` prints the leaks and exits 1 if any.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { parse as parseYaml } from 'yaml';

/** The outcome for one multi_hop query; `leaked` is empty when the query is clean. */
export interface MultiHopCheck {
  id: string;
  lastDoc: string;
  keyTerms: string[];
  leaked: string[];
}

/** A page as the rule sees it: its id, title and markdown body (front matter removed). */
export interface PageSource {
  docId: string;
  title: string;
  body: string;
}

const STOPWORDS = new Set(['a', 'an', 'and', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'orbit']);
const COMMON_TITLE_PAGES = 3;
const COMMON_HEADING_PAGES = 3;
const GENERIC_BODY_SHARE = 0.9;

const IDENTIFIER_PATTERNS = [
  /\bORB-\d{4}\b/g,
  /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g,
  /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g,
  /\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b/g,
  /\b[A-Z][a-z0-9]+(?:[A-Z][A-Za-z0-9]*)+\b/g,
  /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g,
];

/**
 * Runs the check on every multi_hop query of `<datasetDir>/eval/retrieval_queries.jsonl`
 * against the pages of `<datasetDir>/docs`.
 *
 * @example
 * const leaks = (await checkMultiHop('datasets/orbit')).filter((check) => check.leaked.length > 0);
 */
export async function checkMultiHop(datasetDir: string): Promise<MultiHopCheck[]> {
  const pages = await readPages(path.join(datasetDir, 'docs'));
  const termsByDoc = keyTermsOfPages(pages);
  const lines = (await readFile(path.join(datasetDir, 'eval', 'retrieval_queries.jsonl'), 'utf8')).split('\n');
  const checks: MultiHopCheck[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const query = JSON.parse(line) as { id: string; query: string; kind: string; relevant_doc_ids?: string[] };
    if (query.kind !== 'multi_hop') return;
    const lastDoc = query.relevant_doc_ids?.at(-1);
    const keyTerms = lastDoc === undefined ? undefined : termsByDoc.get(lastDoc);
    if (lastDoc === undefined || keyTerms === undefined) {
      throw new Error(
        `retrieval_queries.jsonl line ${index + 1} (${query.id}): multi_hop query needs a last gold page that exists in docs/, got ${JSON.stringify(lastDoc ?? null)}.`,
      );
    }
    checks.push({ id: query.id, lastDoc, keyTerms, leaked: findLeaks(query.query, keyTerms) });
  });
  return checks;
}

/**
 * The key terms of every page, by doc id (see the rule at the top of this file).
 *
 * @example
 * keyTermsOfPages(pages).get('dead-letters'); // ['dead-letter', 'ORB-1301', 'orbit dlq replay', ...]
 */
export function keyTermsOfPages(pages: readonly PageSource[]): Map<string, string[]> {
  const parsed = pages.map((page) => ({ page, ...codeAndHeadings(page.body) }));
  const titleWordPages = countPages(pages.map((page) => titleWords(page.title).map(stem)));
  const headingAcronymPages = countPages(parsed.map(({ headings }) => headings.flatMap(acronyms)));
  const bodyWordPages = countPages(pages.map((page) => (page.body.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem)));
  const terms = new Map<string, string[]>();
  for (const { page, codeSpans, headings } of parsed) {
    const found = new Set<string>();
    for (const text of [...codeSpans, ...headings, page.title]) for (const term of identifiers(text)) found.add(term);
    for (const acronym of headings.flatMap(acronyms)) {
      if ((headingAcronymPages.get(acronym) ?? 0) < COMMON_HEADING_PAGES) found.add(acronym);
    }
    for (const word of titleWords(page.title)) {
      const inTitles = titleWordPages.get(stem(word)) ?? 0;
      const inBodies = bodyWordPages.get(stem(word)) ?? 0;
      if (inTitles < COMMON_TITLE_PAGES && inBodies < GENERIC_BODY_SHARE * pages.length) found.add(word);
    }
    terms.set(page.docId, [...found].sort());
  }
  return terms;
}

/**
 * The key terms that occur in `query` (empty when the query is clean).
 *
 * @example
 * findLeaks('How do I replay dead letters?', ['dead-letter', 'ORB-1301']); // ['dead-letter']
 */
export function findLeaks(query: string, keyTerms: readonly string[]): string[] {
  const words = (query.toLowerCase().match(/[a-z0-9]+/g) ?? []).map(stem);
  return keyTerms.filter((term) => (/^[a-z]+(?:-[a-z]+)*$/.test(term) ? containsWord(words, term) : containsIdentifier(query, term)));
}

function containsIdentifier(query: string, term: string): boolean {
  const pattern = term.split(/\s+/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+');
  return new RegExp(`(?<![A-Za-z0-9_])${pattern}(?![A-Za-z0-9_])`, 'i').test(query);
}

function containsWord(queryStems: readonly string[], term: string): boolean {
  const parts = term.split('-').map(stem);
  const joined = stem(term.replaceAll('-', ''));
  return queryStems.some(
    (word, index) => sameStem(word, joined) || parts.every((part, offset) => sameStem(queryStems[index + offset] ?? '', part)),
  );
}

/** A light English stem: `leases`/`leased` -> `leas`, `retries`/`retried` -> `retry`, `scheduling` -> `schedul`. */
function stem(word: string): string {
  let result = word.toLowerCase();
  if (result.length > 4 && /ie[sd]$/.test(result)) result = `${result.slice(0, -3)}y`;
  else if (result.length > 5 && result.endsWith('ing')) result = result.slice(0, -3);
  else if (result.length > 4 && result.endsWith('ed')) result = result.slice(0, -2);
  else if (result.length > 3 && result.endsWith('s') && !/(ss|us|is)$/.test(result)) result = result.slice(0, -1);
  if (result.length > 4 && result.endsWith('e')) result = result.slice(0, -1);
  return result;
}

function sameStem(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length >= 5 && longer.startsWith(shorter)) return true;
  let common = 0;
  while (common < shorter.length && a[common] === b[common]) common += 1;
  return common >= 8;
}

function titleWords(title: string): string[] {
  return title
    .split(/\s+/)
    .map((word) => word.replace(/^[("']+|[)"',:]+$/g, '').toLowerCase())
    .filter((word) => /^[a-z]+(?:-[a-z]+)*$/.test(word) && !STOPWORDS.has(word));
}

function identifiers(text: string): string[] {
  const found = IDENTIFIER_PATTERNS.flatMap((pattern) => text.match(pattern) ?? []);
  const command = /^orbit\s+(.*)$/.exec(text.trim());
  if (command?.[1] !== undefined) {
    const words: string[] = [];
    for (const word of command[1].split(/\s+/)) {
      if (!/^[a-z][a-z-]*$/.test(word) || words.length === 2) break;
      words.push(word);
    }
    if (words.length > 0) found.push(`orbit ${words.join(' ')}`);
    found.push(...words.filter((word) => word.includes('-')));
  }
  return found;
}

function acronyms(heading: string): string[] {
  return (heading.match(/\b[A-Z]{2,}\b/g) ?? []).filter((word) => word !== 'ORB');
}

function countPages(perPage: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const items of perPage) for (const item of new Set(items)) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

interface MarkdownNode {
  type: string;
  value?: string;
  children?: MarkdownNode[];
}

function codeAndHeadings(body: string): { codeSpans: string[]; headings: string[] } {
  const codeSpans: string[] = [];
  const headings: string[] = [];
  const visit = (node: MarkdownNode): void => {
    if (node.type === 'inlineCode' && node.value !== undefined) codeSpans.push(node.value);
    if (node.type === 'heading') headings.push(plainText(node));
    if (node.type !== 'code') node.children?.forEach(visit);
  };
  visit(fromMarkdown(body, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }) as MarkdownNode);
  return { codeSpans, headings };
}

function plainText(node: MarkdownNode): string {
  return node.value ?? (node.children ?? []).map(plainText).join('');
}

/**
 * Reads every `.md` page under `docsDir`: id and title from the front matter, falling back to the
 * file name and the first `# ` heading.
 */
export async function readPages(docsDir: string): Promise<PageSource[]> {
  const files = (await readdir(docsDir, { recursive: true })).filter((file) => /\.mdx?$/.test(file)).sort();
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(docsDir, file), 'utf8');
      const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n/.exec(raw);
      const front = (match?.[1] === undefined ? {} : parseYaml(match[1]) ?? {}) as { id?: unknown; title?: unknown };
      const body = match === null ? raw : raw.slice(match[0].length);
      const docId = typeof front.id === 'string' ? front.id : file.replace(/\.mdx?$/, '').replaceAll(path.sep, '/');
      const title = typeof front.title === 'string' ? front.title : (/^# (.+)$/m.exec(body)?.[1] ?? docId);
      return { docId, title, body };
    }),
  );
}

async function main(argv: readonly string[]): Promise<number> {
  const datasetDir = argv[0];
  if (datasetDir === undefined || argv.length > 1) {
    console.error('usage: npx tsx scripts/check-multihop.ts <dataset-dir>   (e.g. datasets/orbit)');
    return 2;
  }
  const checks = await checkMultiHop(datasetDir);
  const leaks = checks.filter((check) => check.leaked.length > 0);
  for (const leak of leaks) console.log(`${leak.id}: names ${leak.leaked.map((term) => `"${term}"`).join(', ')} of its last page ${leak.lastDoc}`);
  console.log(`${checks.length} multi_hop queries checked, ${leaks.length} leaking.`);
  return leaks.length > 0 ? 1 : 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
