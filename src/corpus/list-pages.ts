import { readFileSync, type Dirent } from 'node:fs';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { CorpusProblem } from '../errors.ts';
import { PAGE_EXTENSION } from './formats/formats.ts';
import { SIDECAR_SUFFIX } from './page-body.ts';
import { FOLDER_RULE_FILE } from './front-matter/folder-rule.ts';

/**
 * What the corpus loader reads of the file system. Node's `fs/promises` by default; tests pass a
 * wrapper that fails chosen paths (EACCES cannot be provoked as root).
 *
 * @example
 * const fs: CorpusFileSystem = { ...nodeCorpusFileSystem, readFile: async (path) => { throw Object.assign(new Error('denied'), { code: 'EACCES' }); } };
 * await loadCorpus('./docs', { fs });
 */
export interface CorpusFileSystem {
  readdir(path: string): Promise<Dirent[]>;
  readFile(path: string): Promise<Buffer>;
  /** Follows symlinks. `size` (bytes), when given, lets a file over the size limit go unread. */
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean; size?: number }>;
  realpath(path: string): Promise<string>;
}

/**
 * The real file system. A page is read with one synchronous call: `fs/promises`' readFile makes
 * several thread-pool round trips per file, and read 16,635 pages (62 MB) in 3.6-4.2 s one after
 * the other, 0.75-1.1 s 16-64 at a time, 0.15 s synchronously; the loader yields to the event
 * loop between batches of pages ({@link readPages} in load.ts).
 *
 * @example
 * const entries = await nodeCorpusFileSystem.readdir('./docs');
 */
export const nodeCorpusFileSystem: CorpusFileSystem = Object.freeze({
  readdir: (path: string) => readdir(path, { withFileTypes: true }),
  readFile: async (path: string) => readFileSync(path),
  stat: (path: string) => stat(path),
  realpath: (path: string) => realpath(path),
});

/** The pages found under a docs root, and what could not be listed or was refused. */
export interface ListedPages {
  /** Relative paths (forward slashes) of the pages, unsorted. */
  pages: string[];
  /** Relative paths of the sidecars found (`handbook.pdf.atlas.yaml`), unsorted. */
  sidecars: string[];
  /** Relative paths of the folder rules found (`internal/_atlas.yaml`), unsorted. */
  rules: string[];
  /** Every file listed (pages, sidecars and files Atlas does not read) counted by extension (`.html`, `''` for none), lower case. */
  extensions: Record<string, number>;
  problems: CorpusProblem[];
}

/**
 * Lists the pages (of every format Atlas reads, see formats/formats.ts), their sidecars and folder rules (`_atlas.yaml`; one misnamed `_atlas.yml` or `.atlas.yaml` is a problem) under `root` (its real path), recursively. Dot-entries,
 * `node_modules` and Sphinx's `_sources` folders (copies of a generated site's sources) are skipped. A symlinked page is followed once to its target when that target
 * is a file inside the root; a target outside the root (after resolving every link) is refused
 * as a problem, as are dangling links and link loops. Symlinked folders are never followed: one
 * inside the root would list its pages twice (they are listed at their real path), one outside
 * is refused. An unreadable subfolder is a problem; the rest is still listed.
 *
 * @example
 * const { pages, problems } = await listPages('/abs/docs', nodeCorpusFileSystem);
 */
export async function listPages(root: string, fs: CorpusFileSystem): Promise<ListedPages> {
  const listing: ListedPages = { pages: [], sidecars: [], rules: [], extensions: {}, problems: [] };
  await walk({ root, realRoot: await fs.realpath(root), fs, listing }, '');
  return listing;
}

interface Walk {
  root: string;
  realRoot: string;
  fs: CorpusFileSystem;
  listing: ListedPages;
}

const PAGE = PAGE_EXTENSION;

/** Names a folder rule might be given by mistake (a dot-file is never read; MkDocs' meta plugin names its file `.meta.yml`). */
const MISNAMED_RULES = new Set(['_atlas.yml', '.atlas.yaml', '.atlas.yml']);

/** Counts a file by its extension, and keeps it when it is a page, a sidecar or a folder rule. */
function listFile(listing: ListedPages, path: string, name: string): void {
  const dot = name.lastIndexOf('.');
  const extension = dot <= 0 ? '' : name.slice(dot).toLowerCase();
  listing.extensions[extension] = (listing.extensions[extension] ?? 0) + 1;
  if (PAGE.test(name)) listing.pages.push(path);
  else if (name === FOLDER_RULE_FILE) listing.rules.push(path);
  else if (name.toLowerCase().endsWith(SIDECAR_SUFFIX)) listing.sidecars.push(path);
}

