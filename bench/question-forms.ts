/**
 * `npx tsx bench/question-forms.ts [--limit 60] [--dir <docs folder> ...] [--json]`
 *
 * Three common question forms asked of the offline planner, each made from the docs themselves,
 * so that any docs folder can be measured without a judged eval set:
 *
 * - **definition**: "What does X do?", where X names a section of reference docs: every section
 *   whose heading is a dotted or camelCase identifier (`itertools.groupby(iterable, key=None)`,
 *   `vi.fn`, `maxWorkers`, `graphile_worker.add_job`), its first chunk. Reference docs open such a section with what X
 *   is or does: the expected sentence is that opening sentence (the first prose sentence of the
 *   section past its signature, field lines such as `**Type:** ...` and tables).
 * - **how-to**: "How do I <verb> <object>?" made from a sentence of the docs "To <verb>
 *   <object>, <instruction>." (the object at most 60 characters): the expected sentence is that
 *   one. The question's words are the sentence's own, so this measures whether the answer picks
 *   the sentence that states the instruction among the others that share its words.
 * - **default**: "What is the default value of X?" for each section named after an identifier
 *   that gives its default as a field line (`- **Default:** \`5\``, `- Default: \`5\``), and for each row keyed by an
 *   identifier of a table with a Default column: the value is expected.
 *
 * A case counts when the answer quotes the expected sentence or holds the value (first, or
 * anywhere), or, for an abstention, when its closest passages show it; and the answers citing
 * the expected sentence's page are counted. On Orbit (datasets/orbit), and when present the Graphile Worker and Vitest docs
 * of the shared folder (`../shared` beside the checkout, or ATLAS_SHARED_DIR) and the Python docs
 * of Debian's python3.11-doc. Up to `--limit` cases a form and set, spread evenly over them in
 * document order. A sanity check of three question forms, not an eval set.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import type { Chunk } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { isFieldLine } from '../src/models/offline/evidence-view.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { ORBIT_DOCS } from '../src/testing/orbit-index.ts';
import { sharedFolder } from '../src/testing/shared-folder.ts';
import { sentenceUnits } from '../src/text/sentences.ts';
import { PYTHON_DOCS } from './python-docs.ts';

/** A question made from the docs, the sentence that answers it, and the page of that sentence. */
interface FormCase {
  question: string;
  docId: string;
  expected: string;
}

/** The counts of one question form on one set. */
export interface FormResult {
  set: string;
  form: 'definition' | 'how-to' | 'default';
  /** Cases the docs give (before sampling). */
  cases: number;
  asked: number;
  answered: number;
  /** Answers citing the expected sentence's page. */
  pageCited: number;
  /** Answers whose first quote is (or holds) the expected sentence or value. */
  first: number;
  /** Answers that hold it anywhere (text or quotes). */
  quoted: number;
  /** Abstentions whose closest passages show it. */
  inClosest: number;
}

