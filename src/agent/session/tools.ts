import { jsonSchema, tool, zodSchema, type Schema, type ToolSet } from 'ai';
import { z } from 'zod';
import type { LabelChoice } from '../policy/model-labels.ts';
import type { SearchSession, ToolOutcome } from './search-session.ts';

const pageMessage = 'page must be a whole number from 1: use 1 for the best results, 2 for the next ones';

/** Arguments of `search_docs`. `k` is deliberately absent: the session fixes it. */
export const searchDocsInput = z.object({
  query: z.string().min(1).describe('Keywords or a question. Use exact identifiers (error codes, setting names) when you know them.'),
  version: z
    .string()
    .optional()
    .describe('Release line to restrict to, e.g. "3.x". Omit to search every version.'),
  page: z
    .number({ error: pageMessage })
    .int({ error: pageMessage })
    .min(1, { error: pageMessage })
    .optional()
    .describe('1 (default) for the best results; 2, 3, ... for the next results of the same query.'),
});

const chunkId = z.string().min(1).describe('A chunk_id returned by search_docs, e.g. "flows#3".');

/** Arguments of `read_neighbors`. */
export const chunkInput = z.object({ chunk_id: chunkId });

const offsetMessage = 'offset must be a whole number of characters from 0: use 0 for the start, or the next_offset of the page you read last';

/** Arguments of `read_section`: the chunk, where to start reading, and what to look for in it. */
export const readSectionInput = z.object({
  chunk_id: chunkId,
  offset: z
    .number({ error: offsetMessage })
    .int({ error: offsetMessage })
    .min(0, { error: offsetMessage })
    .optional()
    .describe('Where to start: 0 (default) or the next_offset of the last page.'),
  query: z
    .string()
    .optional()
    .describe('Words to locate in a long section (default: your last search).'),
});

/**
 * A zod schema as an AI SDK schema whose JSON Schema is computed once, not on every model call
 * (the conversion dominated the loop's own overhead); values are still validated by zod, with
 * `null` read as absent for optional fields (see {@link withoutNullOptionals}).
 */
export function precomputedSchema<T>(schema: z.ZodType<T>): Schema<T> {
  const converted = zodSchema(schema).jsonSchema;
  return jsonSchema<T>(converted as Parameters<typeof jsonSchema>[0], {
    validate: (value) => {
      const parsed = schema.safeParse(withoutNullOptionals(schema, value));
      // The call goes on as sent (unknown arguments kept), so that checkToolCall can name what it ignores.
      return parsed.success ? { success: true, value: value as T } : { success: false, error: parsed.error };
    },
  });
}

/**
 * Drops the `null` values of an object's optional fields: models in OpenAI strict mode send
 * `null` for every optional argument they leave out, which means "absent", not a bad value.
 * A `null` for a required field stays, so its error names the field.
 *
 * @example
 * withoutNullOptionals(searchDocsInput, { query: 'lease', version: null }); // { query: 'lease' }
 */
export function withoutNullOptionals(schema: z.ZodType, value: unknown): unknown {
  if (!(schema instanceof z.ZodObject) || !isPlainObject(value)) return value;
  const shape = schema.shape as Record<string, z.ZodType>;
  return Object.fromEntries(
    Object.entries(value).filter(([key, field]) => !(field === null && shape[key]?.safeParse(undefined).success === true)),
  );
}

/** What the model is told each tool does; MCP clients get the same words. */
export const toolDescriptions = {
  search_docs:
    'Search the documentation. Returns up to 5 passages not shown before (chunk_id, doc_id, heading, heading_path, applies_to, score). A short passage comes whole: text is its complete text, verbatim, with complete: true, so you can quote it without reading it again. A longer one comes as a snippet, its best-matching part (whitespace collapsed; for a table, its header row and the matching rows), with total_chars; read_section shows it whole. heading and heading_path name the part of the passage that matches best (a heading inside a whole text, or the part the snippet comes from). links maps each link in the text shown to the chunk_id it names (null when there is no page you can read there). A passage that is part of a long table split over several chunks lists them in table_parts. The note names the already-seen passages skipped and flags weak matches (passages that cover little of the query). Repeating a query is refused; ask for its next results with page: 2, 3, ...',
  read_section:
    'Read a section by chunk_id, one page at a time (a passage search_docs showed whole, complete: true, needs no read). While complete is false, call again with offset = next_offset. query_matches always says where query (default: your last search) matches: on a section shown whole, the offsets of its best lines; on a cut page, the offsets of the best lines not shown yet (the note says when none matches). neighbour_matches names the previous or next section when it holds words of query that this one lacks. A short section comes with the first lines of the sections before and after it (previous_section, next_section). links maps each link in the page to the chunk_id it names, or null.',
  read_neighbors: 'Read the previous and next sections of the same document around a chunk_id (first page of each, its position "previous" or "next"; see complete and note; links as in read_section). A note says when the chunk is the first or last section of its page.',
};

