import { Option } from 'commander';
import { EMBED_SPEC_FORMS, parseEmbedSpec, parseRerankSpec, RERANK_SPEC_FORMS } from '../../embed/embed-spec.ts';
import { AtlasError } from '../../errors.ts';
import { SEARCH_MODES, type IndexBackend, type SearchMode } from '../../index/types.ts';
import type { VectorCapableIndex } from '../../index/vectors/vector-retrieval.ts';
import type { EmbedProgress } from '../../index/vectors/vector-types.ts';
import type { Embedder } from '../../embed/types.ts';
import type { CliIO } from '../io.ts';
import { nonEmpty } from './option-values.ts';
import { openIndex, type CliIndex } from './options.ts';

/** The retrieval options of a command: `--embed`, `--rerank`, `--mode` (each optional). */
export interface RetrievalCliOptions {
  embed?: string;
  rerank?: string;
  mode?: string;
  /** `--read-db URL`: the PostgreSQL standby that serves the searches and reads (readDbOption). */
  readDb?: string;
}

/** `--embed SPEC`: the embedding model (env `ATLAS_EMBED`); see docs/vectors.md. */
export function embedOption(): Option {
  return new Option('--embed <spec>', `embedding model for vectors and hybrid search: ${EMBED_SPEC_FORMS}; env ATLAS_EMBED`).argParser(
    nonEmpty('--embed', 'openai:text-embedding-3-small'),
  );
}

/** `--rerank SPEC`: the reranking model (env `ATLAS_RERANK`). */
export function rerankOption(): Option {
  return new Option('--rerank <spec>', `rerank the top candidates of every search: ${RERANK_SPEC_FORMS}; env ATLAS_RERANK`).argParser(nonEmpty('--rerank', 'cohere:rerank-v3.5'));
}

/** `--mode MODE`: how a search ranks (default: hybrid with an embedder, else bm25; env `ATLAS_SEARCH_MODE`). */
export function modeOption(): Option {
  return new Option('--mode <mode>', 'ranking: bm25, vector or hybrid (default: hybrid with --embed, else bm25); env ATLAS_SEARCH_MODE').choices(SEARCH_MODES);
}

/**
 * `index` wrapped by `withRetrieval` with the embedder and reranker of `--embed`/`ATLAS_EMBED`
 * and `--rerank`/`ATLAS_RERANK` (options win over env), and the default mode of `--mode` or
 * `ATLAS_SEARCH_MODE`; `index` itself when none is set, so no provider package is loaded. An
 * ingest reports its embedding progress on stderr.
 *
 * @example
 * const index = await withCliRetrieval(io, options, createSqliteIndex({ path: ':memory:' }));
 */
export async function withCliRetrieval<T extends IndexBackend>(io: CliIO, options: RetrievalCliOptions, index: T): Promise<T> {
  const embedSpec = options.embed ?? nonBlank(io.env.ATLAS_EMBED);
  const rerankSpec = options.rerank ?? nonBlank(io.env.ATLAS_RERANK);
  const mode = options.mode ?? nonBlank(io.env.ATLAS_SEARCH_MODE);
  if (embedSpec === undefined && rerankSpec === undefined && mode === undefined) return index;
  try {
    if (!isVectorCapable(index)) {
      const given = [embedSpec === undefined ? '' : '--embed', rerankSpec === undefined ? '' : '--rerank', mode === undefined ? '' : '--mode'].filter(Boolean).join(', ');
      throw new AtlasError('usage', `Atlas: ${given} (or ATLAS_EMBED, ATLAS_RERANK, ATLAS_SEARCH_MODE) need an index that keeps vectors (SQLite, or PostgreSQL with pgvector); this one keeps none. Leave them out to search by BM25 (docs/vectors.md).`);
    }
    return (await wrapIndex(io, { embedSpec, rerankSpec, mode }, index)) as T;
  } catch (error) {
    await index.close();
    throw error;
  }
}

/**
 * The index a searching command reads: `--db` opened read-only ({@link openIndex}; `follow` for
 * a long-lived server, which must notice a `--rebuild`) with the retrieval options of the
 * command ({@link withCliRetrieval}).
 *
 * @example
 * const index = await openSearchIndex(io, options); // options: { db, embed?, rerank?, mode? }
 * const served = await openSearchIndex(io, options, { follow: true }); // serve, mcp
 */
