import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchQuery } from './engine-child.ts';
import { fileURLToPath } from 'node:url';
import { createRandom } from './prng.ts';

/** One real passage of the MuSiQue pool: its page title and its text. */
export interface Passage {
  title: string;
  text: string;
}

/** One generated markdown page of the bench corpus. */
export interface BenchPage {
  path: string;
  markdown: string;
}

/**
 * The folder of the MuSiQue dev set: `ATLAS_SHARED_DIR/datasets/musique-dev` when set, else
 * `../shared/datasets/musique-dev` beside the checkout. Throws a message naming both when absent.
 *
 * @example
 * const folder = musiqueFolder(process.env); // '/work/shared/datasets/musique-dev'
 */
export function musiqueFolder(env: Record<string, string | undefined>): string {
  const root = env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url));
  const folder = join(root, 'datasets', 'musique-dev');
  if (!existsSync(join(folder, 'docs'))) {
    throw new Error(
      `bench: the MuSiQue dev set is not at ${folder}. It lives outside the repo, beside it in ../shared/datasets/musique-dev; set ATLAS_SHARED_DIR to the shared folder.`,
    );
  }
  return folder;
}

/**
 * Every question `rounds` times, round-robin; each question is filtered to version 3.x in every
 * other round.
 *
 * @example
 * benchQueries(['a?', 'b?'], 2); // [a? unfiltered, b? 3.x, a? 3.x, b? unfiltered]
 */
export function benchQueries(questions: readonly string[], rounds: number): BenchQuery[] {
  const queries: BenchQuery[] = [];
  for (let round = 0; round < rounds; round += 1) {
    questions.forEach((query, n) => queries.push({ query, version: (n + round) % 2 === 0 ? null : '3.x' }));
  }
  return queries;
}

/**
 * The search filter of a bench query: its version, or none.
 *
 * @example
 * queryFilter({ query: 'a?', version: '3.x' }); // { version: '3.x' }
 */
export function queryFilter(query: BenchQuery): { version: string } | undefined {
  return query.version === null ? undefined : { version: query.version };
}

/**
 * The questions the benches warm up with before timing (so the JIT has compiled the search
 * paths): the Graphile Worker dev set's (`../shared/datasets/graphile-worker-dev`), real
 * questions about other docs, so no timed question and none of its chunks is seen before it is
 * timed. Empty when that set is absent.
 *
 * @example
 * warmupQuestions(process.env).length; // 90
 */
export function warmupQuestions(env: Record<string, string | undefined>): string[] {
  return readQuestions(join(env.ATLAS_SHARED_DIR ?? fileURLToPath(new URL('../../shared', import.meta.url)), 'datasets', 'graphile-worker-dev'));
}

/**
 * The passages of the MuSiQue pool (one page each in `docs/`: front matter, `# Title`, text),
 * sorted by file name so every run sees the same order.
 *
 * @example
 * readPassages(musiqueFolder(process.env)).length // 1890
 */
export function readPassages(folder: string): Passage[] {
  const docs = join(folder, 'docs');
  return readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => {
      const source = readFileSync(join(docs, name), 'utf8');
      const body = source.replace(/^---\n[\s\S]*?\n---\n/, '');
      const heading = /^# (.+)$/m.exec(body);
      const title = heading?.[1]?.trim() ?? name.replace(/\.md$/, '');
      const text = body.replace(/^# .+$/m, '').trim();
      return { title, text };
    })
    .filter((passage) => passage.text !== '');
}

/**
 * The real questions of the set (retrieval queries and QA questions, each text once), in file order.
 *
 * @example
 * readQuestions(musiqueFolder(process.env))[0] // 'How many Publix stores are in the state ...'
 */
export function readQuestions(folder: string): string[] {
  const questions = new Set<string>();
  for (const [file, field] of [['retrieval_queries.jsonl', 'query'], ['qa_gold.jsonl', 'question']] as const) {
    const path = join(folder, 'eval', file);
    if (!existsSync(path)) continue;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const value = (JSON.parse(line) as Record<string, unknown>)[field];
      if (typeof value === 'string') questions.add(value);
    }
  }
  return [...questions];
}

/**
 * Pages made of real passages, until the pages hold about `sectionsWanted` `##` sections (one
 * chunk each after parsing): each page has a `# Title` (its first passage's title), that passage
 * as intro, then 3-7 `##` sections, one passage each, headed by the passage's title. Every round
 * over the pool groups the passages differently (seeded shuffle), and each section gets one
 * sentence of another random passage appended, so a replicated passage rarely meets the same
 * neighbours twice and term statistics grow the way a larger real corpus's do. A quarter of the
 * pages apply to 2.x, a quarter to 3.x, half to all.
 *
 * @example
 * const pages = buildPages(readPassages(folder), 10_000, 42);
 * pages[0].markdown.startsWith('---\nid: p0\n') // true
 */
export function buildPages(passages: readonly Passage[], sectionsWanted: number, seed: number): BenchPage[] {
  if (passages.length === 0) throw new Error('bench: no passages to build pages from');
  const random = createRandom(seed);
  const sentences = passages.map((passage) => passage.text.split(/(?<=[.!?])\s+/).filter((sentence) => sentence.length > 20));
  const pages: BenchPage[] = [];
  let sections = 0;
  let order: number[] = [];
  let cursor = 0;
  const nextPassage = (): number => {
    if (cursor >= order.length) {
      order = shuffle(passages.map((_, n) => n), random);
      cursor = 0;
    }
    return order[cursor++]!;
  };
  while (sections < sectionsWanted) {
    const n = pages.length;
    const first = passages[nextPassage()]!;
    const appliesTo = random.pick(['2.x', '3.x', 'all', 'all']);
    const lines = ['---', `id: p${n}`, `title: ${JSON.stringify(first.title)}`, `applies_to: "${appliesTo}"`, '---', '', `# ${first.title}`, '', first.text, ''];
    sections += 1;
    const count = random.int(3, 7);
    for (let section = 0; section < count; section += 1) {
      const passage = passages[nextPassage()]!;
      const other = sentences[random.int(0, sentences.length - 1)]!;
      const extra = other.length === 0 ? '' : ` ${other[random.int(0, other.length - 1)]}`;
      lines.push(`## ${passage.title}`, '', `${passage.text}${extra}`, '');
      sections += 1;
    }
    pages.push({ path: `part-${n % 64}/p${n}.md`, markdown: lines.join('\n') });
  }
  return pages;
}

function shuffle<T>(items: T[], random: ReturnType<typeof createRandom>): T[] {
  for (let n = items.length - 1; n > 0; n -= 1) {
    const other = random.int(0, n);
    [items[n], items[other]] = [items[other]!, items[n]!];
  }
  return items;
}
