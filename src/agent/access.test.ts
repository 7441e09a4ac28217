import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Doc, LabelValue } from '../corpus/types.ts';
import { createSqliteIndex } from '../index/sqlite/sqlite.ts';
import { createTestDoc } from '../index/test-docs.ts';
import type { IndexBackend } from '../index/types.ts';
import { createMemoryIndex } from '../testing/memory-index.ts';
import { createScriptedModel } from '../testing/scripted-model.ts';
import { classicAsk } from './classic.ts';
import { createOfflineModel } from '../models/offline/index.ts';
import { agenticRun } from './run.ts';
import { SearchSession, type ToolOutcome } from './session/search-session.ts';
import { executeToolCall } from './session/tools.ts';

const GROUPS = ['admins', 'staff', 'finance'] as const;
const WORDS = ['vault', 'rotation', 'payroll', 'queue', 'lease', 'token', 'envelope', 'audit'];

/**
 * Eight pages of three sections over a small vocabulary (so every query matches public and
 * restricted chunks alike); some pages restricted as a whole, some sections restricted alone.
 * Every restricted chunk carries a unique marker word `hush<n>x`, the text a leak would show.
 */
function buildCorpus(): { docs: Doc[]; acl: Map<string, string[]>; markers: Map<string, string> } {
  const acl = new Map<string, string[]>();
  const markers = new Map<string, string>();
  const docAcl: Array<LabelValue | undefined> = [undefined, 'admins', ['staff', 'admins'], undefined, ['finance'], undefined, 'staff', undefined];
  const docs = docAcl.map((pageAcl, d) => {
    const sections = [0, 1, 2].map((s) => {
      const words = [0, 1, 2, 3].map((w) => WORDS[(d * 3 + s * 5 + w * 7) % WORDS.length]).join(' ');
      const sectionAcl = pageAcl === undefined && (d + s) % 3 === 1 ? [GROUPS[d % GROUPS.length]!] : undefined;
      const restricted = pageAcl ?? sectionAcl;
      const chunkId = `d${d}#${s}`;
      if (restricted !== undefined) {
        acl.set(chunkId, Array.isArray(restricted) ? restricted : [restricted]);
        markers.set(chunkId, `hush${d}${s}x`);
      }
      const text = `${words} ${restricted === undefined ? 'open text' : `${markers.get(chunkId)} secret text`}.`;
      return { heading: `Part ${d}.${s} ${WORDS[(d + s) % WORDS.length]}`, text, ...(sectionAcl ? { labels: { acl: sectionAcl } } : {}) };
    });
    return createTestDoc({ docId: `d${d}`, appliesTo: d % 2 === 0 ? 'all' : '3.x', ...(pageAcl ? { labels: { acl: pageAcl } } : {}), sections });
  });
  return { docs, acl, markers };
}

const corpus = buildCorpus();
const chunkIds = corpus.docs.flatMap((doc) => doc.chunks.map((chunk) => chunk.chunkId));
const restrictedIds = [...corpus.acl.keys()];
const hiddenFor = (groups: string[]) => restrictedIds.filter((id) => !corpus.acl.get(id)!.some((group) => groups.includes(group)));

const sqlite = createSqliteIndex({ path: ':memory:' });
const memory = createMemoryIndex();
afterAll(async () => {
  await sqlite.close();
});

/** Queries a model (or an attacker) might send: vocabulary, markers, ids, FTS5 syntax, SQL, noise. */
const queryArb = fc.oneof(
  fc.array(fc.constantFrom(...WORDS, ...corpus.markers.values()), { minLength: 1, maxLength: 4 }).map((words) => words.join(' ')),
  fc.constantFrom(...restrictedIds),
  fc.constantFrom(...corpus.markers.values()).chain((marker) =>
    fc.constantFrom(`"${marker}"`, `${marker.slice(0, 5)}*`, `vault OR ${marker}`, `NEAR(${marker} secret)`, `heading: ${marker}`, `acl:admins ${marker}`, `${marker}' OR '1'='1`),
  ),
  fc.constantFrom('acl', 'admins', 'labels acl admins', 'secret text', "' OR 1=1 --", '*', 'NOT open', '{title heading}: secret'),
  fc.string({ minLength: 1, maxLength: 20 }),
);

