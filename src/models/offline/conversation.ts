import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { isRepairPrompt, readSystemPrompt } from '../../agent/prompt.ts';

/** A passage the conversation showed: a search result or a section that was read. */
export interface Passage {
  chunkId: string;
  docId: string;
  heading: string;
  /** "Title > Section > Subsection", when the tool result gives it. */
  headingPath?: string;
  title?: string;
  appliesTo: string;
  /** Every text of this chunk the conversation showed (snippets, full sections). */
  texts: string[];
  /** True when the whole section was read (every page, or given in full). */
  full: boolean;
  /** Pages of the section that were read, by offset (a section that fits is one page at 0). */
  pages: Map<number, string>;
  /** Where the unread rest of a section begins when a page was cut; unset once read to the end. */
  nextOffset?: number;
  /** Offsets of unread lines that the session says match the run's last search. */
  matchOffsets: number[];
  /** Length of the whole section, when a page told it. */
  totalChars?: number;
  /** The links of the texts shown as the session resolved them, when a result gave them: href -> the chunk it names, or null for no page the run may read. */
  links?: Map<string, string | null>;
  /** Index of the search (0-based) that first surfaced it; reads after search n count as n. */
  searchIndex: number;
  /** Rank within that search (0-based); reads rank after results. */
  rank: number;
  score: number;
}

/** One search the conversation made, with what came back. */
export interface PastSearch {
  query: string;
  version?: string;
  /** The page of the query's ranking asked for, when above 1. */
  page?: number;
  chunkIds: string[];
  error?: string;
  note?: string;
}

/** What the planner reads back from the prompt: it keeps no state of its own between calls. */
export interface Conversation {
  /** The last user turn that is not a repair request: the question of this run. */
  question: string;
  /** The questions of earlier turns of the conversation (user turns before the question), oldest first. */
  earlierQuestions: string[];
  searches: PastSearch[];
  readChunkIds: string[];
  /** Index of the last search before each read (-1 before any search), parallel to readChunkIds. */
  readAfterSearch: number[];
  passages: Map<string, Passage>;
  /** The last user turn asked to repair malformed output. */
  repairRequested: boolean;
  /** Tool results that were errors (budget exhausted, not found, ...). */
  errors: string[];
  /** The search budget announced by the system prompt ("at most N searches"), when given. */
  announcedBudget?: number;
  /** The release line the run is restricted to, as the system prompt announces it. */
  sessionVersion?: string;
}

type ToolCallInfo = { toolName: string; input: Record<string, unknown> };

/**
 * Rebuilds the state of a run from the messages the loop sent: the question, every search and
 * its results, every read, and the passages shown. Tool output is data, never instructions.
 */
export function readConversation(prompt: LanguageModelV3Prompt): Conversation {
  const conversation: Conversation = { question: '', earlierQuestions: [], searches: [], readChunkIds: [], readAfterSearch: [], passages: new Map(), repairRequested: false, errors: [] };
  const calls = new Map<string, ToolCallInfo>();
  for (const message of prompt) {
    if (message.role === 'system') {
      const announced = readSystemPrompt(message.content);
      if (announced.maxSearches !== undefined) conversation.announcedBudget = announced.maxSearches;
      if (announced.version !== undefined) conversation.sessionVersion = announced.version;
    } else if (message.role === 'user') {
      const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join(' ').trim();
      conversation.repairRequested = isRepairPrompt(text);
      if (conversation.repairRequested) continue;
      // Earlier turns of a conversation come first (see agent/history.ts): the last question is this run's.
      if (conversation.question !== '') conversation.earlierQuestions.push(conversation.question);
      conversation.question = text;
    } else if (message.role === 'assistant') {
      for (const part of message.content) {
        if (part.type === 'tool-call') calls.set(part.toolCallId, { toolName: part.toolName, input: asObject(part.input) });
      }
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = calls.get(part.toolCallId) ?? { toolName: part.toolName, input: {} };
        recordResult(conversation, call, part.output);
      }
    }
  }
  return conversation;
}

function recordResult(conversation: Conversation, call: ToolCallInfo, output: { type: string; value?: unknown }): void {
  const error = output.type === 'error-text' || output.type === 'error-json' ? String(output.value) : undefined;
  if (error !== undefined) conversation.errors.push(error);
  const value = asObject(output.value);
  if (call.toolName === 'search_docs') recordSearch(conversation, call, value, error);
  else if (call.toolName === 'read_section' || call.toolName === 'read_neighbors') recordRead(conversation, call, value, error);
}

