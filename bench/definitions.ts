/**
 * `npx tsx bench/definitions.ts [--limit 60] [--json]`
 *
 * "What does X do?" with the offline planner, where X names a section of reference docs: every
 * section whose heading is an identifier (`itertools.groupby(iterable, key=None)`, `vi.fn`,
 * `bail`, `graphile_worker.add_job`), its first chunk. Reference docs open such a section with
 * what X is or does; a case counts when the answer quotes that opening sentence (the first prose
 * sentence of the section past its signature, field lines such as `**Type:** ...` and tables),
 * first or anywhere, and when it cites the section's page. On Orbit (datasets/orbit), and when
 * present the Graphile Worker and Vitest docs of the shared folder (`../shared` beside the
 * checkout, or ATLAS_SHARED_DIR) and the Python docs of Debian's python3.11-doc. Up to `--limit`
 * sections a set, spread evenly over its sections in document order. A sanity check of one
 * question form, not an eval set: the opening sentence is what a reader of the section reads
 * first, not a judged answer.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { agenticRun } from '../src/agent/run.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import type { Chunk } from '../src/corpus/types.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { ORBIT_DOCS } from '../src/testing/orbit-index.ts';
import { sharedFolder } from '../src/testing/shared-folder.ts';
import { sentenceUnits } from '../src/text/sentences.ts';
import { PYTHON_DOCS } from './python-docs.ts';

/** A section named after an identifier, and the sentence it opens with. */
interface Section {
  name: string;
  docId: string;
  lead: string;
}

/** The counts of one set. */
export interface DefinitionsResult {
  set: string;
  sections: number;
  asked: number;
  answered: number;
  /** Answers citing the section's page. */
  pageCited: number;
  /** Answers whose first quote is the section's opening sentence. */
  leadFirst: number;
  /** Answers that quote it anywhere. */
  leadQuoted: number;
  /** Abstentions whose closest passages show it. */
  leadClosest: number;
}

/** A heading that is an identifier: dotted (`vi.fn`, `os.path.join(a, *p)`), camelCase (`maxWorkers`) or snake_case with a dot. */
const IDENTIFIER_HEADING = /^@?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+|[a-z]+[A-Z]\w*)(?:\(|$|\s*\{#)/;
/** A field of a reference entry (`**Type:** ...`): the opening sentence comes after them. */
const FIELD_LINE = /^(?:[-*+]\s+)?\*\*[^*\n]{1,40}?(?::\*\*|\*\*:)/;

function sectionsOf(chunks: Chunk[]): Section[] {
  const byId = new Map(chunks.map((chunk) => [chunk.chunkId, chunk]));
  const sections: Section[] = [];
  for (const chunk of chunks) {
    // A chunk that continues its section (the one before has the same heading) does not open it.
    if (chunk.prevChunkId !== undefined && byId.get(chunk.prevChunkId)?.heading === chunk.heading) continue;
    const name = IDENTIFIER_HEADING.exec(chunk.heading.trim())?.[1];
    if (name === undefined) continue;
    const lead = sentenceUnits(chunk.text).find(
      (unit) => !unit.code && unit.isHeading !== true && !unit.text.startsWith('|') && !FIELD_LINE.test(unit.text) && unit.text.split(/\s+/).length >= 3,
    );
    if (lead !== undefined) sections.push({ name, docId: chunk.docId, lead: lead.text });
  }
  return sections;
}

async function measure(set: string, folder: string, limit: number): Promise<DefinitionsResult> {
  const { docs } = await loadCorpus(folder);
  const sections = sectionsOf(docs.flatMap((doc) => doc.chunks));
  const step = Math.max(1, Math.floor(sections.length / limit));
  const sample = sections.filter((_, position) => position % step === 0).slice(0, limit);
  const index = await createSqliteIndex({ path: ':memory:' });
  await index.ingest(docs);
  const result: DefinitionsResult = { set, sections: sections.length, asked: sample.length, answered: 0, pageCited: 0, leadFirst: 0, leadQuoted: 0, leadClosest: 0 };
  try {
    for (const section of sample) {
      const run = await agenticRun(`What does ${section.name} do?`, { model: createOfflineModel(), index });
      // The opening sentence's first 40 characters: a quote may be the sentence or the sentence and the next.
      const key = section.lead.slice(0, 40);
      if (run.answer.abstained) {
        if ((run.answer.closest ?? []).some((passage) => passage.sentences.some((sentence) => sentence.includes(key)))) result.leadClosest++;
        continue;
      }
      result.answered++;
      const quotes = run.answer.citations.map((citation) => citation.quote);
      if (run.answer.citations.some((citation) => citation.docId === section.docId)) result.pageCited++;
      if (quotes[0]?.includes(key)) result.leadFirst++;
      if (quotes.some((quote) => quote.includes(key))) result.leadQuoted++;
    }
  } finally {
    await index.close();
  }
  return result;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { limit: { type: 'string', default: '60' }, json: { type: 'boolean', default: false } } });
  const limit = Number(values.limit);
  const sets: Array<[string, string]> = [['orbit', ORBIT_DOCS]];
  for (const set of ['graphile-worker-dev', 'vitest-dev']) {
    const folder = sharedFolder(`datasets/${set}/docs`, process.env);
    if (folder.present) sets.push([set, folder.path]);
    else process.stderr.write(`definitions: ${set} skipped: ${folder.absent}\n`);
  }
  if (existsSync(PYTHON_DOCS)) sets.push(['python3.11-doc', PYTHON_DOCS]);
  const results: DefinitionsResult[] = [];
  for (const [set, folder] of sets) {
    process.stderr.write(`definitions: ${set}\n`);
    results.push(await measure(set, folder, limit));
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(results)}\n`);
    return;
  }
  process.stdout.write('| set | sections | asked | answered | page cited | opening sentence first | quoted | in closest passages |\n|---|---|---|---|---|---|---|---|\n');
  for (const row of results) {
    process.stdout.write(`| ${row.set} | ${row.sections} | ${row.asked} | ${row.answered} | ${row.pageCited} | ${row.leadFirst} | ${row.leadQuoted} | ${row.leadClosest} |\n`);
  }
}

await main();
