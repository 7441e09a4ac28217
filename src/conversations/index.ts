// Conversations that remember: the state database, the store, and one turn of a conversation.
export { askInConversation, historyOf, type ConversationAskOptions, type ConversationReply } from './ask.ts';
export { openStateDatabase, stateDbPath, STATE_SCHEMA_VERSION } from './state-db.ts';
export {
  openConversationStore,
  type ConversationStore,
  type ConversationStoreOptions,
  type StoredConversation,
  type StoredSearch,
  type StoredTurn,
  type TurnTraceSummary,
} from './store.ts';
