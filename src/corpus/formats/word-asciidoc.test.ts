import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertAsciidoc } from './asciidoc.ts';
import { convertWord } from './word.ts';

// runbook.docx was made once with pandoc from this markdown (pandoc runbook.md -o runbook.docx):
// title "Worker runbook" in front matter, "# Starting workers", a table, a list, a code span.
const RUNBOOK = readFileSync(new URL('./__fixtures__/runbook.docx', import.meta.url));

describe('convertWord', () => {
  it('reads headings, tables, lists and code spans, and the title from the document properties', async () => {
    expect(await convertWord(RUNBOOK)).toEqual({
      ok: true,
      page: {
        title: 'Worker runbook',
        markdown:
          '# Starting workers\n\nStart one worker per core with the `--jobs` flag.\n\n## Limits\n\n| Setting | Default |\n| --- | --- |\n| concurrency | 10 |\n| poll interval | 2 s |\n\n- Restart a stuck worker.\n\n- Check the logs first.\n',
      },
    });
  });

  it('reports an encrypted (OLE) file and a broken one by name, with the fix', async () => {
    expect(await convertWord(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]))).toEqual({
      ok: false,
      problem: {
        field: 'encryption',
        message: 'the file is an OLE container, not a .docx zip: a Word file encrypted with a password, or an old .doc renamed. Save it as .docx without a password, or pass --skip-invalid to leave it out.',
      },
    });
    const broken = await convertWord(RUNBOOK.subarray(0, 2000));
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.problem.field).toBe('content');
    expect(!broken.ok && broken.problem.message).toMatch(/^the file cannot be read as a \.docx \(.+\)\. Check that it opens in Word and save it again, or pass --skip-invalid to leave it out\.$/);
  });
});

describe('convertAsciidoc', () => {
  it('reads sections, code and tables, the title from the document title, and follows no include (secure mode links it)', () => {
    const text = '= Deploy guide\n\n== Install\n\nRun *it* now.\n\ninclude::/etc/passwd[]\n\n[source,sh]\n----\nnpm i\n----\n\n|===\n|Flag |Default\n\n|--jobs |1\n|===\n';
    expect(convertAsciidoc(text)).toEqual({
      title: 'Deploy guide',
      markdown: '## Install\n\nRun it now.\n\n/etc/passwd\n\n```sh\nnpm i\n```\n\n| Flag | Default |\n| --- | --- |\n| --jobs | 1 |\n',
    });
  });
});