/**
 * The tools of one run: what the model sees (descriptions and JSON schemas only: the loop
 * executes calls itself so that every call, even a malformed one, is answered), the schema each
 * call is checked against, and the model labels `search_docs` takes.
 */
export interface AgentToolSet {
  /** For the AI SDK's `tools`. */
  tools: ToolSet;
  inputs: { search_docs: z.ZodObject; read_section: typeof readSectionInput; read_neighbors: typeof chunkInput };
  /** The model labels offered as `search_docs` arguments, with their allowed values. */
  labels: LabelChoice[];
}

/**
 * The tool set of a run. Each model label becomes an optional `search_docs` argument of that
 * name whose JSON schema is an `enum` of its values; without labels it is {@link agentTools}.
 *
 * @example
 * const toolSet = createAgentTools([{ name: 'store', description: 'Which store', values: ['Aundh', 'Baner'] }]);
 * // search_docs schema: { query, version?, page?, store?: 'Aundh' | 'Baner' }
 */
export function createAgentTools(labels: readonly LabelChoice[] = []): AgentToolSet {
  if (labels.length === 0) return DEFAULT_TOOL_SET;
  const searchInput = searchDocsInput.extend(Object.fromEntries(labels.map((label) => [label.name, labelArgument(label)])));
  return {
    tools: { ...DEFAULT_TOOL_SET.tools, search_docs: tool({ description: toolDescriptions.search_docs, inputSchema: precomputedSchema(searchInput) }) },
    inputs: { ...DEFAULT_TOOL_SET.inputs, search_docs: searchInput },
    labels: [...labels],
  };
}

function labelArgument(label: LabelChoice) {
  const allowed = label.values.map((value) => JSON.stringify(value)).join(', ');
  const about = label.description ? `${label.description.trim().replace(/\.$/, '')}. ` : '';
  return z
    .enum(label.values as [string, ...string[]], { error: (issue) => `must be one of ${allowed} (or left out), got ${JSON.stringify(issue.input)}` })
    .optional()
    .describe(`${about}Narrows the search to pages whose ${label.name} label is this value (pages for all and pages without a ${label.name} label stay in). Leave it out to search every ${label.name}.`);
}

const DEFAULT_TOOL_SET: AgentToolSet = {
  tools: {
    search_docs: tool({ description: toolDescriptions.search_docs, inputSchema: precomputedSchema(searchDocsInput) }),
    read_section: tool({ description: toolDescriptions.read_section, inputSchema: precomputedSchema(readSectionInput) }),
    read_neighbors: tool({ description: toolDescriptions.read_neighbors, inputSchema: precomputedSchema(chunkInput) }),
  },
  inputs: { search_docs: searchDocsInput, read_section: readSectionInput, read_neighbors: chunkInput },
  labels: [],
};

/** The tool set the model sees when no model labels are declared (see {@link createAgentTools}). */
export const agentTools: ToolSet = DEFAULT_TOOL_SET.tools;

/** Names of the tools the loop answers. */
export type AgentToolName = 'search_docs' | 'read_section' | 'read_neighbors';

/** The arguments of each tool (without model labels). */
const toolInputs = { search_docs: searchDocsInput, read_section: readSectionInput, read_neighbors: chunkInput } as const;

/** The arguments of a `search_docs` call: the labels the model chose are gathered in `labels`. */
export type SearchDocsArguments = z.infer<typeof searchDocsInput> & { labels?: Record<string, string> };

/** Example arguments, named in the error a malformed call gets back. */
const exampleArguments: Record<AgentToolName, string> = {
  search_docs: '{"query": "lease timeout"}',
  read_section: '{"chunk_id": "flows#2"}',
  read_neighbors: '{"chunk_id": "flows#2"}',
};

/** A tool call checked against its schema: the tool and its parsed arguments, or the error for the model. */
export type CheckedToolCall =
  | ({ ok: true; toolName: 'search_docs'; input: SearchDocsArguments } & IgnoredArguments)
  | ({ ok: true; toolName: 'read_section'; input: z.infer<typeof readSectionInput> } & IgnoredArguments)
  | ({ ok: true; toolName: 'read_neighbors'; input: z.infer<typeof chunkInput> } & IgnoredArguments)
  | { ok: false; error: string };

/** Arguments of a call the tool does not take (e.g. `k`, which the session fixes): the call runs without them. */
interface IgnoredArguments {
  ignored?: string[];
}

/**
 * Checks a tool call before it runs: the tool must exist and its arguments must match the tool's
 * schema (`null` for an optional argument counts as absent), the run's `toolSet` (default: no
 * model labels). The error names the tool, each field at fault, what was expected and what
 * came, so the model can fix its next call. Model labels come back gathered in `input.labels`.
 *
 * @example
 * checkToolCall('search_docs', { query: 'lease', version: null }); // { ok: true, toolName: 'search_docs', input: { query: 'lease' } }
 * checkToolCall('search_docs', { query: 'lease', version: 3 }).ok; // false: 'version: expected a string ("Release line ..."), got 3 (number)'
 */
