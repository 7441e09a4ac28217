// Tool input schemas as MCP clients send them: `null` for an optional argument means "absent".
import { z } from 'zod';
import { withoutNullOptionals } from '../agent/session/tools.ts';

/**
 * `schema` with every optional field also taking `null`, for an MCP tool's `inputSchema`:
 * clients whose model runs in OpenAI strict mode send `null` for each optional argument they
 * leave out, which the SDK would refuse before the tool runs. The advertised JSON Schema says
 * `null` is allowed; {@link absentNulls} turns those nulls back into absent fields, so the tool
 * sees what the agent's tools see. A `null` for a required field is still refused.
 *
 * @example
 * const input = nullableOptionals(searchDocsInput); // version: string | null | undefined
 */
export function nullableOptionals<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>): z.ZodObject<z.ZodRawShape> {
  const shape = Object.fromEntries(
    Object.entries(schema.shape as unknown as Record<string, z.ZodType>).map(([key, field]) => {
      if (!(field instanceof z.ZodOptional)) return [key, field];
      const nullish = (field.unwrap() as z.ZodType).nullish();
      return [key, field.description === undefined ? nullish : nullish.describe(field.description)];
    }),
  );
  return z.object(shape);
}

/**
 * The arguments of a call checked by {@link nullableOptionals}`(schema)`, with its `null`
 * optionals removed: the value `schema` itself accepts.
 *
 * @example
 * absentNulls(searchDocsInput, { query: 'lease', version: null }); // { query: 'lease' }
 */
export function absentNulls<Schema extends z.ZodObject>(schema: Schema, args: unknown): z.infer<Schema> {
  return withoutNullOptionals(schema, args) as z.infer<Schema>;
}