/** Chunk ids: real ones (restricted or not), near misses, injections, noise. */
const idArb = fc.oneof(
  fc.constantFrom(...chunkIds),
  fc.constantFrom(...restrictedIds).chain((id) => fc.constantFrom(id, ` ${id}`, id.toUpperCase(), `${id}' OR '1'='1`, `${id}--`, id.replace('#', '#0'))),
  fc.string({ minLength: 1, maxLength: 12 }),
);

const versionArb = fc.option(fc.constantFrom('3.x', '2.x', 'all', '', "' OR 1=1 --"), { nil: undefined });

/** A tool call as a model sends it, including arguments the schema does not have (they must not widen anything). */
const callArb = fc.oneof(
  fc.record({ query: queryArb, version: versionArb, page: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }) }).map((input) => ({
    tool: 'search_docs',
    input: { ...input, labels: { acl: 'admins' }, principal: { groups: [...GROUPS] } },
  })),
  fc.record({ chunk_id: idArb, offset: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }), query: fc.option(queryArb, { nil: undefined }) }).map((input) => ({
    tool: 'read_section',
    input,
  })),
  idArb.map((chunk_id) => ({ tool: 'read_neighbors', input: { chunk_id } })),
);

const principalArb = fc.oneof(fc.constant(undefined), fc.subarray([...GROUPS, 'guests']).map((groups) => ({ groups })));

/** The outcome's text with the id the caller asked for taken out (a "not found" error names it back). */
function shown(outcome: ToolOutcome, askedId: string | undefined): string {
  const text = JSON.stringify(outcome);
  return askedId === undefined ? text : text.split(askedId).join('<asked>');
}

async function sessionFor(index: IndexBackend, principal: { groups: string[] } | undefined, version?: string) {
  return new SearchSession({ index, maxSearches: 100, ...(principal ? { principal } : {}), ...(version ? { filter: { version } } : {}) });
}

describe.each([
  ['sqlite', sqlite as IndexBackend],
  ['memory', memory],
])('access groups through the agent tools (%s index)', (_name, index) => {
  it('reaches 0 restricted chunks outside the principal\'s groups, whatever the tool calls', async () => {
    await index.ingest(corpus.docs);
    await fc.assert(
      fc.asyncProperty(principalArb, fc.array(callArb, { minLength: 1, maxLength: 12 }), versionArb, async (principal, calls, version) => {
        const hidden = hiddenFor(principal?.groups ?? []);
        const session = await sessionFor(index, principal, version || undefined);
        for (const call of calls) {
          const outcome = await executeToolCall(session, call.tool, call.input);
          const askedId = 'chunk_id' in call.input ? call.input.chunk_id : undefined;
          const text = shown(outcome, askedId);
          for (const id of hidden) {
            expect(text).not.toContain(`"${id}"`);
            expect(text).not.toContain(corpus.markers.get(id)!);
          }
          if (askedId !== undefined && hidden.includes(askedId)) {
            const unknown = await executeToolCall(await sessionFor(index, principal, version || undefined), call.tool, { ...call.input, chunk_id: 'nope#0' });
            expect(text).toBe(shown(unknown, 'nope#0'));
          }
        }
        for (const id of hidden) expect(session.evidence.has(id)).toBe(false);
      }),
      { numRuns: 60, seed: 11 },
    );
  });

  it('still shows restricted chunks to a principal in their group (the check above can fail)', async () => {
    await index.ingest(corpus.docs);
    const admin = await sessionFor(index, { groups: ['admins'] });
    const found = await executeToolCall(admin, 'search_docs', { query: 'hush10x' });
    expect(JSON.stringify(found)).toContain('hush10x');
    expect(admin.evidence.has('d1#0')).toBe(true);
    const staff = await sessionFor(index, { groups: ['staff'] });
    expect(await executeToolCall(staff, 'read_section', { chunk_id: 'd1#0' })).toEqual({
      ok: false,
      error: 'chunk not found: d1#0. Use a chunk_id returned by search_docs.',
    });
    expect(JSON.stringify(await executeToolCall(staff, 'read_section', { chunk_id: 'd2#0' }))).toContain('hush20x');
    const links = await executeToolCall(staff, 'read_section', { chunk_id: 'd0#0' });
    expect(links.ok && { prev: links.value.prev_chunk_id, next: links.value.next_chunk_id }).toEqual({ prev: null, next: null });
    const open = await executeToolCall(await sessionFor(index, { groups: ['admins'] }), 'read_section', { chunk_id: 'd0#0' });
    expect(open.ok && open.value.next_chunk_id).toBe('d0#1');
    expect(hiddenFor(['staff'])).toEqual(['d0#1', 'd1#0', 'd1#1', 'd1#2', 'd3#1', 'd4#0', 'd4#1', 'd4#2', 'd5#2']);
  });
});