export async function openSearchIndex(io: CliIO, options: RetrievalCliOptions & { db?: string }, open: { follow?: boolean } = {}): Promise<CliIndex> {
  return withCliRetrieval(io, options, await openIndex(io, options.db, { ...open, ...(options.readDb === undefined ? {} : { readDb: options.readDb }) }));
}

/** Whether `index` keeps vectors (the SQLite index and the PostgreSQL one, with pgvector, do). */
function isVectorCapable(index: IndexBackend): index is IndexBackend & VectorCapableIndex {
  return typeof (index as Partial<VectorCapableIndex>).vectorStatus === 'function' && typeof (index as Partial<VectorCapableIndex>).searchVectors === 'function';
}

/**
 * The embedder of `--embed`/`ATLAS_EMBED`, or undefined when neither is set (no provider package is loaded then).
 *
 * @example
 * const embedder = await cliEmbedder(io, options); // ingest: embeds after the text ingest commits
 */
export async function cliEmbedder(io: CliIO, options: RetrievalCliOptions): Promise<Embedder | undefined> {
  const spec = options.embed ?? nonBlank(io.env.ATLAS_EMBED);
  if (spec === undefined) return undefined;
  parseEmbedSpec(spec);
  const { resolveEmbedder } = await import('../../embed/resolve.ts');
  return resolveEmbedder(spec, { env: io.env });
}

/**
 * Prints an embedding run's progress on stderr, one line per batch.
 *
 * @example
 * await index.syncVectors(embedder, { onProgress: embedProgress(io, embedder.model) });
 */
export function embedProgress(io: CliIO, model: string): (progress: EmbedProgress) => void {
  return ({ embedded, total }) => io.stderr(`atlas: embedded ${embedded}/${total} chunks with ${model}\n`);
}

async function wrapIndex<T extends VectorCapableIndex>(
  io: CliIO,
  { embedSpec, rerankSpec, mode }: { embedSpec: string | undefined; rerankSpec: string | undefined; mode: string | undefined },
  index: T,
): Promise<T> {
  if (mode !== undefined && !(SEARCH_MODES as readonly string[]).includes(mode)) {
    throw new AtlasError('usage', `Atlas: ATLAS_SEARCH_MODE must be one of ${SEARCH_MODES.join(', ')}, got "${mode}". Fix it, or unset it.`);
  }
  // Checked before the provider packages load, so a typo fails fast.
  if (embedSpec !== undefined) parseEmbedSpec(embedSpec);
  if (rerankSpec !== undefined) parseRerankSpec(rerankSpec);
  const [{ resolveEmbedder, resolveReranker }, { withRetrieval }] = await Promise.all([import('../../embed/resolve.ts'), import('../../index/vectors/vector-retrieval.ts')]);
  const embedder = embedSpec === undefined ? undefined : resolveEmbedder(embedSpec, { env: io.env });
  const status = embedder === undefined ? undefined : await index.vectorStatus();
  if (embedder && status === undefined && (await index.stats()).chunks > 0) {
    io.stderr(`atlas: note: the index has no vectors yet, so searches rank by BM25 only. Add them: atlas ingest <docs-dir> --embed ${embedder.model}\n`);
  }
  if (status && status.model === embedder?.model && status.missing > 0) {
    io.stderr(`atlas: note: ${status.missing} of ${status.vectors + status.missing} chunks have no vector of ${status.model} yet; vector and hybrid search rank only the others. Embed them: atlas ingest <docs-dir> --embed ${status.model}\n`);
  }
  const reranker = rerankSpec === undefined ? undefined : resolveReranker(rerankSpec, { env: io.env });
  return withRetrieval(index, {
    ...(embedder ? { embedder } : {}),
    ...(reranker ? { reranker } : {}),
    ...(mode ? { mode: mode as SearchMode } : {}),
    ...(embedder ? { onEmbedProgress: embedProgress(io, embedder.model) } : {}),
  });
}

function nonBlank(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}
