import { join } from 'node:path';
import type { CorpusProblem } from '../errors.ts';
import { parseFolderRule, type FolderRule, type FolderRuleFields } from './front-matter/folder-rule.ts';
import { fileErrorFix, fileErrorText, type CorpusFileSystem } from './list-pages.ts';

/** The largest folder rule read (bytes): a rule holds a few labels, and every rule is read at each ingest. */
const MAX_RULE_BYTES = 1024 * 1024;

/** What the folder rules give one page: `applies_to` and labels, before its own front matter or sidecar. */
export type FolderMeta = FolderRuleFields;

/** The folder rules of a docs folder, read and checked: what they give each page, and their problems. */
export interface FolderRules {
  /**
   * What the rules above `path` give it (`meta` absent when none gives anything), or the first
   * invalid rule above it: such a page is left out rather than indexed without its access.
   */
  forPage(path: string): { ok: true; meta?: FolderMeta } | { ok: false; rule: string };
  /** The problems of the rules, each naming the rule file and line. */
  problems: CorpusProblem[];
}

/**
 * Reads and checks the folder rules (`_atlas.yaml`) found under `root`. A page gets the fields of
 * every rule of its folder and the folders above it, applied from the root down, so the nearer
 * folder wins; within one rule its own fields come first, then each override whose `match`
 * matches the page's path below the rule's folder, in order. `applies_to` is replaced by each
 * rule that gives one; `labels` are merged label by label, each label replaced whole by the
 * nearer rule that names it: an `acl` list is never merged with another one (a union would let
 * the groups of both read the page). The page's own front matter or sidecar then wins the same
 * way (see `applyFolderMeta`). A rule that cannot be read or is invalid is a problem, and the
 * pages under it are left out (`pages` counts them in its message).
 *
 * @example
 * const rules = await readFolderRules(['internal/_atlas.yaml'], ['internal/a.pdf'], { root, fs });
 * rules.forPage('internal/a.pdf'); // { ok: true, meta: { labels: { acl: ['staff'] } } }
 */
export async function readFolderRules(files: readonly string[], pages: readonly string[], reading: { root: string; fs: CorpusFileSystem }): Promise<FolderRules> {
  const rules = new Map<string, FolderRule | undefined>();
  const problems: CorpusProblem[] = [];
  for (const file of [...files].sort()) {
    const folder = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
    let ruleProblems: CorpusProblem[];
    try {
      const size = (await reading.fs.stat(join(reading.root, file))).size ?? 0;
      if (size > MAX_RULE_BYTES) throw Object.assign(new Error(`the file is ${size} bytes, more than the ${MAX_RULE_BYTES} a folder rule may have`), { code: 'ERULESIZE' });
      const parsed = parseFolderRule({ file, yaml: (await reading.fs.readFile(join(reading.root, file))).toString('utf8') });
      if (parsed.ok) {
        rules.set(folder, parsed.rule);
        continue;
      }
      ruleProblems = parsed.problems;
    } catch (error) {
      const tooLarge = (error as { code?: string }).code === 'ERULESIZE';
      ruleProblems = [
        tooLarge
          ? { file, field: 'size', message: `${(error as Error).message}: a folder rule holds a few labels. Shorten it, or rename it if it is not a folder rule.` }
          : { file, field: 'access', message: `cannot read this folder rule: ${fileErrorText(error)}. ${fileErrorFix(error, 'file')}` },
      ];
    }
    rules.set(folder, undefined);
    const under = pages.filter((page) => isUnder(page, folder)).length;
    problems.push(...ruleProblems.map((problem) => ({ ...problem, message: `${problem.message} (Until it is fixed, the ${under} page${under === 1 ? '' : 's'} under ${folder === '' ? 'the docs folder' : `${folder}/`} ${under === 1 ? 'is' : 'are'} not indexed.)` })));
  }
  return { forPage: (path) => resolve(rules, path), problems };
}

function resolve(rules: ReadonlyMap<string, FolderRule | undefined>, path: string): { ok: true; meta?: FolderMeta } | { ok: false; rule: string } {
  if (rules.size === 0) return { ok: true };
  let meta: FolderMeta | undefined;
  const parts = path.split('/');
  for (let depth = 0; depth < parts.length; depth += 1) {
    const folder = parts.slice(0, depth).join('/');
    if (!rules.has(folder)) continue;
    const rule = rules.get(folder);
    if (rule === undefined) return { ok: false, rule: folder === '' ? '_atlas.yaml' : `${folder}/_atlas.yaml` };
    const below = folder === '' ? path : path.slice(folder.length + 1);
    meta = applyFolderMeta(meta, rule.fields);
    for (const override of rule.overrides) if (override.matches(below)) meta = applyFolderMeta(meta, override.fields);
  }
  return meta === undefined ? { ok: true } : { ok: true, meta };
}

/**
 * `nearer` over `outer`: its `applies_to` when it gives one, and the labels of both, each label
 * of `nearer` replacing the same label of `outer` whole (an `acl` list is never a union).
 *
 * @example
 * applyFolderMeta({ labels: { acl: ['staff'], team: 'ops' } }, { labels: { acl: ['admins'] } });
 * // { labels: { acl: ['admins'], team: 'ops' } }
 */
export function applyFolderMeta(outer: FolderMeta | undefined, nearer: FolderMeta): FolderMeta {
  const appliesTo = nearer.applies_to ?? outer?.applies_to;
  const labels = outer?.labels === undefined && nearer.labels === undefined ? undefined : { ...outer?.labels, ...nearer.labels };
  return { ...(appliesTo === undefined ? {} : { applies_to: appliesTo }), ...(labels === undefined ? {} : { labels }) };
}

function isUnder(page: string, folder: string): boolean {
  return folder === '' || page.startsWith(`${folder}/`);
}
