// A run as OpenAI chat completion objects: the answer with numbered citations (and the closest
// passages of an abstention) as the content, the full citations and trace in the `atlas`
// extension field.
import { locatorText } from '../corpus/locator.ts';
import type { Citation, ClosestPassage } from '../agent/trust/answer.ts';
import type { RunEvent } from '../agent/events.ts';
import { plainText } from '../models/offline/plain-text.ts';
import type { AgentRun, RunTrace, RunUsage } from '../agent/run-types.ts';
import { ATLAS_MODEL_ID } from './openai-request.ts';
import { closestHeading } from '../agent/trust/abstain-text.ts';

/** Words at the end of a quote that place its `[n]` marker in the answer text. */
const MARKER_WORDS = 6;

/** Longest content delta of a streamed answer, in characters (a delta never splits a word). */
export const CONTENT_DELTA_CHARS = 64;

/**
 * The `atlas` extension field of a completion (and of the final chunk when streaming): what a
 * plain OpenAI client does not read but an Atlas-aware one can.
 */
export interface AtlasCompletionExtension {
  question: string;
  abstained: boolean;
  /** The verified citations, numbered as the `[n]` markers of the content (citation 1 is `[1]`). */
  citations: Citation[];
  /** On an abstention that found close passages but no direct answer: those passages (`answer.closest`). */
  closest?: ClosestPassage[];
  trace: RunTrace;
  usage: RunUsage;
  latencyMs: number;
  route?: AgentRun['route'];
  routeReason?: string;
  /** How the request's filter was narrowed or its budget capped (the `notes` of POST /v1/ask). */
  notes: string[];
}

/** Identity of one completion: every chunk of a stream carries the same. */
export interface CompletionIdentity {
  id: string;
  /** Unix seconds. */
  created: number;
}

/**
 * The reply's content: the answer text with its `[n]` markers (when the text carries none, a
 * marker is placed after the sentence each citation's quote ends with, or after the text when the
 * quote is not in it), then a "Sources:" list with each citation's heading path and
 * `file:start-end` (and `(stale: reason)` for a quote no longer in the docs as they are now). An abstention is its text alone, followed, when it found close passages but
 * no direct answer, by "Closest passages in the docs:" with each passage's heading path,
 * `file:start-end` and sentences, for clients that read only the text.
 *
 * @example
 * answerContent(run.answer);
 * // 'Steps fail with ORB-1202. [1]\n\nSources:\n[1] Flows > How results move between steps (flows.md:54-61)'
 */
export function answerContent(answer: AgentRun['answer']): string {
  const closest = answer.closest ?? [];
  if (answer.citations.length === 0) return closest.length === 0 ? answer.text : `${answer.text}\n\n${closestContent(closestHeading(answer), closest)}`;
  const text = hasMarkers(answer.text, answer.citations.length) ? answer.text : placeMarkers(answer.text, answer.citations);
  const sources = answer.citations.map((citation, position) => `[${position + 1}] ${placeText(citation)}${citation.stale ? ` (stale: ${citation.stale.reason})` : ''}`);
  return `${text}\n\nSources:\n${sources.join('\n')}`;
}

/** `Title > Section (file.md:3-9)`. */
function placeText(place: Citation | ClosestPassage): string {
  return `${place.headingPath.join(' > ')} (${locatorText(place)})`;
}

/** The closest passages as text: the heading (in the language of the abstention's text), then one line per passage with its sentences quoted. */
function closestContent(heading: string, closest: ClosestPassage[]): string {
  const lines = closest.map((passage) => `- ${placeText(passage)}: ${passage.sentences.map((sentence) => `"${sentence.replace(/\s+/g, ' ').trim()}"`).join(' ')}`);
  return `${heading}:\n${lines.join('\n')}`;
}

/** Whether the text already carries a marker `[n]` of one of its `count` citations (then no marker is placed). */
function hasMarkers(text: string, count: number): boolean {
  return [...text.matchAll(/\[(\d+)\]/g)].some((match) => Number(match[1]) >= 1 && Number(match[1]) <= count);
}

/**
 * A non-streamed `chat.completion` object for a finished run.
 *
 * @example
 * completionOf(run, { id: 'chatcmpl-1', created: 1764600000 }).choices[0].message.content;
 */
export function completionOf(run: AgentRun, identity: CompletionIdentity, notes: string[] = []) {
  return {
    id: identity.id,
    object: 'chat.completion' as const,
    created: identity.created,
    model: ATLAS_MODEL_ID,
    choices: [{ index: 0, message: { role: 'assistant' as const, content: answerContent(run.answer), refusal: null }, logprobs: null, finish_reason: 'stop' as const }],
    usage: usageOf(run.usage),
    atlas: extensionOf(run, notes),
  };
}

