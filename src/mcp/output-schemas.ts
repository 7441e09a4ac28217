// The structuredContent of each MCP tool, as zod schemas: the SDK lists them as each tool's
// outputSchema and checks every result against them. Objects accept extra fields, so a field the
// search session adds later does not break a result.
import { z } from 'zod';

const budgetFields = {
  searches_used: z.number().int().min(0).describe('Searches of this MCP session so far, duplicates included.'),
  max_searches: z.number().int().min(0).describe('Searches allowed per MCP session.'),
  budget: z.string().describe('The budget in words, e.g. "search 2 of 6, 4 left".'),
};

const identityFields = {
  chunk_id: z.string(),
  doc_id: z.string(),
  heading: z.string(),
  heading_path: z.string().describe('"Title > Section > Subsection".'),
  applies_to: z.string().describe('Release line of the page, or "all".'),
  uri: z.string().describe('The resource that reads this chunk in full: atlas://chunk/<chunk_id>.'),
};

const pageFields = {
  next_offset: z.number().int().min(0).nullable().optional().describe('Where the next page starts; null at the end of the section.'),
  total_chars: z.number().int().min(0).optional(),
  remaining_chars: z.number().int().min(0).optional(),
  remaining_tokens: z.number().int().min(0).optional(),
  complete: z.boolean().describe('true when this page reaches the end of the section.'),
  note: z.string().optional(),
};

const tableParts = z.array(z.string()).optional().describe('The chunks a long table this passage is part of was split over, in order (this one included).');

const links = z
  .record(z.string(), z.string().nullable())
  .optional()
  .describe('The internal links of the text shown: each target as written -> the chunk_id it names (its section, else its page\'s first chunk), or null when no page you may read is there.');

/** structuredContent of `search_docs`. */
export const searchDocsOutput = z.looseObject({
  results: z.array(
    z.looseObject({
      ...identityFields,
      heading: z.string().describe('The heading of the part of the passage that matches best (a heading inside a whole text, or the part the snippet comes from).'),
      heading_path: z.string().describe('"Title > Section > Subsection" of the part of the passage that matches best.'),
      score: z.number(),
      text: z.string().optional().describe('The whole passage, verbatim (complete: true), when it is short enough for the page.'),
      complete: z.boolean().optional().describe('true when text is the whole passage: nothing more to read.'),
      snippet: z.string().optional().describe('Otherwise the best-matching part of the passage (whitespace collapsed); for a table, its header row and the matching rows.'),
      total_chars: z.number().int().min(0).optional().describe('Beside a snippet: the length of the whole passage, which read_section shows.'),
      table_parts: tableParts,
      links,
    }),
  ),
  note: z.string().optional().describe('Already-seen passages skipped (named), weak matches (how much of the query the passages cover), no new passages, or no passage matching the query at all.'),
  ...budgetFields,
});

const contextSection = z
  .looseObject({ chunk_id: z.string(), heading: z.string(), heading_path: z.string(), text: z.string().optional(), shown_before: z.boolean().optional() })
  .optional()
  .describe('Beside a short section: the first page of the section before (previous_section) or after it (next_section), or shown_before: true.');

/** structuredContent of `read_section`. */
export const readSectionOutput = z.looseObject({
  ...identityFields,
  title: z.string(),
  text: z.string(),
  offset: z.number().int().min(0),
  ...pageFields,
  query_matches: z
    .array(z.looseObject({ offset: z.number().int().min(0), terms: z.array(z.string()) }))
    .optional()
    .describe('Where the query matches: the best lines of a section shown whole, else the best lines not shown yet (empty: none matches).'),
  table_parts: tableParts,
  links,
  prev_chunk_id: z.string().nullable(),
  next_chunk_id: z.string().nullable(),
  neighbour_matches: z
    .object({ chunk_id: z.string(), position: z.enum(['previous', 'next']), terms: z.array(z.string()) })
    .optional()
    .describe('The previous or next section when it holds words of the query that this one lacks.'),
  previous_section: contextSection,
  next_section: contextSection,
});

/** structuredContent of `read_neighbors`. */
export const readNeighborsOutput = z.looseObject({
  chunks: z.array(z.looseObject({ position: z.enum(['previous', 'next']), ...identityFields, title: z.string(), text: z.string(), ...pageFields, links })),
  note: z.string().optional().describe('Says when the chunk is the first or last section of its page (no previous or no next section).'),
});

/** structuredContent of `ask`. */
export const askOutput = z.looseObject({
  answer: z.string(),
  abstained: z.boolean(),
  citations: z.array(
    z.looseObject({
      doc_id: z.string(),
      chunk_id: z.string(),
      quote: z.string().describe('Verbatim text of the passage, verified against what the run was shown.'),
      heading_path: z.string(),
      source_path: z.string(),
      start_line: z.number().int().min(0),
      end_line: z.number().int().min(0),
      uri: z.string(),
      stale: z.object({ reason: z.string() }).optional().describe('Set when the quote is no longer in the docs as they are now (the page changed or was removed since it was read): not verified.'),
    }),
  ),
  claims: z
    .array(
      z.looseObject({
        text: z.string().describe('Exact substring of the answer.'),
        supported: z.boolean().describe('Whether the verified quotes back it.'),
        score: z.number().min(0).max(1),
        citations: z.array(z.number().int().min(0)).describe('Indexes into citations of the quotes that back it.'),
      }),
    )
    .optional()
    .describe('The answer split into claims, each checked against the quotes; absent when the run abstained.'),
  closest: z
    .array(
      z.looseObject({
        doc_id: z.string(),
        chunk_id: z.string(),
        heading_path: z.string(),
        source_path: z.string(),
        start_line: z.number().int().min(0),
        end_line: z.number().int().min(0),
        sentences: z.array(z.string()).describe('1-2 sentences of the passage, verbatim, verified against what the run was shown.'),
        uri: z.string(),
      }),
    )
    .optional()
    .describe('Closest passages in the docs: on an abstention that found passages close to the question but none stating the answer (best first); absent otherwise.'),
  trace: z.looseObject({
    model: z.string(),
    stop_reason: z.string(),
    searches: z.array(z.looseObject({ query: z.string(), version: z.string().optional(), new_doc_ids: z.array(z.string()), note: z.string().optional() })),
    reads: z.array(z.looseObject({ tool: z.string(), chunk_id: z.string(), found: z.boolean() })),
    dropped_citations: z.number().int().min(0).describe('Citations the check refused (not shown).'),
    abstain_reason: z.string().optional(),
    model_calls: z.number().int().min(0),
    input_tokens: z.number().int().min(0),
    output_tokens: z.number().int().min(0),
    cost_usd: z.number().nullable().describe('null when the price or the token counts are unknown.'),
    latency_ms: z.number(),
  }),
});
