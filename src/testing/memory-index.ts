import { createHash } from 'node:crypto';
import type { Chunk, Doc } from '../corpus/types.ts';
import type { Hit, IndexBackend, IngestReport, SearchFilter, SearchOptions } from '../index/types.ts';

/**
 * A tiny in-memory {@link IndexBackend} for tests of the agent layer: term-overlap scoring, the
 * same filter semantics as the real backends, no persistence.
 *
 * @example
 * const index = createMemoryIndex([makeDoc('flows', 'all', [['Results', 'A step result ...']])]);
 */
export function createMemoryIndex(docs: Doc[] = []): IndexBackend {
  let chunks = new Map<string, Chunk>();
  let hashes = new Map<string, string>();
  const load = (all: Doc[]) => {
    chunks = new Map(all.flatMap((doc) => doc.chunks.map((chunk) => [chunk.chunkId, chunk] as const)));
    hashes = new Map(all.map((doc) => [doc.docId, doc.contentHash]));
  };
  load(docs);
  const visible = (chunk: Chunk | undefined, filter?: SearchFilter) =>
    chunk !== undefined && passesFilter(chunk, filter) ? chunk : undefined;

  return {
    async search(query: string, options: SearchOptions): Promise<Hit[]> {
      const terms = [...new Set(tokens(query))];
      const scored: Hit[] = [];
      for (const chunk of chunks.values()) {
        if (!passesFilter(chunk, options.filter)) continue;
        const body = tokens(`${chunk.heading} ${chunk.heading} ${chunk.text}`);
        const score = terms.reduce((sum, term) => sum + body.filter((token) => token === term).length, 0);
        if (score > 0) scored.push({ ...chunk, score, snippet: chunk.text.replace(/\s+/g, ' ').slice(0, 300) });
      }
      scored.sort((a, b) => b.score - a.score || a.chunkId.localeCompare(b.chunkId));
      return scored.slice(0, options.k);
    },
    async getChunk(chunkId, filter) {
      return visible(chunks.get(chunkId), filter);
    },
    async neighbors(chunkId, filter) {
      const chunk = visible(chunks.get(chunkId), filter);
      if (!chunk) return [];
      return [chunk.prevChunkId, chunk.nextChunkId]
        .map((id) => (id === undefined ? undefined : visible(chunks.get(id), filter)))
        .filter((neighbor): neighbor is Chunk => neighbor !== undefined);
    },
    async ingest(next: Doc[]): Promise<IngestReport> {
      const before = new Map(hashes);
      load(next);
      const ids = next.map((doc) => doc.docId);
      return {
        added: ids.filter((id) => !before.has(id)),
        updated: ids.filter((id) => before.has(id) && before.get(id) !== hashes.get(id)),
        unchanged: ids.filter((id) => before.get(id) === hashes.get(id)),
        removed: [...before.keys()].filter((id) => !hashes.has(id)),
        chunks: chunks.size,
        indexVersion: versionOf(hashes),
      };
    },
    async indexVersion() {
      return versionOf(hashes);
    },
    async stats() {
      return { docs: hashes.size, chunks: chunks.size };
    },
    async close() {},
  };
}

/**
 * Builds a {@link Doc} from `[heading, text]` sections, for tests. Section 0 is the first pair.
 *
 * @example
 * makeDoc('leases', '3.x', [['Leases', 'A worker holds a job...'], ['Settings', 'lease_seconds ...']]);
 */
export function makeDoc(docId: string, appliesTo: string, sections: Array<[heading: string, text: string]>): Doc {
  const title = sections[0]?.[0] ?? docId;
  let line = 1;
  const chunks: Chunk[] = sections.map(([heading, text], ord) => {
    const startLine = line;
    line += text.split('\n').length + 1;
    return {
      chunkId: `${docId}#${ord}`,
      docId,
      title,
      heading,
      headingPath: ord === 0 ? [title] : [title, heading],
      text,
      appliesTo,
      ord,
      labels: {},
      sourcePath: `${docId}.md`,
      startLine,
      endLine: line - 1,
      prevChunkId: ord > 0 ? `${docId}#${ord - 1}` : undefined,
      nextChunkId: ord < sections.length - 1 ? `${docId}#${ord + 1}` : undefined,
    };
  });
  const contentHash = createHash('sha256').update(JSON.stringify(sections)).digest('hex');
  return { docId, title, appliesTo, labels: {}, sourcePath: `${docId}.md`, contentHash, chunks };
}

function passesFilter(chunk: Chunk, filter?: SearchFilter): boolean {
  if (filter?.version !== undefined && chunk.appliesTo !== 'all' && chunk.appliesTo !== filter.version) return false;
  for (const [name, wanted] of Object.entries(filter?.labels ?? {})) {
    const have = chunk.labels[name];
    const haveList = have === undefined ? [] : Array.isArray(have) ? have : [have];
    const wantedList = Array.isArray(wanted) ? wanted : [wanted];
    if (!haveList.some((value) => wantedList.includes(value))) return false;
  }
  return true;
}

function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}

function versionOf(hashes: Map<string, string>): string {
  const pairs = [...hashes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([id, hash]) => `${id}:${hash}`);
  return createHash('sha256').update(pairs.join('\n')).digest('hex').slice(0, 16);
}