/** A file named as a folder rule but not `_atlas.yaml`: its labels (its access groups) would apply to nothing, without a word. */
function misnamedRule(listing: ListedPages, path: string, name: string): void {
  listing.problems.push({
    file: path,
    field: 'folder rule',
    message: `a folder rule is read only as ${FOLDER_RULE_FILE}, got ${JSON.stringify(name)}, so its fields apply to no page. Rename it to ${FOLDER_RULE_FILE}.`,
  });
}

async function walk(context: Walk, folder: string): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await context.fs.readdir(join(context.root, folder));
  } catch (error) {
    // The root's own failure is the caller's (loadCorpus checks it first); a subfolder is a problem.
    if (folder === '') throw error;
    context.listing.problems.push({ file: folder, field: 'access', message: `cannot list this folder: ${fileErrorText(error)}. ${fileErrorFix(error, 'folder')}` });
    return;
  }
  for (const entry of entries) {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (MISNAMED_RULES.has(entry.name.toLowerCase()) || (entry.name !== FOLDER_RULE_FILE && entry.name.toLowerCase() === FOLDER_RULE_FILE)) {
      misnamedRule(context.listing, path, entry.name);
      continue;
    }
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    // Sphinx copies every page's source beside the HTML it generates (`_sources/x.rst.txt`): the site is its pages.
    if (entry.name === '_sources' && entry.isDirectory()) continue;
    if (entry.isDirectory()) await walk(context, path);
    else if (entry.isFile()) listFile(context.listing, path, entry.name);
    else if (entry.isSymbolicLink()) await followLink(context, path, PAGE.test(entry.name));
  }
}

/** A symlink: a page inside the root is listed; anything else that would be read is a problem. */
async function followLink(context: Walk, path: string, isPageName: boolean): Promise<void> {
  const absolute = join(context.root, path);
  const problem = (message: string) => context.listing.problems.push({ file: path, field: 'symlink', message });
  let target: string;
  try {
    target = await context.fs.realpath(absolute);
  } catch (error) {
    if (!isPageName) return;
    const code = (error as { code?: string }).code;
    if (code === 'ELOOP') problem('the link is a loop (it leads back to itself) and resolves to no file. Point it at a page, or delete it.');
    else if (code === 'ENOENT') problem('the link points to nothing (its target does not exist). Point it at a page, or delete it.');
    else problem(`cannot resolve the link: ${fileErrorText(error)}. Point it at a readable page, or delete it.`);
    return;
  }
  const info = await context.fs.stat(target).catch(() => undefined);
  const isFolder = info?.isDirectory() === true;
  if (!isFolder && !isPageName) return;
  if (!isInside(context.realRoot, target)) {
    const what = isFolder ? 'a folder' : 'a file';
    problem(
      `the link leads to ${what} outside the docs folder (${target}); it is not indexed, so nothing outside the folder you pointed at is read. Copy ${isFolder ? 'its pages' : 'the page'} into the docs folder instead, or delete the link.`,
    );
    return;
  }
  // A folder link inside the root: its pages are listed at their real path already.
  if (!isFolder && info?.isFile()) context.listing.pages.push(path);
}

function isInside(root: string, target: string): boolean {
  const rest = relative(root, target);
  return rest === '' || (!rest.startsWith(`..${sep}`) && rest !== '..' && !rest.startsWith(sep) && !/^[a-zA-Z]:/.test(rest));
}

/** "permission denied (EACCES)": the cause of a file system error, in words and code. */
export function fileErrorText(error: unknown): string {
  const code = (error as { code?: string }).code;
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENAMETOOLONG: 'the path is too long',
    ENOENT: 'it does not exist',
    ENOTDIR: 'a part of the path is a file, not a folder',
    ELOOP: 'too many levels of symbolic links',
    EISDIR: 'it is a folder',
    EIO: 'input/output error',
    EMFILE: 'too many open files',
  };
  if (code !== undefined && words[code]) return `${words[code]} (${code})`;
  return error instanceof Error ? error.message : String(error);
}

/** The fix for a file system error on a page or folder of the docs. */
export function fileErrorFix(error: unknown, kind: 'file' | 'folder'): string {
  const code = (error as { code?: string }).code;
  if (code === 'EACCES' || code === 'EPERM') {
    return kind === 'file'
      ? 'Make it readable (chmod a+r), or move it out of the docs folder.'
      : 'Make it readable (chmod a+rx), or move it out of the docs folder.';
  }
  if (code === 'ENAMETOOLONG') return 'Shorten the names of its folders, or move it higher up.';
  return `Fix the ${kind}, or move it out of the docs folder.`;
}
