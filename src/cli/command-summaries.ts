// What `atlas --help` lists of each command, apart from the commands' modules so that listing
// them loads none (main.ts); each command takes its description from here.

/**
 * Each command's help term and description. Loading every command took `atlas --help` to about
 * 540 ms; main.test.ts checks that the list reads as the commands' own help does (the terms
 * repeat their arguments).
 */
export const COMMAND_SUMMARIES: Record<string, { term: string; description: string }> = {
  ingest: { term: 'ingest [options] <dir>', description: 'Index a folder of markdown docs (a dataset folder, with docs/ and eval/*.jsonl, indexes its docs/).' },
  search: { term: 'search [options] <query>', description: 'Search the index once (no model).' },
  ask: { term: 'ask [options] <question>', description: 'Answer a question from the docs, with verified citations and the trace.' },
  chat: { term: 'chat [options]', description: 'Chat with the docs in the terminal: every question sees the earlier ones (/exit or Ctrl-D ends).' },
  eval: { term: 'eval', description: 'Measure retrieval and answers on a dataset folder (docs/ + eval/*.jsonl).' },
  mcp: { term: 'mcp [options]', description: 'Serve the index to MCP clients over stdio: search_docs, read_section, read_neighbors, ask, and chunk/doc resources.' },
  serve: { term: 'serve [options]', description: 'Serve the index over HTTP: ask, stream a run, search, read chunks (docs/server.md).' },
};