/** A heading that is an identifier: dotted (`vi.fn`, `os.path.join(a, *p)`), camelCase (`maxWorkers`) or snake_case with a dot. */
const IDENTIFIER_HEADING = /^@?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[a-z]+[A-Z]\w*)(?:\(|$|\s*\{#)/;

/** "What does X do?" for each section named after an identifier, with its opening sentence. */
function definitionCases(chunks: Chunk[]): FormCase[] {
  const byId = new Map(chunks.map((chunk) => [chunk.chunkId, chunk]));
  const sections: FormCase[] = [];
  for (const chunk of chunks) {
    // A chunk that continues its section (the one before has the same heading) does not open it.
    if (chunk.prevChunkId !== undefined && byId.get(chunk.prevChunkId)?.heading === chunk.heading) continue;
    const name = IDENTIFIER_HEADING.exec(chunk.heading.trim())?.[1];
    if (name === undefined) continue;
    const lead = sentenceUnits(chunk.text).find(
      (unit) => !unit.code && unit.isHeading !== true && !unit.text.startsWith('|') && !isFieldLine(unit.text) && unit.text.split(/\s+/).length >= 3,
    );
    if (lead !== undefined) sections.push({ question: `What does ${name} do?`, docId: chunk.docId, expected: lead.text });
  }
  return sections;
}

/** A field line giving a default: "**Default:** `5`", or with a plain label as Cargo writes it, "Default: `"rustc"`" (a list item's text). */
const DEFAULT_FIELD = /^\s*(?:[-*+]\s+)?(?:\*\*Default:?\*\*:?|Default:)\s*(.+)$/;

/** "What is the default value of X?" for each section named after an identifier with a field line "**Default:** V": the value is expected. */
function defaultCases(chunks: Chunk[]): FormCase[] {
  const cases: FormCase[] = [];
  for (const chunk of chunks) {
    // Each section named after an identifier, the chunk's own or one inside its text (a reference
    // of several keys a chunk: `#### build.jobs`, `#### build.rustc`), with its first default line.
    const named = new Set<string>();
    for (const unit of sentenceUnits(chunk.text)) {
      const name = IDENTIFIER_HEADING.exec((unit.heading ?? chunk.heading).replace(/`/g, '').trim())?.[1];
      const value = unit.code ? undefined : DEFAULT_FIELD.exec(unit.text)?.[1];
      if (name === undefined || value === undefined || named.has(name)) continue;
      named.add(name);
      cases.push({ question: `What is the default value of ${name}?`, docId: chunk.docId, expected: valueOf(value) });
    }
    // A table with a Default column: "What is the default value of <the row's key>?" for each row keyed by an identifier.
    for (const unit of sentenceUnits(chunk.text)) {
      const header = unit.tableHeader === undefined ? [] : cellsOf(unit.tableHeader);
      const column = header.findIndex((cell) => /^default/i.test(cell));
      if (column <= 0 || !unit.text.startsWith('|')) continue;
      const cells = cellsOf(unit.text);
      const key = /^`([A-Za-z_][\w.]*)`$/.exec(cells[0] ?? '')?.[1];
      const cell = cells[column] === undefined ? undefined : valueOf(cells[column]);
      if (key !== undefined && cell !== undefined && cell !== '') cases.push({ question: `What is the default value of ${key}?`, docId: chunk.docId, expected: cell });
    }
  }
  return cases;
}

/** A default as an answer would write it: the text of its first code span (`` `'v8'` `` -> `'v8'`), else its words before a note in brackets; at most 20 characters. */
function valueOf(written: string): string {
  const code = /^\s*`([^`]+)`/.exec(written)?.[1];
  return (code ?? written.split(' (')[0] ?? written).trim().slice(0, 20);
}

function cellsOf(row: string): string[] {
  return row.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/** A sentence that opens with its purpose: "To <verb> <object>, <instruction>." */
const PURPOSE_SENTENCE = /^To ([a-z]+ [^,`]{3,60}), (.{10,})$/;

/** "How do I <verb> <object>?" for each sentence of the docs "To <verb> <object>, ...". */
function howToCases(chunks: Chunk[]): FormCase[] {
  const cases: FormCase[] = [];
  for (const chunk of chunks) {
    for (const unit of sentenceUnits(chunk.text)) {
      const purpose = unit.code ? undefined : PURPOSE_SENTENCE.exec(unit.text)?.[1];
      if (purpose !== undefined) cases.push({ question: `How do I ${purpose.replace(/[.:]$/, '')}?`, docId: chunk.docId, expected: unit.text });
    }
  }
  return cases;
}

async function measure(set: string, folder: string, limit: number): Promise<FormResult[]> {
  const { docs } = await loadCorpus(folder);
  const chunks = docs.flatMap((doc) => doc.chunks);
  const index = await createSqliteIndex({ path: ':memory:' });
  await index.ingest(docs);
  const results: FormResult[] = [];
  try {
    for (const [form, cases] of [['definition', definitionCases(chunks)], ['how-to', howToCases(chunks)], ['default', defaultCases(chunks)]] as const) {
      const step = Math.max(1, Math.floor(cases.length / limit));
      const sample = cases.filter((_, position) => position % step === 0).slice(0, limit);
      const result: FormResult = { set, form, cases: cases.length, asked: sample.length, answered: 0, pageCited: 0, first: 0, quoted: 0, inClosest: 0 };
      for (const item of sample) {
        const run = await agenticRun(item.question, { model: createOfflineModel(), index });
        // The sentence's first 40 characters (a quote may be the sentence and the next), or a default's value.
        const key = item.expected.slice(0, 40);
        if (run.answer.abstained) {
          if ((run.answer.closest ?? []).some((passage) => passage.sentences.some((sentence) => sentence.includes(key)))) result.inClosest++;
          continue;
        }
        result.answered++;
        const quotes = run.answer.citations.map((citation) => citation.quote);
        if (run.answer.citations.some((citation) => citation.docId === item.docId)) result.pageCited++;
        if (quotes[0]?.includes(key)) result.first++;
        if ([run.answer.text, ...quotes].some((quote) => quote.includes(key))) result.quoted++;
      }
      results.push(result);
    }
  } finally {
    await index.close();
  }
  return results;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { limit: { type: 'string', default: '60' }, json: { type: 'boolean', default: false }, dir: { type: 'string', multiple: true, default: [] } } });
  const limit = Number(values.limit);
  const sets: Array<[string, string]> = [['orbit', ORBIT_DOCS]];
  for (const set of ['graphile-worker-dev', 'vitest-dev']) {
    const folder = sharedFolder(`datasets/${set}/docs`, process.env);
    if (folder.present) sets.push([set, folder.path]);
    else process.stderr.write(`question forms: ${set} skipped: ${folder.absent}\n`);
  }
  if (existsSync(PYTHON_DOCS)) sets.push(['python3.11-doc', PYTHON_DOCS]);
  // Any other docs folder: --dir <folder> (repeatable), named by its last folder.
  for (const dir of values.dir) sets.push([dir.replace(/\/+$/, '').split('/').pop() ?? dir, dir]);
  const results: FormResult[] = [];
  for (const [set, folder] of sets) {
    process.stderr.write(`question forms: ${set}\n`);
    results.push(...(await measure(set, folder, limit)));
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  process.stdout.write('| form | set | cases | asked | answered | page cited | expected sentence first | quoted | in closest passages |\n|---|---|---|---|---|---|---|---|---|\n');
  for (const row of results) {
    process.stdout.write(`| ${row.form} | ${row.set} | ${row.cases} | ${row.asked} | ${row.answered} | ${row.pageCited} | ${row.first} | ${row.quoted} | ${row.inClosest} |\n`);
  }
}

await main();
