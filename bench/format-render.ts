/**
 * Renders a dataset's markdown pages to HTML, Word and PDF with real renderers, for
 * bench/format-parity.ts: pandoc (`pandoc -s -f markdown -t html5`, `pandoc -f markdown -t docx`)
 * and Chromium's headless print to PDF of the pandoc HTML. Renders are cached by content hash
 * (the renderer's version, the page's bytes and its path), so a re-run renders only changed pages;
 * at most `jobs` renderers run at once.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A format the parity bench renders markdown to. */
export type RenderFormat = 'html' | 'docx' | 'pdf';

export const RENDER_FORMATS: readonly RenderFormat[] = ['html', 'docx', 'pdf'];

/** One page to render: its markdown file and the file the rendered copy goes to. */
export interface RenderJob {
  source: string;
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
  let done = 0;
  await pool(jobs, options.jobs, async (job) => {
    const cached = await renderCached(format, job.source, versions, options.cacheDir);
    mkdirSync(dirname(job.target), { recursive: true });
    copyFileSync(cached.file, job.target);
    options.onDone?.(++done, jobs.length, cached.hit);
  });
}

async function renderCached(format: RenderFormat, source: string, versions: Record<string, string>, cacheDir: string): Promise<{ file: string; hit: boolean }> {
  // pandoc names a page without a title after its file: the name is part of the content.
  const key = hash([format, format === 'docx' ? versions.pandoc! : `${versions.pandoc}\n${versions.chromium}`, basename(source), readFileSync(source, 'utf8')].join('\0'));
  const file = join(cacheDir, `${key}.${format}`);
  if (existsSync(file)) return { file, hit: true };
  const partial = `${file}.${process.pid}.partial`;
  if (format === 'html') await pandoc(source, partial, 'html5', ['-s']);
  else if (format === 'docx') await pandoc(source, partial, 'docx', []);
  else await printToPdf((await renderCached('html', source, versions, cacheDir)).file, partial);
  renameSync(partial, file);
  return { file, hit: false };
}

async function pandoc(source: string, target: string, to: string, extra: string[]): Promise<void> {
  await run('pandoc', [...extra, '-f', 'markdown', '-t', to, source, '-o', target], { timeout: 120_000 });
}

/** Chromium's headless print of an HTML file; a profile folder of its own, so two can run at once. */
async function printToPdf(html: string, target: string): Promise<void> {
  // Chromium reads a file URL: give the HTML its extension.
  const profile = mkdtempSync(join(tmpdir(), 'atlas-parity-chromium-'));
  const page = join(profile, 'page.html');
  copyFileSync(html, page);
  try {
    await run('chromium', ['--headless', '--disable-gpu', '--no-sandbox', '--no-first-run', `--user-data-dir=${profile}`, `--print-to-pdf=${target}`, `file://${page}`], { timeout: 120_000 });
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  if (!existsSync(target)) throw new Error(`chromium printed no PDF of ${html}`);
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