/**
 * One `chat.completion.chunk`: `delta` is what it adds; `atlas` carries a run event on the
 * trace chunks and the extension on the final chunk.
 *
 * @example
 * chunkOf({ id: 'chatcmpl-1', created: 0 }, { role: 'assistant', content: '' });
 */
export function chunkOf(
  identity: CompletionIdentity,
  delta: { role?: 'assistant'; content?: string },
  extra: { finishReason?: 'stop'; atlas?: { event: RunEvent } | AtlasCompletionExtension } = {},
) {
  return {
    id: identity.id,
    object: 'chat.completion.chunk' as const,
    created: identity.created,
    model: ATLAS_MODEL_ID,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: extra.finishReason ?? null }],
    ...(extra.atlas === undefined ? {} : { atlas: extra.atlas }),
  };
}

/**
 * The usage-only chunk sent before `[DONE]` when the request asked `stream_options.include_usage`.
 *
 * @example
 * usageChunkOf(identity, run.usage).usage; // { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } with the offline model
 */
export function usageChunkOf(identity: CompletionIdentity, usage: RunUsage) {
  return { id: identity.id, object: 'chat.completion.chunk' as const, created: identity.created, model: ATLAS_MODEL_ID, choices: [], usage: usageOf(usage) };
}

/**
 * Splits content into deltas of at most {@link CONTENT_DELTA_CHARS} characters at whitespace
 * (a longer word is a delta of its own); joined, they are the content exactly.
 *
 * @example
 * contentDeltas('one two'); // ['one two']
 */
export function contentDeltas(content: string): string[] {
  const deltas: string[] = [];
  let current = '';
  for (const piece of content.match(/\S+\s*|\s+/g) ?? []) {
    if (current !== '' && current.length + piece.length > CONTENT_DELTA_CHARS) {
      deltas.push(current);
      current = '';
    }
    current += piece;
  }
  if (current !== '') deltas.push(current);
  return deltas;
}

/**
 * The `atlas` extension of a finished run (docs/server-openai-and-page.md lists its fields).
 *
 * @example
 * extensionOf(run, []).citations[0].chunkId; // 'api-results#3'
 */
export function extensionOf(run: AgentRun, notes: string[] = []): AtlasCompletionExtension {
  return {
    question: run.question,
    abstained: run.answer.abstained,
    citations: run.answer.citations,
    ...(run.answer.closest === undefined ? {} : { closest: run.answer.closest }),
    trace: run.trace,
    usage: run.usage,
    latencyMs: run.latencyMs,
    ...(run.route === undefined ? {} : { route: run.route }),
    ...(run.routeReason === undefined ? {} : { routeReason: run.routeReason }),
    notes,
  };
}

function usageOf(usage: RunUsage) {
  return { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens };
}

/** Words of a text with where each ends, lower-cased letters and digits only. */
function wordsOf(text: string): Array<{ word: string; end: number }> {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => ({ word: match[0].toLowerCase(), end: (match.index ?? 0) + match[0].length }));
}

function placeMarkers(text: string, citations: Citation[]): string {
  const words = wordsOf(text);
  const inserts: Array<{ at: number; position: number; marker: string }> = [];
  const trailing: string[] = [];
  citations.forEach((citation, position) => {
    const marker = `[${position + 1}]`;
    const lastPart = citation.quote.split(/\.\.\.|…/).filter((part) => part.trim() !== '').at(-1) ?? '';
    const tail = wordsOf(plainText(lastPart)).slice(-MARKER_WORDS).map((entry) => entry.word);
    const at = tail.length === 0 ? -1 : findSequence(words, tail);
    if (at === -1) trailing.push(marker);
    else inserts.push({ at: sentenceEnd(text, at), position, marker });
  });
  let result = text;
  for (const insert of [...inserts].sort((a, b) => b.at - a.at || b.position - a.position)) {
    result = `${result.slice(0, insert.at)} ${insert.marker}${result.slice(insert.at)}`;
  }
  return trailing.length === 0 ? result : `${result} ${trailing.join(' ')}`;
}

/** The end offset of the first occurrence of `sequence` among `words`, or -1. */
function findSequence(words: Array<{ word: string; end: number }>, sequence: string[]): number {
  for (let start = 0; start + sequence.length <= words.length; start++) {
    if (sequence.every((word, offset) => words[start + offset]?.word === word)) return words[start + sequence.length - 1]?.end ?? -1;
  }
  return -1;
}

/** Moves an offset past the closing punctuation right after it (`.`, `)`, `"`, ...), so a marker follows the sentence. */
function sentenceEnd(text: string, at: number): number {
  let end = at;
  while (end < text.length && /[.,;:!?)\]"'`*_»”’]/u.test(text[end] ?? '')) end++;
  return end;
}
