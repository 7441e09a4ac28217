// Bearer tokens of `atlas serve`: ATLAS_TOKEN (one token, public pages) or an auth file mapping
// tokens to access groups. The principal of a request comes from its token, never its body.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { z } from 'zod';
import { AtlasError } from '../errors.ts';
import type { Principal } from '../index/types.ts';
import { fieldPath, errorBody } from './http.ts';
import type { ServerEnv } from './types.ts';

/** Shortest token accepted: 16 characters (e.g. `openssl rand -hex 24` prints 48). */
export const MIN_TOKEN_LENGTH = 16;

/** One accepted token: who it is (for logs and per-client limits) and what it may read. */
export interface AuthToken {
  /** Names the client in limits and logs; the token itself is never logged. */
  name: string;
  token: string;
  /** Undefined: public pages only. */
  principal: Principal | undefined;
}

/** The tokens a server accepts; no tokens means no auth (every request anonymous). */
export interface AuthConfig {
  tokens: AuthToken[];
  /** Where the tokens came from (`ATLAS_TOKEN`, the file name), for messages. */
  source: string;
}

const tokenText = z
  .string({ error: `must be text of at least ${MIN_TOKEN_LENGTH} characters, e.g. the output of openssl rand -hex 24` })
  .min(MIN_TOKEN_LENGTH, { error: `must be at least ${MIN_TOKEN_LENGTH} characters long; make one with openssl rand -hex 24` })
  .refine((value) => !/\s/.test(value), { error: 'must not contain spaces or line breaks (a bearer token is one word)' });

const authFileSchema = z.strictObject(
  {
    tokens: z
      .array(
        z.strictObject(
          {
            name: z.string({ error: 'must be text naming the client, e.g. "ci-bot"' }).trim().min(1, { error: 'must not be empty; name the client, e.g. "ci-bot"' }),
            token: tokenText,
            groups: z
              .array(z.string({ error: 'a group must be text, e.g. "staff"' }).trim().min(1, { error: 'a group must not be empty' }), { error: 'must be a list of group names, e.g. [staff, admins]' })
              .optional(),
          },
          { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; a token has name, token and groups` : 'must be { name, token, groups }') },
        ),
        { error: 'must be a list of { name, token, groups }' },
      )
      .min(1, { error: 'must list at least one token' }),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}; the file has one field, tokens` : 'must be an object with a tokens list') },
);

/**
 * Parses and validates an auth file (YAML or JSON): every problem at once, each naming the file,
 * the field (`tokens[1].token`) and the fix. Names and tokens must be unique.
 *
 * @example
 * const auth = parseAuthFile('tokens:\n  - name: alice\n    token: 0123456789abcdef0123\n    groups: [staff]\n', 'auth.yaml');
 * auth.tokens[0].principal; // { groups: ['staff'] }
 */
export function parseAuthFile(text: string, source: string): AuthConfig {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    const detail = error instanceof YAMLParseError ? error.message.split('\n')[0] : String(error);
    throw new AtlasError('usage', `Atlas: auth file ${source} is not valid YAML or JSON: ${detail}. Fix the syntax (see docs/server.md).`);
  }
  const parsed = authFileSchema.safeParse(data ?? {});
  const problems = parsed.success ? [] : parsed.error.issues.map((issue) => `  ${source}: ${fieldPath(issue.path) || '(file)'}: ${issue.message}`);
  const entries = parsed.success ? parsed.data.tokens : [];
  const names = new Map<string, number>();
  const tokens = new Map<string, number>();
  entries.forEach((entry, position) => {
    const name = names.get(entry.name);
    if (name !== undefined) problems.push(`  ${source}: tokens[${position}].name: ${JSON.stringify(entry.name)} is also the name of tokens[${name}]; give each client its own name`);
    const token = tokens.get(entry.token);
    if (token !== undefined) problems.push(`  ${source}: tokens[${position}].token: the same token as tokens[${token}]; give each client its own token`);
    names.set(entry.name, position);
    tokens.set(entry.token, position);
  });
  if (problems.length > 0) throw new AtlasError('usage', `Atlas: invalid auth file ${source}:\n${problems.join('\n')}\nSee docs/server.md for the format.`);
  return {
    source,
    tokens: entries.map((entry) => ({ name: entry.name, token: entry.token, principal: entry.groups === undefined ? undefined : { groups: [...new Set(entry.groups)] } })),
  };
}

/**
 * The auth of `ATLAS_TOKEN`: one token, public pages only (map tokens to groups with an auth file).
 *
 * @example
 * singleTokenAuth('0123456789abcdef0123', 'ATLAS_TOKEN'); // { tokens: [{ name: 'ATLAS_TOKEN', ... }], source: 'ATLAS_TOKEN' }
 */
export function singleTokenAuth(token: string, source: string): AuthConfig {
  const parsed = tokenText.safeParse(token);
  if (!parsed.success) throw new AtlasError('usage', `Atlas: ${source} ${parsed.error.issues[0]?.message ?? 'is not a valid token'}. Or unset it to serve without auth (loopback only).`);
  return { source, tokens: [{ name: source, token, principal: undefined }] };
}

/**
 * The token an `Authorization: Bearer <token>` header names, or undefined. Every token is
 * compared, in constant time over digests, so timing says nothing of which token or how much matched.
 *
 * @example
 * authenticate(auth, 'Bearer 0123456789abcdef0123')?.name; // 'alice'
 */
export function authenticate(auth: AuthConfig, header: string | undefined): AuthToken | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  const given = digest(match?.[1] ?? '');
  let found: AuthToken | undefined;
  for (const entry of auth.tokens) {
    // No early exit: the loop takes the same time whichever token matched.
    if (timingSafeEqual(given, digest(entry.token)) && match) found = entry;
  }
  return found;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Middleware that sets the request's `principal` and `client` from its bearer token, or answers
 * 401 `{ error: { code: 'unauthorized' } }` without or with a wrong one. Without tokens every
 * request is anonymous (public pages) and its client is its remote address. Reusable on any path
 * (`app.use('/mcp/*', createAuthMiddleware(auth, remote))`).
 *
 * @example
 * app.use('/v1/*', createAuthMiddleware(auth, (c) => '127.0.0.1'));
 */
export function createAuthMiddleware(auth: AuthConfig | undefined, remoteAddress: (c: Parameters<MiddlewareHandler<ServerEnv>>[0]) => string): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (auth === undefined || auth.tokens.length === 0) {
      c.set('principal', undefined);
      c.set('client', `address:${remoteAddress(c)}`);
      return next();
    }
    const token = authenticate(auth, c.req.header('authorization'));
    if (token === undefined) {
      const given = c.req.header('authorization') === undefined ? 'no Authorization header' : 'the bearer token is not one the server accepts';
      c.header('WWW-Authenticate', 'Bearer realm="atlas"');
      return c.json(errorBody('unauthorized', `Atlas: ${given}. Send Authorization: Bearer <token> with a token of the server (ATLAS_TOKEN or its auth file).`), 401);
    }
    c.set('principal', token.principal);
    c.set('client', `token:${token.name}`);
    return next();
  };
}

/**
 * The user of a request that came with a token (the token's name), to whom conversations and
 * MCP sessions belong; none without auth (anyone may then use them, by their groups alone).
 *
 * @example
 * requestUser(c); // { user: 'alice' } behind auth, {} without it
 */
export function requestUser(c: Context<ServerEnv>): { user?: string } {
  const client: string | undefined = c.get('client');
  return client?.startsWith('token:') === true ? { user: client.slice('token:'.length) } : {};
}
