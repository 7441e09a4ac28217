import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModel, type ScriptedTurn } from '../testing/scripted-model.ts';

/** A passage a conversation was shown, as the model reads it back from the prompt. */
export interface ShownPassage {
  docId: string;
  chunkId: string;
  text: string;
}

/** What a {@link PolicyScript} sees of one request. */
export interface PolicyView {
  question: string;
  /** The classic baseline shows its one retrieval as a search_docs call with this id. */
  arm: 'classic' | 'agentic';
  toolChoice: string | undefined;
  /** Assistant turns so far (0 on the first call). */
  turn: number;
  /** Every passage shown so far, in order. */
  passages: ShownPassage[];
}

/** How the test model behaves on one question. */
export interface QuestionScript {
  /**
   * Tool calls of the agentic arm, one per turn: a search (a query, or a query with a version), or
   * `{ read: docId }`, read_section of the first passage shown from that doc; the next turn answers.
   */
  searches: Array<string | { query: string; version: string } | { read: string }>;
  /** Doc ids it would cite, in preference order; it cites the first sentence of the first shown passage of one of them, or abstains. */
  cite: string[];
}

/**
 * A deterministic scripted model for eval tests that behaves by question, not by call order, so
 * it gives the same results under any concurrency: it searches the scripted queries, then cites
 * the first sentence of the first shown passage whose doc is in `cite` (a quote that verifies),
 * or abstains. Unknown questions answer directly without citations.
 *
 * @example
 * const model = createPolicyModel({ 'What is ORB-1202?': { searches: ['ORB-1202'], cite: ['error-codes'] } });
 */
export function createPolicyModel(scripts: Record<string, QuestionScript>, calls = 500): ScriptedModel {
  // A fixed input token count keeps the tables independent of the system prompt's wording.
  const turn = (request: LanguageModelV3CallOptions): ScriptedTurn => {
    const view = viewOf(request);
    const script = scripts[view.question];
    if (!script) return { answer: { text: 'Hello! No need to search for that.', citations: [] } };
    if (view.arm === 'agentic' && view.toolChoice !== 'none' && view.turn < script.searches.length) {
      const search = script.searches[view.turn];
      // A fixed call id: the default one counts calls across runs, which concurrency reorders.
      if (typeof search === 'object' && 'read' in search) {
        const chunkId = view.passages.find((shown) => shown.docId === search.read)?.chunkId ?? `${search.read}#0`;
        return { toolCalls: [{ toolName: 'read_section', toolCallId: `read-${view.turn + 1}`, input: { chunk_id: chunkId } }] };
      }
      const input = typeof search === 'string' ? { query: search } : search;
      return { toolCalls: [{ toolName: 'search_docs', toolCallId: `search-${view.turn + 1}`, input }] };
    }
    for (const docId of script.cite) {
      const passage = view.passages.find((shown) => shown.docId === docId);
      if (passage) {
        const quote = (passage.text.split(/(?<=\.)\s/)[0] ?? passage.text).trim();
        return { answer: { text: `From ${docId}.`, citations: [{ doc_id: docId, quote }] } };
      }
    }
    return { answer: { text: '', citations: [], abstained: true } };
  };
  return createScriptedModel(
    Array.from({ length: calls }, () => turn),
    { inputTokens: () => 100 },
  );
}

/** Reads the question, the arm and the shown passages back from a request. */
export function viewOf(request: LanguageModelV3CallOptions): PolicyView {
  let question = '';
  let turn = 0;
  let arm: PolicyView['arm'] = 'agentic';
  const passages: ShownPassage[] = [];
  for (const message of request.prompt) {
    if (message.role === 'user' && question === '') {
      question = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    } else if (message.role === 'assistant') {
      turn += 1;
      if (message.content.some((part) => part.type === 'tool-call' && part.toolCallId === 'classic-retrieval')) arm = 'classic';
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result' || part.output.type !== 'json') continue;
        const value = part.output.value as { results?: Array<Record<string, string>>; chunks?: Array<Record<string, string>>; chunk_id?: string };
        // search_docs lists results, read_neighbors chunks, read_section is one passage.
        const shown = value.results ?? value.chunks ?? (value.chunk_id === undefined ? [] : [value as Record<string, string>]);
        for (const result of shown) {
          passages.push({ docId: String(result.doc_id), chunkId: String(result.chunk_id), text: String(result.text ?? result.snippet ?? '') });
        }
      }
    }
  }
  return { question, arm, toolChoice: request.toolChoice?.type, turn, passages };
}
