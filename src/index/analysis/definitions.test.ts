import { describe, expect, it } from 'vitest';
import { definitionKeysText, definitionsOf } from './definitions.ts';

const none = { headings: [], lines: [] };
const of = (text: string, headingPath: string[] = ['Page']) => definitionsOf({ headingPath, text });

describe('definitionsOf', () => {
  it('reads the headings of the heading path, and headings inside the text', () => {
    expect(definitionsOf({ headingPath: ['Error codes', '12xx Payloads', 'ORB-1202 PayloadTooLarge'], text: 'Too big.' })).toEqual({
      headings: ['errorcodes', '12xxpayloads', 'orb-1202', 'payloadtoolarge'],
      lines: [],
    });
    expect(of('Intro.\n\n### ORB-1202 PayloadTooLarge\n\nThe body is too large.\n\n#### `worker.concurrentJobs` {#concurrent}')).toEqual({
      headings: ['orb-1202', 'payloadtoolarge', 'worker.concurrentjobs'],
      lines: [],
    });
  });

  it('takes the words of a short heading as one name', () => {
    expect(of('', ['Administrative functions', 'Force unlock workers'])).toEqual({
      headings: ['administrativefunctions', 'forceunlockworkers'],
      lines: [],
    });
  });

  it('does not take a name a question or a sentence heading mentions', () => {
    expect(of('### My flow step finished, yet the step failed with ORB-1202. Why?')).toEqual(none);
    expect(of('## Loading JavaScript files from the task directory at start')).toEqual(none);
    expect(of('## Loading JavaScript files')).toEqual(none);
    expect(of('## JavaScript files')).toEqual({ headings: ['javascript'], lines: [] });
    expect(of('## Loading `addJob()` files')).toEqual({ headings: ['addjob'], lines: [] });
    expect(of('### GET /v1/queues')).toEqual({ headings: ['v1/queues'], lines: [] });
    expect(of('## Large results: `put_blob` and `ResultRef`')).toEqual({
      headings: ['put_blob', 'resultref'],
      lines: [],
    });
  });

  it('reads list items and table rows that start with a name', () => {
    const text = [
      '- `GWBKM` - Invalid `job_key_mode` value',
      '* **`max_payload_kb`**: the largest payload',
      '1. share configuration between modes',
      '| Option | Meaning |',
      '|---|---|',
      '| `-q`, `--queues` | Queues to consume |',
      '| `--config PATH` | Configuration file (`a|b`) |',
      '| Integer | `ORBIT_CONCURRENCY=8` |',
    ].join('\n');
    expect(of(text)).toEqual({ headings: [], lines: ['gwbkm', 'max_payload_kb', '--queues', '--config'] });
  });

  it('reads a line that starts with a name and a separator', () => {
    expect(of('`lease_seconds`: how long a lease lasts.\n`prefetch` — RabbitMQ only.\nmax_tasks - recycle.\n`npx` looks for the binary.\nNote: plain.')).toEqual({
      headings: [],
      lines: ['lease_seconds', 'prefetch', 'max_tasks'],
    });
  });

  it('reads declarations and help lines in code blocks, not values, calls or headings', () => {
    const text = [
      '```ts',
      '{',
      '  gracefulShutdownAbortTimeout?: number;',
      '  readonly logger: Logger<{}>;',
      '  addJob(spec: TaskSpec): Promise<Job>;',
      '  maxPoolSize: 10,',
      '  schema: "graphile_worker";',
      '  worker: {',
      '}',
      '```',
      '',
      '```',
      '  -c, --connection   Database connection string',
      '      --schema-only  Just install the schema',
      '# a comment, not a heading: ORB-9999 Fake',
      'SELECT graphile_worker.add_job(\'hello\');',
      '```',
    ].join('\n');
    expect(of(text)).toEqual({
      headings: [],
      lines: ['gracefulshutdownaborttimeout', 'logger', 'addjob', '--connection', '--schema-only'],
    });
  });

  it('keeps a name defined by a heading out of the lines, and plain prose defines nothing', () => {
    expect(of('### max_payload_kb\n\n| `max_payload_kb` | 256 |')).toEqual({ headings: ['max_payload_kb'], lines: [] });
    expect(of('Uploads larger than max_payload_kb are rejected. See ORB-1202.')).toEqual(none);
  });
});

describe('definitionKeysText', () => {
  it('lists the keys of both tiers with their namespace suffixes, each once', () => {
    expect(definitionKeysText({ headings: ['graphile_worker.add_job', 'addjob'], lines: ['--schema'] })).toBe('graphileworkeraddjob addjob schema');
    expect(definitionKeysText(none)).toBe('');
  });
});
