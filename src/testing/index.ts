/**
 * Helpers for testing agents built on Atlas: a scripted model that replays turns and records
 * every request, an obedient model that does what the pages it reads tell it (prompt-injection
 * tests), an in-memory index, and a loopback HTTP server for provider contract tests.
 *
 * @example
 * import { createScriptedModel, createMemoryIndex, makeDoc } from 'atlas-rag/testing';
 */
export { createScriptedModel, type ScriptedModel, type ScriptedTurn } from './scripted-model.ts';
export { createObedientModel, readInjectedInstructions, type InjectedInstructions, type ObedientModelOptions } from './obedient-model.ts';
export { createMemoryIndex, makeDoc } from './memory-index.ts';
export * from './loopback-server.ts';
export * from './otlp-spans.ts';
export { createHashEmbedder, createRecordingEmbedder, createScriptedReranker, type RecordingEmbedder, type ScriptedReranker } from './embedders.ts';