describe('access groups through the library entry points', () => {
  const envelope = createTestDoc({ docId: 'break-glass', labels: { acl: ['admins'] }, sections: ['The vault root token is kept in the red envelope in the safe.'] });
  const help = createTestDoc({ docId: 'help', sections: ['Vault questions go to the help desk on floor two.'] });
  const question = 'Where is the vault root token kept?';

  it('lets a session principal only narrow the groups of filter.principal', async () => {
    const index = createMemoryIndex([envelope, help]);
    const both = new SearchSession({ index, filter: { principal: { groups: ['admins', 'staff'] } }, principal: { groups: ['staff'] } });
    expect(await both.readSection({ chunk_id: 'break-glass#0' })).toEqual({ ok: false, error: 'chunk not found: break-glass#0. Use a chunk_id returned by search_docs.' });
    const admin = new SearchSession({ index, filter: { principal: { groups: ['admins', 'staff'] } }, principal: { groups: ['admins'] } });
    expect((await admin.readSection({ chunk_id: 'break-glass#0' })).ok).toBe(true);
  });

  it('drops a citation of a restricted page and never shows it, with a scripted model that guesses its id', async () => {
    const index = createMemoryIndex([envelope, help]);
    const model = createScriptedModel([
      { toolCalls: [{ toolName: 'search_docs', input: { query: 'vault root token red envelope' } }] },
      { toolCalls: [{ toolName: 'read_section', input: { chunk_id: 'break-glass#0' } }, { toolName: 'read_neighbors', input: { chunk_id: 'break-glass#0' } }] },
      { answer: { text: 'In the red envelope.', citations: [{ doc_id: 'break-glass', quote: 'The vault root token is kept in the red envelope' }] } },
    ]);
    const run = await agenticRun(question, { model, index, principal: { groups: ['staff'] }, stopWhen: [] });
    expect(run.answer.citations).toEqual([]);
    expect(run.trace.droppedCitations.map((dropped) => dropped.reason)).toEqual(['doc "break-glass" was never seen or read in this run']);
    expect(run.trace.evidence.map((item) => item.chunkId)).toEqual(['help#0']);
    expect(run.trace.reads.map((read) => read.found)).toEqual([false, false]);
    expect(JSON.stringify(run.trace)).not.toContain('red envelope in the safe');
  });

  it('keeps the offline planner and the classic arm to public pages unless the principal is in the group', async () => {
    const index = createMemoryIndex([envelope, help]);
    for (const ask of [agenticRun, classicAsk]) {
      const outsider = await ask(question, { model: createOfflineModel(), index, principal: { groups: ['staff'] } });
      expect(outsider.trace.evidence.map((item) => item.docId)).toEqual(['help']);
      expect(outsider.answer.citations.every((citation) => citation.docId === 'help')).toBe(true);
      const anonymous = await ask(question, { model: createOfflineModel(), index });
      expect(anonymous.trace.evidence.map((item) => item.docId)).toEqual(['help']);
      const insider = await ask(question, { model: createOfflineModel(), index, principal: { groups: ['admins'] } });
      expect(insider.answer.citations.map((citation) => citation.docId)).toContain('break-glass');
    }
  });
});
