import { describe, expect, it } from 'vitest';
import { isPlaceholderNote, placeholderNotes, plainText, withoutPlaceholderNotes } from './plain-text.ts';

describe('plainText', () => {
  it('renders escapes, entities, links and tags, and keeps code spans as written', () => {
    expect(plainText("Use `add_job` &mdash; see [Jobs](jobs.md) <b>now</b>; `str | None` won&apos;t &#39;x&#x27; \\_private")).toBe(
      "Use `add_job` \u2014 see Jobs now; `str | None` won't 'x' _private",
    );
    expect(plainText('a<br>b <!-- a comment --> c <https://example.com/x> d ![the logo](logo.png) e[^1] f [a reference][ref]')).toBe(
      'a b c https://example.com/x d the logo e f a reference',
    );
  });

  it('reads a fenced code block as its lines, each a code span, the fences gone', () => {
    expect(plainText('Raise it in `rabbitmq.conf`, where the value is in milliseconds:\n\n```ini\n# allow jobs up to 3 hours\nconsumer_timeout = 10800000\n```')).toBe(
      'Raise it in `rabbitmq.conf`, where the value is in milliseconds: `# allow jobs up to 3 hours` `consumer_timeout = 10800000`',
    );
    expect(plainText('Run:\n~~~~\necho `date`\n```\n~~~~\nDone.')).toBe('Run: echo `date` ``` Done.');
    // VitePress's notation comments colour a line on the site; they are no code.
    expect(plainText("Like this:\n```ts\nvi.hoisted(() => { value }) // throws an error // [!code warning]\nfoo() <!-- [!code focus] -->\n```")).toBe(
      'Like this: `vi.hoisted(() => { value }) // throws an error` `foo()`',
    );
  });

  it('keeps placeholders in angle brackets, inside code spans and out', () => {
    expect(plainText('Run `orbit drain <queue>`, or orbit drain <queue> with <your-token> and <n> workers; failed jobs move to `<queue>.dlq`.')).toBe(
      'Run `orbit drain <queue>`, or orbit drain <queue> with <your-token> and <n> workers; failed jobs move to `<queue>.dlq`.',
    );
    expect(plainText('Pass &lt;consumer&gt; as the group, and <T> as the type.')).toBe('Pass <consumer> as the group, and <T> as the type.');
  });

  it('drops components and real tags, keeping their inner text', () => {
    expect(plainText('Since <Badge type="info">3.0</Badge><CRoot />: press <kbd>Ctrl</kbd> then <Box>Run file</Box>.')).toBe('Since 3.0: press Ctrl then Run file.');
  });

  it('keeps *, _, numbers and units that are not emphasis, and removes the markers that are', () => {
    expect(plainText('Set the buffer to 65536*1024 bytes (`65536*1024`), 2 * 3 * 4 = 24 and a*b, at 99.9% and 5 MB/s.')).toBe(
      'Set the buffer to 65536*1024 bytes (`65536*1024`), 2 * 3 * 4 = 24 and a*b, at 99.9% and 5 MB/s.',
    );
    expect(plainText('The **default** is *10 ms*; see __this__ and _that_: max_pool_size and snake_case_name stay, **`lease_ms`** too.')).toBe(
      'The default is 10 ms; see this and that: max_pool_size and snake_case_name stay, `lease_ms` too.',
    );
    expect(plainText('An unpaired * or _ stays, as does **half.')).toBe('An unpaired * or _ stays, as does **half.');
  });

  it('keeps the spacing inside a code span, and collapses it outside', () => {
    expect(plainText('The   format\nis `%Y  %m` exactly.')).toBe('The format is `%Y  %m` exactly.');
  });

  it('reads a table row as its cells with their column headers when the header is known', () => {
    const row = '| `maxPoolSize` | 10 | The size of the pool. Defaults to `10`. |';
    expect(plainText(row, { tableHeader: '| Option | Default | Meaning |' })).toBe('Option: `maxPoolSize`; Default: 10; Meaning: The size of the pool. Defaults to `10`.');
    expect(plainText(row)).toBe('`maxPoolSize` | 10 | The size of the pool. Defaults to `10`.');
    expect(plainText('| `-c` |  | Connection string. |', { tableHeader: '| Flag | Default | Meaning |' })).toBe('Flag: `-c`; Meaning: Connection string.');
  });

  it('reads a table in the text with its own header, and a `\\|` as a pipe of the cell, code spans included', () => {
    expect(plainText('| Option | Type |\n|---|:---:|\n| `mode` | `str \\| None` |\n| a \\| b | *int* |')).toBe('Option | Type Option: `mode`; Type: `str | None` Option: a | b; Type: int');
  });
});

describe('plainText on hostile input', () => {
  it('keeps 30k unmatched brackets, backtick runs of every length and emphasis runs as text, in one pass each', () => {
    expect(plainText('[a '.repeat(30_000))).toBe('[a '.repeat(30_000).trim());
    const backticks = Array.from({ length: 20_000 }, (_, n) => `${'`'.repeat(1 + (n % 50))}x`).join(' ');
    expect(plainText(backticks).length).toBe(backticks.length);
    expect(plainText(`${'*a '.repeat(30_000)}${'_b_ '.repeat(30_000)}`)).toBe(`${'*a '.repeat(30_000)}${'b '.repeat(30_000)}`.trim());
  });
});

describe('placeholder notes', () => {
  it('tells placeholder notes from documentation', () => {
    expect(isPlaceholderNote('TODO: which VACUUM options should we recommend?')).toBe(true);
    expect(isPlaceholderNote('Run VACUUM regularly.')).toBe(false);
    expect(withoutPlaceholderNotes('Intro.\nTODO: post perfTest results on RDS.\nEnd.')).toBe('Intro.\n\nEnd.');
  });

  it('follows a placeholder note across hard wraps to the end of its sentence, never past a blank line or a list', () => {
    const text = 'Intro.\nTODO: post perfTest results in a more reasonable configuration, e.g. using an\nRDS PostgreSQL server and a worker running on EC2.\nEnd.';
    expect(placeholderNotes(text)).toEqual(['TODO: post perfTest results in a more reasonable configuration, e.g. using an RDS PostgreSQL server and a worker running on EC2.']);
    expect(withoutPlaceholderNotes(text)).toBe('Intro.\n\nEnd.');
    expect(placeholderNotes('TODO: list the\n\nDefaults here.')).toEqual(['TODO: list the']);
    expect(placeholderNotes('TODO: document the\n- first option')).toEqual(['TODO: document the']);
    expect(placeholderNotes('No notes here.')).toEqual([]);
  });

  it('ends a note at a full-width sentence end (。！？) as at a period', () => {
    expect(placeholderNotes('TODO: 例を追加する。\nクロージャは外側の環境を捕捉した関数です。')).toEqual(['TODO: 例を追加する。']);
  });

  it('takes no note from fenced code: a TODO of an example is an exercise for the reader', () => {
    const text = 'Closures capture their environment.\n\n```rust\n// TODO: uncomment the line above\n// closures borrow here\nlet c = || x;\n```\n\nTODO: document move closures.';
    expect(placeholderNotes(text)).toEqual(['TODO: document move closures.']);
    expect(withoutPlaceholderNotes(text)).toBe('Closures capture their environment.\n\n```rust\n// TODO: uncomment the line above\n// closures borrow here\nlet c = || x;\n```\n\n');
    // A block cut off at the end of a passage is code to its end.
    expect(placeholderNotes('Intro.\n~~~js\n// TODO: try it\n')).toEqual([]);
  });
});
