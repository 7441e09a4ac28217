// Conversations that remember: the state database, the store, and one turn of a conversation.
export { askInConversation, historyOf, type ConversationAskOptions, type ConversationReply } from './ask.ts';
export { openStateDatabase, stateDbPath, STATE_SCHEMA_VERSION } from './state-db.ts';
export { openConversationStore, type ConversationStoreOptions } from './sqlite-store.ts';
export { openPostgresState, POSTGRES_STATE_SCHEMA_VERSION, type PostgresState, type PostgresStateOptions } from './postgres-state.ts';
export { createPostgresConversationStore, type PostgresConversationStoreOptions } from './postgres-store.ts';
export {
  type ConversationStore,
  type StoredConversation,
  type StoredSearch,
  type StoredTurn,
  type TurnTraceSummary,
} from './store.ts';
