/**
 * `npx tsx bench/follow-ups.ts [--json]`
 *
 * Follow-up questions with the offline planner: pairs of a first question and a follow-up that
 * names nothing itself ("and how do I cancel it?"), on Orbit (datasets/orbit) and, when the shared
 * folder is present (`../shared` beside the checkout, or ATLAS_SHARED_DIR), on the Graphile
 * Worker docs. For each pair the follow-up is answered three ways: as a conversation turn (the
 * earlier turn as `history` and the conversation's `SearchMemory`), with the history only (no
 * seen-passage skipping), and bare (neither). A pair counts when the follow-up's answer cites
 * one of the pages that answer it (`pages`, chosen by reading the docs). Hand-picked pairs, so a
 * sanity check of the mechanism rather than an eval set.
 */
import { parseArgs } from 'node:util';
import type { ConversationTurn } from '../src/agent/history.ts';
import { createOfflineModel } from '../src/models/offline/model.ts';
import { agenticRun } from '../src/agent/run.ts';
import type { AgentRun } from '../src/agent/run-types.ts';
import { SearchMemory } from '../src/agent/session/search-memory.ts';
import { loadCorpus } from '../src/corpus/index.ts';
import { createSqliteIndex } from '../src/index/sqlite/sqlite.ts';
import type { IndexBackend } from '../src/index/types.ts';
import { ORBIT_DOCS } from '../src/testing/orbit-index.ts';
import { sharedFolder } from '../src/testing/shared-folder.ts';

interface Pair {
  first: string;
  followUp: string;
  pages: string[];
}

const ORBIT_PAIRS: Pair[] = [
  { first: 'How do I enqueue a job in Orbit 3.x?', followUp: 'and how do I cancel it?', pages: ['api-client', 'admin-http-api'] },
  { first: 'How do I replay dead letters?', followUp: 'and how do I purge them?', pages: ['dead-letters', 'cli-reference'] },
  { first: 'How do I deploy Orbit with Docker?', followUp: 'and how do I stop it safely?', pages: ['deployment-docker'] },
  { first: 'How do I deploy Orbit with systemd?', followUp: 'and how do I read its logs?', pages: ['deployment-systemd'] },
  { first: 'What does ORB-1501 mean?', followUp: 'and how do I avoid it?', pages: ['scheduling', 'deployment-kubernetes'] },
  { first: 'How do I deploy Orbit 3.x on Kubernetes?', followUp: 'and how do I keep it to one scheduler?', pages: ['deployment-kubernetes'] },
  { first: 'How do retries work in Orbit 3.x?', followUp: 'and how do I change the backoff?', pages: ['retries', 'config-reference-3x'] },
  { first: 'What is a flow in Orbit?', followUp: 'and how do its steps share state?', pages: ['flow-state', 'flows'] },
];
const GRAPHILE_PAIRS: Pair[] = [
  { first: 'How do I install Graphile Worker?', followUp: 'and how do I uninstall it?', pages: ['uninstall'] },
  { first: 'What is a job key?', followUp: 'and how do I remove a job with it?', pages: ['job-key'] },
  { first: 'How do I schedule recurring tasks with cron?', followUp: 'and how do I limit the backfill?', pages: ['cron'] },
  { first: 'How do I permanently fail jobs?', followUp: 'and how do I reschedule them instead?', pages: ['admin-functions'] },
];

async function indexOf(folder: string): Promise<IndexBackend> {
  const index = createSqliteIndex({ path: ':memory:' });
  await index.ingest((await loadCorpus(folder)).docs);
  return index;
}

const { values } = parseArgs({ options: { json: { type: 'boolean' } } });
const model = createOfflineModel();
const sets: Array<{ name: string; index: IndexBackend; pairs: Pair[] }> = [{ name: 'orbit', index: await indexOf(ORBIT_DOCS), pairs: ORBIT_PAIRS }];
const graphile = sharedFolder('datasets/graphile-worker-dev/docs', process.env);
if (graphile.present) sets.push({ name: 'graphile-worker', index: await indexOf(graphile.path), pairs: GRAPHILE_PAIRS });
else console.error(`skipping graphile-worker: ${graphile.absent}`);

interface Row extends Pair {
  dataset: string;
  conversation: boolean;
  historyOnly: boolean;
  bare: boolean;
  query: string | undefined;
}
const rows: Row[] = [];
for (const { name, index, pairs } of sets) {
  for (const pair of pairs) {
    const memory = new SearchMemory();
    const first = await agenticRun(pair.first, { model, index, memory });
    const history: ConversationTurn[] = [{ question: pair.first, answer: first.answer.text, citations: first.answer.citations }];
    const cites = (run: AgentRun) => run.answer.citations.some((citation) => pair.pages.includes(citation.docId));
    const conversation = await agenticRun(pair.followUp, { model, index, memory, history });
    const historyOnly = await agenticRun(pair.followUp, { model, index, history });
    const bare = await agenticRun(pair.followUp, { model, index });
    rows.push({ dataset: name, ...pair, conversation: cites(conversation), historyOnly: cites(historyOnly), bare: cites(bare), query: conversation.trace.steps[0]?.query });
  }
  await index.close();
}
const total = (key: 'conversation' | 'historyOnly' | 'bare') => rows.filter((row) => row[key]).length;
const summary = { pairs: rows.length, conversation: total('conversation'), historyOnly: total('historyOnly'), bare: total('bare') };
if (values.json) console.log(JSON.stringify({ summary, rows }, null, 2));
else {
  console.log('conv hist bare | first -> follow-up (first search of the conversation turn)');
  for (const row of rows) {
    const mark = (value: boolean) => (value ? '  Y ' : '  . ');
    console.log(`${mark(row.conversation)} ${mark(row.historyOnly)} ${mark(row.bare)} | ${row.first} -> ${row.followUp} (${row.query})`);
  }
  console.log(`cites a page that answers the follow-up: conversation ${summary.conversation}/${summary.pairs}, history only ${summary.historyOnly}/${summary.pairs}, bare ${summary.bare}/${summary.pairs}`);
}
