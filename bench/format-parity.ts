/**
 * `npx tsx bench/format-parity.ts --data ../shared/datasets/<set> --formats html,docx,pdf --out /tmp/parity-<set>`
 *
 * Format parity (issue 40): renders a dataset's markdown pages to HTML (`pandoc -s -f
 * gfm+attributes -t html5`), Word (`pandoc -f gfm+attributes -t docx`) and PDF (Chromium's headless
 * print to PDF of that HTML), writes a copy of the dataset per format (same relative paths, so gold doc ids map by file
 * stem; a page whose front matter sets `id`, `applies_to` or `labels` gets a sidecar with them,
 * which the other formats cannot hold), and runs `atlas eval retrieval --json` and `atlas eval
 * compare --model offline --json` on the markdown dataset and on each copy. Prints one table: recall
 * per arm and per kind and the offline planner's correct answers, per format beside markdown, with
 * each format's gap to markdown. Renders are cached by content hash (`--cache`, default
 * $TMPDIR/atlas-format-parity-cache); at most two processes render or evaluate at once.
 *
 * `--data` is a folder, or a dataset name looked up in ATLAS_SHARED_DIR/datasets, else in
 * ../shared/datasets beside the checkout. Results: `<out>/<arm>-retrieval.json`,
 * `<out>/<arm>-compare.json` and `<out>/table.md`. Not part of the test suite.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { formatParityTable, type ArmResult } from './format-parity-table.ts';
import { pool, RENDER_FORMATS, renderPages, type RenderFormat } from './format-render.ts';

const run = promisify(execFile);
const CHECKOUT = fileURLToPath(new URL('..', import.meta.url));
const SIDECAR_FIELDS = ['id', 'applies_to', 'labels'];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: 'string' },
      formats: { type: 'string', default: RENDER_FORMATS.join(',') },
      out: { type: 'string' },
      cache: { type: 'string', default: join(tmpdir(), 'atlas-format-parity-cache') },
      jobs: { type: 'string', default: '2' },
      evals: { type: 'string', default: 'retrieval,compare' },
    },
  });
  if (values.data === undefined) throw new Error('Pass --data <dataset folder or name>, e.g. --data ../shared/datasets/graphile-worker-dev');
  const data = datasetFolder(values.data, process.env);
  const formats = parseFormats(values.formats);
  const out = resolve(values.out ?? join(tmpdir(), `parity-${basename(data)}`));
  const jobs = Math.min(2, Math.max(1, Number(values.jobs) || 1));
  const evals = values.evals.split(',').filter((name) => name === 'retrieval' || name === 'compare');
  mkdirSync(out, { recursive: true });

  const pages = markdownPages(join(data, 'docs'));
  const arms: Array<{ name: string; folder: string }> = [{ name: 'markdown', folder: data }];
  for (const format of formats) {
    const folder = join(out, format);
    rmSync(folder, { recursive: true, force: true });
    const jobsOf = pages.map((page) => ({ source: join(data, 'docs', page), page, target: join(folder, 'docs', page.replace(/\.mdx?$/i, `.${format}`)) }));
    const started = Date.now();
    let fresh = 0;
    await renderPages(format, jobsOf, {
      cacheDir: values.cache,
      jobs,
      onDone: (done, total, cached) => {
        if (!cached) fresh += 1;
        if (done % 20 === 0 || done === total) process.stderr.write(`render ${format}: ${done}/${total} (${fresh} rendered, the rest cached)\n`);
      },
    });
    process.stderr.write(`render ${format}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    writeSidecars(data, folder, pages, format);
    copyEval(data, folder);
    arms.push({ name: format, folder });
  }

  const tasks = arms.flatMap((arm) => evals.map((kind) => ({ arm, kind })));
  const results = new Map<string, Partial<ArmResult>>();
  await pool(tasks, jobs, async ({ arm, kind }) => {
    const json = await evaluate(arm.folder, kind);
    writeFileSync(join(out, `${arm.name}-${kind}.json`), json);
    results.set(arm.name, { ...results.get(arm.name), name: arm.name, [kind]: JSON.parse(json) });
    process.stderr.write(`eval ${kind} ${arm.name}: done\n`);
  });
  const table = formatParityTable(basename(data), arms.map((arm) => results.get(arm.name) as ArmResult));
  writeFileSync(join(out, 'table.md'), table);
  process.stdout.write(table);
}

/** `--data` as given when it is a folder, else a dataset name under the shared folder. */
function datasetFolder(data: string, env: NodeJS.ProcessEnv): string {
  const candidates = [resolve(data), ...[env.ATLAS_SHARED_DIR, join(CHECKOUT, '..', 'shared')].filter((root) => root !== undefined).map((root) => join(root!, 'datasets', basename(data)))];
  const found = candidates.find((folder) => existsSync(join(folder, 'docs')));
  if (found === undefined) {
    throw new Error(`--data ${data}: no dataset folder (with docs/) at ${candidates.join(' or ')}. Pass the folder, or set ATLAS_SHARED_DIR to the shared folder that holds datasets/.`);
  }
  return found;
}

function parseFormats(list: string): RenderFormat[] {
  const formats = list.split(',').map((name) => name.trim()).filter((name) => name !== '');
  const unknown = formats.filter((name) => !(RENDER_FORMATS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--formats: unknown format ${unknown.join(', ')}; pass some of ${RENDER_FORMATS.join(',')}, e.g. --formats html,pdf`);
  return formats as RenderFormat[];
}

/** Markdown pages under `docs`, relative paths, sorted. */
function markdownPages(docs: string): string[] {
  const pages: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.mdx?$/i.test(entry.name)) pages.push(relative(docs, path));
    }
  };
  walk(docs);
  return pages.sort();
}

/** A sidecar with the front matter fields a rendered file cannot hold (id, applies_to, labels). */
function writeSidecars(data: string, folder: string, pages: string[], format: RenderFormat): void {
  for (const page of pages) {
    const yaml = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(data, 'docs', page), 'utf8'))?.[1];
    const fields = yaml === undefined ? {} : ((parseYaml(yaml) ?? {}) as Record<string, unknown>);
    const kept = Object.fromEntries(SIDECAR_FIELDS.filter((field) => fields[field] !== undefined).map((field) => [field, fields[field]]));
    if (Object.keys(kept).length === 0) continue;
    writeFileSync(join(folder, 'docs', `${page.replace(/\.mdx?$/i, `.${format}`)}.atlas.yaml`), stringifyYaml(kept));
  }
}

function copyEval(data: string, folder: string): void {
  const evalDir = join(data, 'eval');
  if (!existsSync(evalDir)) return;
  mkdirSync(join(folder, 'eval'), { recursive: true });
  for (const name of readdirSync(evalDir)) if (name.endsWith('.jsonl')) copyFileSync(join(evalDir, name), join(folder, 'eval', name));
}

/** One eval command's JSON on `folder` (the CLI of this checkout). */
async function evaluate(folder: string, kind: string): Promise<string> {
  const args = [join(CHECKOUT, 'bin', 'atlas.js'), 'eval', kind, '--data', folder, '--json', ...(kind === 'compare' ? ['--model', 'offline'] : [])];
  const { stdout } = await run(process.execPath, args, { cwd: dirname(folder), maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ATLAS_MODEL: 'offline' } });
  return stdout;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