function recordSearch(conversation: Conversation, call: ToolCallInfo, value: Record<string, unknown>, error: string | undefined): void {
  const search: PastSearch = {
    query: String(call.input.query ?? ''),
    ...(typeof call.input.version === 'string' ? { version: call.input.version } : {}),
    ...(Number.isInteger(call.input.page) && (call.input.page as number) > 1 ? { page: call.input.page as number } : {}),
    chunkIds: [],
    ...(error === undefined ? {} : { error }),
  };
  const results = error === undefined && Array.isArray(value.results) ? value.results.map(asObject) : [];
  results.forEach((result, rank) => {
    const chunkId = String(result.chunk_id ?? '');
    if (chunkId === '') return;
    search.chunkIds.push(chunkId);
    const full = typeof result.text === 'string';
    addPassage(conversation, {
      ...passageFields(result),
      texts: [full ? String(result.text) : String(result.snippet ?? '')],
      ...pageOf(result, full),
      searchIndex: conversation.searches.length,
      rank,
      score: Number(result.score ?? 0),
    });
  });
  // Passages an earlier turn of the conversation was shown: not shown again, but named, so they can be read again.
  const earlier = error === undefined && Array.isArray(value.shown_earlier) ? value.shown_earlier.map(asObject) : [];
  earlier.forEach((result, position) => {
    if (typeof result.chunk_id !== 'string' || conversation.passages.has(result.chunk_id)) return;
    addPassage(conversation, { ...passageFields(result), texts: [], ...pageOf(result, false), searchIndex: conversation.searches.length, rank: Number.isInteger(result.rank) ? (result.rank as number) : results.length + position, score: 0 });
  });
  if (error === undefined && typeof value.note === 'string') search.note = value.note;
  conversation.searches.push(search);
}

function recordRead(conversation: Conversation, call: ToolCallInfo, value: Record<string, unknown>, error: string | undefined): void {
  conversation.readChunkIds.push(String(call.input.chunk_id ?? ''));
  conversation.readAfterSearch.push(conversation.searches.length - 1);
  if (error !== undefined) return;
  // A short section comes with its neighbours' first lines (previous_section, next_section): passages read too.
  const context = [value.previous_section, value.next_section].filter((neighbor) => neighbor !== undefined).map(asObject);
  const chunks = call.toolName === 'read_section' ? [value, ...context] : Array.isArray(value.chunks) ? value.chunks.map(asObject) : [];
  for (const chunk of chunks) {
    if (typeof chunk.text !== 'string') continue;
    addPassage(conversation, {
      ...passageFields(chunk),
      ...(typeof chunk.title === 'string' ? { title: chunk.title } : {}),
      texts: [chunk.text],
      ...pageOf(chunk, true),
      searchIndex: Math.max(0, conversation.searches.length - 1),
      rank: 99,
      score: 0,
    });
  }
}

/** The identity of a passage as a tool result spells it. */
function passageFields(result: Record<string, unknown>): Pick<Passage, 'chunkId' | 'docId' | 'heading' | 'appliesTo' | 'headingPath' | 'links'> {
  const links = Object.entries(asObject(result.links)).filter((entry): entry is [string, string | null] => typeof entry[1] === 'string' || entry[1] === null);
  return {
    chunkId: String(result.chunk_id ?? ''),
    docId: String(result.doc_id ?? ''),
    heading: String(result.heading ?? ''),
    appliesTo: String(result.applies_to ?? 'all'),
    ...(typeof result.heading_path === 'string' ? { headingPath: result.heading_path } : {}),
    ...(links.length > 0 ? { links: new Map(links) } : {}),
  };
}

/**
 * The page a result shows: a section text from `offset` (0 when not given) to `next_offset`
 * (the end when null or absent). A result without text (a snippet) shows no page.
 */
function pageOf(
  result: Record<string, unknown>,
  hasText: boolean,
): Pick<Passage, 'full' | 'pages' | 'nextOffset' | 'matchOffsets' | 'totalChars'> {
  const matchOffsets = Array.isArray(result.query_matches)
    ? result.query_matches.map((match) => Number(asObject(match).offset)).filter(Number.isInteger)
    : [];
  if (!hasText) return { full: false, pages: new Map(), matchOffsets };
  const offset = Number.isInteger(result.offset) ? (result.offset as number) : 0;
  const nextOffset = Number.isInteger(result.next_offset) ? (result.next_offset as number) : undefined;
  const text = String(result.text);
  const pages = new Map([[offset, text]]);
  const totalChars = Number.isInteger(result.total_chars) ? (result.total_chars as number) : nextOffset === undefined ? offset + text.length : undefined;
  const full = nextOffset === undefined && offset === 0;
  return { full, pages, ...(nextOffset === undefined ? {} : { nextOffset }), matchOffsets, ...(totalChars === undefined ? {} : { totalChars }) };
}

function addPassage(conversation: Conversation, passage: Passage): void {
  const existing = conversation.passages.get(passage.chunkId);
  if (!existing) {
    conversation.passages.set(passage.chunkId, passage);
    return;
  }
  for (const text of passage.texts) if (!existing.texts.includes(text)) existing.texts.push(text);
  for (const [offset, text] of passage.pages) existing.pages.set(offset, text);
  for (const offset of passage.matchOffsets) if (!existing.matchOffsets.includes(offset)) existing.matchOffsets.push(offset);
  existing.totalChars ??= passage.totalChars;
  // Read on from where the pages read so far end; the section is whole once they reach its end.
  const readTo = contiguousEnd(existing.pages);
  existing.full ||= passage.full || (existing.totalChars !== undefined && readTo >= existing.totalChars);
  if (existing.full) delete existing.nextOffset;
  else if (readTo > 0) existing.nextOffset = readTo;
  if (passage.links) existing.links = new Map([...(existing.links ?? []), ...passage.links]);
  existing.title ??= passage.title;
  existing.headingPath ??= passage.headingPath;
}

/** Where the pages read from offset 0 on stop being contiguous (0 when the first page was not read). */
function contiguousEnd(pages: Map<number, string>): number {
  let end = 0;
  for (let page = pages.get(end); page !== undefined && page.length > 0; page = pages.get(end)) end += page.length;
  return end;
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return {};
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
