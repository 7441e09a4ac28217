/**
 * Renders a dataset's markdown pages to HTML, Word and PDF with real renderers, for
 * bench/format-parity.ts: pandoc (`pandoc -s -f gfm+attributes -t html5`, `pandoc -f gfm+attributes
 * -t docx`) and Chromium's headless print to PDF of the pandoc HTML (bench/chromium-print.ts).
 * Renders are cached by content hash (the renderer's version and reader, the page's bytes and its
 * path), so a re-run renders only changed pages; at most `jobs` renderers run at once.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { startChromiumPrinter, type ChromiumPrinter } from './chromium-print.ts';

const run = promisify(execFile);

/** A format the parity bench renders markdown to. */
export type RenderFormat = 'html' | 'docx' | 'pdf';

export const RENDER_FORMATS: readonly RenderFormat[] = ['html', 'docx', 'pdf'];

/**
 * How pandoc reads the pages: as GitHub-flavoured markdown, which the docs are (VitePress and
 * Docusaurus extend it), not as pandoc's own markdown. Pandoc's `markdown` reader takes a fence
 * with a file title (`` ```ts [vitest.config.ts] ``) for no fence, so code and the prose after it
 * swap places; GFM reads it as a fence (the language, and the title dropped). `attributes` reads a
 * heading's `{#id}` as its id, as the sites and Atlas's markdown reader do; GFM's default
 * `yaml_metadata_block` reads the front matter as metadata (the title), not as body text.
 */
export const PANDOC_READER = 'gfm+attributes';

/** One page to render: its markdown file, its path under the docs folder and the file the rendered copy goes to. */
export interface RenderJob {
  source: string;
  page: string;
  target: string;
}

export interface RenderOptions {
  cacheDir: string;
  /** Renderers running at once (the machine has 2 cores). */
  jobs: number;
  /** Called after each page, for progress. */
  onDone?: (done: number, total: number, cached: boolean) => void;
}

/** Versions of the renderers, part of every cache key: a new pandoc or Chromium renders again. */
export async function rendererVersions(): Promise<Record<'pandoc' | 'chromium', string>> {
  const pandoc = (await run('pandoc', ['--version'])).stdout.split('\n')[0]!.trim();
  const chromium = (await run('chromium', ['--version'])).stdout.trim();
  return { pandoc, chromium };
}

/**
 * Renders every job to `format`, copying a cached render when one exists.
 *
 * @example
 * await renderPages('pdf', [{ source: 'docs/cron.md', target: 'out/pdf/docs/cron.pdf' }], { cacheDir, jobs: 2 });
 */
export async function renderPages(format: RenderFormat, jobs: RenderJob[], options: RenderOptions): Promise<void> {
  const versions = await rendererVersions();
  mkdirSync(options.cacheDir, { recursive: true });
  const context: RenderContext = { versions, cacheDir: options.cacheDir, folder: mkdtempSync(join(tmpdir(), 'atlas-parity-chromium-')) };
  let done = 0;
  try {
    await pool(jobs, options.jobs, async (job) => {
      const cached = await renderCached(format, job, context);
      mkdirSync(dirname(job.target), { recursive: true });
      copyFileSync(cached.file, job.target);
      options.onDone?.(++done, jobs.length, cached.hit);
    });
  } finally {
    await (await context.printer)?.close();
    rmSync(context.folder, { recursive: true, force: true });
  }
}

interface RenderContext {
  versions: Record<string, string>;
  cacheDir: string;
  /** Holds Chromium's profile and the pages it prints (`site/<page path>.html`). */
  folder: string;
  /** Started at the first PDF, shared by the pages printed at once. */
  printer?: Promise<ChromiumPrinter>;
}

async function renderCached(format: RenderFormat, job: RenderJob, context: RenderContext): Promise<{ file: string; hit: boolean }> {
  const { source, page } = job;
  // pandoc names a page without a title after its file, and a PDF's links are resolved from the page's folder: both are part of the content.
  const name = format === 'pdf' ? page : basename(source);
  const pandoc = `${context.versions.pandoc} -f ${PANDOC_READER}`;
  const renderer = format === 'docx' ? pandoc : `${pandoc}\n${context.versions.chromium}${format === 'pdf' ? ' devtools print' : ''}`;
  const key = hash([format, renderer, name, readFileSync(source, 'utf8')].join('\0'));
  const file = join(context.cacheDir, `${key}.${format}`);
  if (existsSync(file)) return { file, hit: true };
  const partial = `${file}.${process.pid}.partial`;
  if (format === 'html') await runPandoc(source, partial, 'html5', ['-s']);
  else if (format === 'docx') await runPandoc(source, partial, 'docx', []);
  else await printToPdf((await renderCached('html', job, context)).file, page, partial, context);
  renameSync(partial, file);
  return { file, hit: false };
}

async function runPandoc(source: string, target: string, to: string, extra: string[]): Promise<void> {
  await run('pandoc', [...extra, '-f', PANDOC_READER, '-t', to, source, '-o', target], { timeout: 120_000 });
}

/**
 * Chromium's headless print of an HTML file (one browser for the run, see chromium-print.ts). The
 * HTML is printed from `site/<page path>.html`, so that a relative link (`./job-key.md`) becomes
 * a file URL of the page it names, as when a site is printed from disk.
 */
async function printToPdf(html: string, pagePath: string, target: string, context: RenderContext): Promise<void> {
  const page = join(context.folder, 'site', pagePath.replace(/\.mdx?$/i, '.html'));
  mkdirSync(dirname(page), { recursive: true });
  copyFileSync(html, page);
  context.printer ??= startChromiumPrinter(join(context.folder, 'profile'));
  writeFileSync(target, await (await context.printer).print(`file://${page}`));
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

/** Runs `work` over `items`, at most `width` at once. */
export async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(width, items.length)) }, lane));
}
