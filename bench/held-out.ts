/**
 * `npx tsx bench/held-out.ts [--python-dir <dir>] [--cargo-dir <dir>] [--json]`
 *
 * The offline planner on real docs it was never tuned on, asked the way the dev sets ask: 40
 * questions a set (32 answerable with the facts a right answer holds, 8 the docs do not answer),
 * written by a helper from the pages in the style of `vitest-dev` (symptoms and needs in the
 * asker's words, two or three parts) without seeing Atlas. bench/held-out/README.md says how.
 * - `python-docs`: Debian's python3.11-doc (Sphinx HTML, 530 pages).
 * - `cargo-book`: the Cargo Book as rustup installs it with the default toolchain's docs (mdBook
 *   HTML, 104 pages; the questions were written from the book of cargo 1.96 and run as well on
 *   1.95's).
 *
 * Each set runs `atlas eval compare --model offline` (the built CLI, a fresh process) on a scratch
 * dataset folder whose `docs` is the installed site and whose `eval` is the set's files, and
 * prints the agentic arm's answers: answered, right, wrong, closest useful, correct + closest
 * useful, the unanswerable ones abstained on, and the share of an answerable question's facts
 * that the answer, its quotes or its closest passages show (the mean over its cases: a softer
 * measure than "every fact", which two- and three-fact questions rarely reach). A set whose docs
 * are not installed prints "skipped".
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { checkFacts, type Fact } from '../src/eval/facts.ts';
import { ensureBuild } from './startup.ts';
import { PYTHON_DOCS } from './python-docs.ts';
import { rustDocsDir } from './rust-docs.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The agentic arm's answers on one set. */
export interface HeldOutResult {
  set: string;
  answered: number;
  correct: number;
  wrong: number;
  closestUseful: number;
  correctOrClosest: number | null;
  unanswerableAbstained: string;
  /** Mean share of an answerable case's facts shown by the answer, its quotes or its closest passages. */
  factsShown: number;
  /** Answerable cases answered "I couldn't find this in the docs" (no closest passages). */
  plainAbstentions: number;
}

interface ReportCase {
  arm: string;
  gold: string[];
  facts: Fact[];
  abstained: boolean;
  correct: boolean;
  run: { answer: { text: string; citations: Array<{ quote: string }>; closest?: Array<{ sentences: string[] }> } };
}

/**
 * Runs the compare eval of one held-out set over `docs` and reads its agentic answers.
 *
 * @example
 * measureHeldOut('python-docs', '/usr/share/doc/python3.11/html'); // { set: 'python-docs', answered: 0, ... }
 */
export function measureHeldOut(set: string, docs: string): HeldOutResult {
  ensureBuild();
  const scratch = mkdtempSync(join(tmpdir(), `atlas-held-out-${set}-`));
  try {
    const data = join(scratch, 'data');
    mkdirSync(data);
    symlinkSync(docs, join(data, 'docs'));
    symlinkSync(join(repoRoot, 'bench', 'held-out', set), join(data, 'eval'));
    const out = join(scratch, 'out');
    const child = spawnSync(process.execPath, [join(repoRoot, 'bin', 'atlas.js'), 'eval', 'compare', '--data', data, '--model', 'offline', '--out', out, '--json'], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (child.status !== 0) throw new Error(`eval compare of ${set} failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as {
      answers: Array<{ arm: string; answered: number; correct: number; wrong: number; closestUseful: number; correctOrClosest: number | null }>;
      cases: ReportCase[];
    };
    const row = report.answers.find((answers) => answers.arm === 'agentic')!;
    const cases = report.cases.filter((item) => item.arm === 'agentic');
    const answerable = cases.filter((item) => item.gold.length > 0 && item.facts.length > 0);
    const unanswerable = cases.filter((item) => item.gold.length === 0);
    const shown = answerable.map((item) => {
      const answer = item.run.answer;
      const texts = [answer.text, ...answer.citations.map((citation) => citation.quote), ...(answer.closest ?? []).flatMap((passage) => passage.sentences)];
      return 1 - checkFacts(item.facts, texts).missing.length / item.facts.length;
    });
    return {
      set,
      answered: row.answered,
      correct: row.correct,
      wrong: row.wrong,
      closestUseful: row.closestUseful,
      correctOrClosest: row.correctOrClosest,
      unanswerableAbstained: `${unanswerable.filter((item) => item.abstained).length}/${unanswerable.length}`,
      factsShown: Math.round((1000 * shown.reduce((sum, share) => sum + share, 0)) / Math.max(1, shown.length)) / 1000,
      plainAbstentions: answerable.filter((item) => item.abstained && (item.run.answer.closest ?? []).length === 0).length,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { 'python-dir': { type: 'string' }, 'cargo-dir': { type: 'string' }, json: { type: 'boolean' } } });
  const sets: Array<[string, string | undefined]> = [
    ['python-docs', values['python-dir'] ?? PYTHON_DOCS],
    ['cargo-book', values['cargo-dir'] ?? rustDocsDir('cargo')],
  ];
  const results: HeldOutResult[] = [];
  for (const [set, docs] of sets) {
    if (docs === undefined || !existsSync(docs)) {
      console.log(`${set}: skipped (docs not installed${docs ? `: ${docs}` : ''})`);
      continue;
    }
    let result: HeldOutResult;
    try {
      result = measureHeldOut(set, docs);
    } catch (error) {
      // Another release of the site may lack a page the questions cite: say so, and go on.
      console.log(`${set}: failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
      continue;
    }
    results.push(result);
    if (!values.json) {
      console.log(
        `${set} (n counts each question twice): answered ${result.answered}, right ${result.correct}, wrong ${result.wrong}, closest useful ${result.closestUseful}, ` +
          `correct + closest ${result.correctOrClosest}, unanswerable abstained ${result.unanswerableAbstained}, facts shown ${result.factsShown}, plain abstentions ${result.plainAbstentions}`,
      );
    }
  }
  if (values.json) console.log(JSON.stringify(results, null, 2));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
