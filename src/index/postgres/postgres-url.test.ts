import { describe, expect, it } from 'vitest';
import { AtlasError } from '../../errors.ts';
import { connectionError, isPostgresUrl, parsePostgresUrl, redactUrlText } from './postgres-url.ts';

describe('postgres URLs', () => {
  it('tells a PostgreSQL URL from an index file', () => {
    expect(['postgres://db/docs', 'postgresql://u@h/d', 'POSTGRES://h', ' postgres://h'].map(isPostgresUrl)).toEqual([true, true, true, true]);
    expect(['.atlas/index.db', 'postgres.db', undefined, 'file://x'].map(isPostgresUrl)).toEqual([false, false, false, false]);
  });

  it('parses host, port, database, user and the schema parameter, and hides the password', () => {
    const target = parsePostgresUrl('postgres://atlas:s3cret%40x@db.internal:5433/docs?schema=team_a&sslmode=disable');
    expect(target).toEqual({
      connectionString: 'postgres://atlas:s3cret%40x@db.internal:5433/docs?sslmode=disable',
      host: 'db.internal',
      port: 5433,
      database: 'docs',
      user: 'atlas',
      schema: 'team_a',
      shown: 'postgres://atlas:***@db.internal:5433/docs?schema=team_a&sslmode=disable',
      password: 's3cret@x',
    });
    expect(parsePostgresUrl('postgresql://me@localhost')).toMatchObject({ host: 'localhost', port: 5432, database: 'me', schema: 'public', shown: 'postgresql://me@localhost' });
  });

  it('rejects a malformed URL and a schema that is not a plain name, without the password', () => {
    const message = (url: string) => {
      try {
        parsePostgresUrl(url);
        return 'no error';
      } catch (error) {
        expect(error).toBeInstanceOf(AtlasError);
        return (error as AtlasError).message;
      }
    };
    expect(message('postgres://u:pw@[bad/x')).toBe(
      'Atlas: --db postgres://u:***@[bad/x is not a valid PostgreSQL URL. Pass e.g. --db postgres://user:password@localhost:5432/docs (percent-encode special characters in the password).',
    );
    expect(message('postgres://u:pw@h/d?schema=Team-A')).toBe(
      'Atlas: the schema "Team-A" of --db postgres://u:***@h/d?schema=Team-A is not a plain lower-case name. Use letters, digits and _ (e.g. ?schema=atlas_docs).',
    );
  });

  it('redacts the password of every URL in a text', () => {
    expect(redactUrlText('a postgres://u:p@h/d and postgresql://v:q%20r@k:1/e')).toBe('a postgres://u:***@h/d and postgresql://v:***@k:1/e');
  });

  it('names host, port, database, user and the fix of a failed connection, and leaves other errors alone', () => {
    const target = parsePostgresUrl('postgres://atlas:hunter2@10.0.0.9:6432/docs');
    const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:6432'), { code: 'ECONNREFUSED' });
    expect(connectionError(refused, target)?.message).toBe(
      'Atlas: cannot connect to PostgreSQL at 10.0.0.9:6432, database "docs" as user "atlas": connect ECONNREFUSED 10.0.0.9:6432. Check that the server is running and listens on that host and port.',
    );
    const auth = Object.assign(new Error('password authentication failed for user "atlas" (hunter2)'), { code: '28P01' });
    expect(connectionError(auth, target)?.message).toBe(
      'Atlas: cannot connect to PostgreSQL at 10.0.0.9:6432, database "docs" as user "atlas": password authentication failed for user "atlas" (***). Check the user and password of --db.',
    );
    expect(connectionError(Object.assign(new Error('syntax error'), { code: '42601' }), target)).toBeUndefined();
  });
});