export function checkToolCall(toolName: string, input: unknown, toolSet: AgentToolSet = DEFAULT_TOOL_SET): CheckedToolCall {
  if (!Object.hasOwn(toolInputs, toolName)) {
    return { ok: false, error: `unknown tool "${toolName}". Available tools: ${Object.keys(agentTools).join(', ')}.` };
  }
  const name = toolName as AgentToolName;
  if (!isPlainObject(input)) {
    return {
      ok: false,
      error: `invalid arguments for ${name}: the arguments must be a JSON object, got ${describeValue(input)}. Send e.g. ${exampleArguments[name]}.`,
    };
  }
  const schema: z.ZodObject = toolSet.inputs[name];
  const parsed = schema.safeParse(withoutNullOptionals(schema, input));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => issueText(schema, issue, input)).join('; ');
    return { ok: false, error: `invalid arguments for ${name}: ${issues}. Send e.g. ${exampleArguments[name]}.` };
  }
  const known = Object.keys(schema.shape);
  const unknown = Object.keys(input).filter((key) => !known.includes(key));
  const ignored = unknown.length > 0 ? { ignored: unknown } : {};
  if (name !== 'search_docs' || toolSet.labels.length === 0) return { ok: true, toolName: name, input: parsed.data, ...ignored } as CheckedToolCall;
  const { query, version, page, ...rest } = parsed.data as SearchDocsArguments & Record<string, string>;
  const labels: Record<string, string> = {};
  for (const label of toolSet.labels) {
    const value = rest[label.name];
    if (value !== undefined) labels[label.name] = value;
  }
  const search: SearchDocsArguments = { query, ...(version === undefined ? {} : { version }), ...(page === undefined ? {} : { page }), ...(Object.keys(labels).length > 0 ? { labels } : {}) };
  return { ok: true, toolName: 'search_docs', input: search, ...ignored };
}

/**
 * What the model and the trace are told of the arguments a call sent that its tool does not take.
 *
 * @example
 * ignoredArgumentsNote('search_docs', ['k']); // 'ignored unknown argument k: search_docs takes query, version, page'
 */
export function ignoredArgumentsNote(toolName: AgentToolName, ignored: readonly string[], toolSet: AgentToolSet = DEFAULT_TOOL_SET): string {
  const takes = Object.keys(toolSet.inputs[toolName].shape).join(', ');
  return `ignored unknown argument${ignored.length === 1 ? '' : 's'} ${ignored.join(', ')}: ${toolName} takes ${takes}`;
}

/**
 * Runs one tool call against the session. Unknown tools and invalid arguments come back as
 * error outcomes the model can read ({@link checkToolCall}); nothing here throws for bad model input.
 *
 * @example
 * await executeToolCall(session, 'search_docs', { query: 'ORB-1202' });
 * await executeToolCall(session, 'search_docs', { query: 'plum cake', store: 'Aundh' }, createAgentTools(choices));
 */
export async function executeToolCall(session: SearchSession, toolName: string, input: unknown, toolSet: AgentToolSet = DEFAULT_TOOL_SET): Promise<ToolOutcome> {
  const checked = checkToolCall(toolName, input, toolSet);
  return checked.ok ? runCheckedToolCall(session, checked) : checked;
}

/**
 * Runs a tool call {@link checkToolCall} accepted (its model labels already gathered in
 * `input.labels`), against the session.
 *
 * @example
 * const checked = checkToolCall('search_docs', { query: 'plum cake', store: 'Aundh' }, toolSet);
 * if (checked.ok) await runCheckedToolCall(session, checked);
 */
export async function runCheckedToolCall(session: SearchSession, checked: Extract<CheckedToolCall, { ok: true }>): Promise<ToolOutcome> {
  switch (checked.toolName) {
    case 'search_docs':
      return session.searchDocs(checked.input);
    case 'read_section':
      return session.readSection(checked.input);
    case 'read_neighbors':
      return session.readNeighbors(checked.input);
  }
}

/** One schema issue as the model reads it: the field, what it takes, and what it got. */
function issueText(schema: z.ZodObject, issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const field = issue.path.join('.') || 'arguments';
  // Zod's own wording ("Invalid input: expected string, received number") is replaced; a schema's own message is kept.
  if (issue.code !== 'invalid_type' || !issue.message.startsWith('Invalid input')) return `${field}: ${issue.message}`;
  const top = issue.path[0];
  const description = typeof top === 'string' ? (schema.shape as Record<string, z.ZodType>)[top]?.description : undefined;
  const got = typeof top === 'string' && Object.hasOwn(input, top) ? describeValue(input[top]) : 'nothing (it is required)';
  return `${field}: expected ${article(issue.expected)}${description ? ` (${description.replace(/\.$/, '')})` : ''}, got ${got}`;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `text ${JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)} (is it valid JSON?)`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${String(value)} (${typeof value})`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
