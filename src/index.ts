/**
 * Atlas: agentic RAG over markdown docs. The library surface; the `atlas` CLI, evals and tests
 * are built on these exports.
 *
 * @example
 * import { agenticRun, createOfflineModel, createSqliteIndex, loadCorpus } from 'atlas-rag';
 * const index = createSqliteIndex({ path: '.atlas/index.db' });
 * await index.ingest((await loadCorpus('docs')).docs);
 * const run = await agenticRun('How do I set the lease on 3.x?', { model: createOfflineModel(), index });
 */
export { AtlasError, CorpusError, type AtlasErrorCode, type CorpusProblem } from './errors.ts';
export { loadCorpus, parseDocument, type Chunk, type Doc } from './corpus/index.ts';
export { createSqliteIndex, type SqliteIndexOptions } from './index/sqlite/sqlite.ts';
export { createPostgresIndex, type PostgresIndex, type PostgresIndexOptions, type PostgresRanking } from './index/postgres/postgres.ts';
export type { Hit, IndexBackend, IngestReport, Principal, SearchFilter, SearchMode, SearchOptions } from './index/types.ts';
export { withRetrieval, FUSION_DEPTH, RERANK_DEPTH, type RetrievalOptions, type VectorCapableIndex } from './index/vectors/vector-retrieval.ts';
export { DEFAULT_FUSION, fuseRankings, type FusionWeights } from './index/vectors/vector-fusion.ts';
export type { EmbedProgress, SyncVectorsOptions, VectorBackend, VectorStatus, VectorSyncReport } from './index/vectors/vector-types.ts';
export * from './embed/index.ts';
export { agenticRun, type AgenticRunOptions } from './agent/run.ts';
export { classicAsk, type ClassicAskOptions } from './agent/classic.ts';
export {
  citationsFailed,
  classicAbstained,
  defaultRouteChecks,
  multiPartQuestion,
  routedAsk,
  uncoveredPart,
  weakRetrieval,
  type Route,
  type RouteCheck,
  type RouteContext,
  type RoutedAskOptions,
  type RoutedRun,
} from './agent/policy/route.ts';
export type { AgentRun, ModelCallRecord, RunTrace, RunUsage } from './agent/run-types.ts';
export { startTracing, type RunTracing, type Tracing } from './telemetry/tracing.ts';
export { costOf, type ModelPrice } from './agent/cost.ts';
export { ABSTAIN_TEXT, type Answer, type Citation, type Claim, type DroppedCitation } from './agent/trust/answer.ts';
export { SearchSession, type SearchStep, type ReadStep } from './agent/session/search-session.ts';
export { chunkBudget, maxSteps, noNewEvidence, searchBudget, type StopCondition, type StopReason } from './agent/stop-conditions.ts';
export { verifyCitations } from './agent/trust/citations.ts';
export { applyClaimSupport, assessClaims, claimSupport, DEFAULT_CLAIM_THRESHOLD, markUnsupported, NO_SUPPORTED_CLAIM, splitClaims } from './agent/trust/claims.ts';
export { checkPolicyData, matchingRules, parsePolicy, type MatchedRule, type Policy, type PolicyRequire, type PolicyRule, type PolicyWhen } from './agent/policy/policy.ts';
export { checkPolicyCitations, runPolicyRetrievals, type PolicyFiring, type PolicyFlag, type PolicyTrace } from './agent/policy/policy-run.ts';
export type { RunEvent, RunEventHandler } from './agent/events.ts';
export { createAgentTools, type AgentToolSet } from './agent/session/tools.ts';
export { modelLabelChoices, narrowLabels, type LabelChoice, type ModelLabel } from './agent/policy/model-labels.ts';
export { CONFIG_FILE_NAME, loadConfig, type LoadConfigOptions } from './config/load.ts';
export { parseConfig, type AtlasConfig } from './config/schema.ts';
export { createOfflineModel, type OfflineModelOptions } from './models/offline/index.ts';
export { defaultModelSpec, pickDefaultModel, resolveModel, type DefaultModelChoice, type ResolvedModel } from './models/index.ts';
export { createWebSearch, WEB_SEARCH_MODELS } from './models/web-tools.ts';
export { parseAllowedDomains, urlAllowed, verifyWebCitations, type WebCitation, type WebOptions, type WebSource, type WebTrace } from './agent/web/web.ts';
export { withWebFallback } from './agent/web/web-fallback.ts';
export { DEFAULT_HISTORY_TOKENS, DEFAULT_HISTORY_TURNS, historyMessages, type ConversationTurn, type HistoryBounds, type HistoryTrace } from './agent/history.ts';
export { SearchMemory, type RememberedPassage } from './agent/session/search-memory.ts';
export {
  askInConversation,
  createPostgresConversationStore,
  openConversationStore,
  openPostgresState,
  openStateDatabase,
  stateDbPath,
  STATE_SCHEMA_VERSION,
  POSTGRES_STATE_SCHEMA_VERSION,
  type ConversationAskOptions,
  type ConversationReply,
  type ConversationStore,
  type StoredConversation,
  type StoredTurn,
} from './conversations/index.ts';
// For AI SDK clients of `atlas serve`: the citations of a chat completion in providerMetadata.atlas.
export { atlasMetadataExtractor } from './server/ai-sdk-metadata.ts';
