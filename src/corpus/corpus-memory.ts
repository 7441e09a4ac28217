import { SIDECAR_SUFFIX } from './page-body.ts';
import type { ParseDocumentResult } from './parse-document.ts';

/**
 * The pages of a docs folder as last parsed, kept between reads of the folder so that a read
 * after a few changes (`atlas ingest --watch`) reads and parses only the pages changed. A page is
 * read again when it, its sidecar or a folder above it was named by {@link CorpusMemory.changed},
 * when what the folder rules give it differs from the last read (a rule file edited), or when it
 * was not parsed before (a new page, or one whose reading failed); every other page's last result
 * (document, problems or note) is used as it was. Made by {@link createCorpusMemory}; one per
 * folder and set of chunking options. It holds every page's chunks in memory.
 *
 * @example
 * const memory = createCorpusMemory();
 * await loadCorpus('./docs', { memory }); // reads every page
 * memory.changed(['guide.md']);
 * await loadCorpus('./docs', { memory }); // reads guide.md only
 */
export interface CorpusMemory {
  /** Names paths (relative to the docs root, forward slashes; a page, a sidecar, a rule file or a folder) changed since the last read. `.` or `''` is the whole folder. */
  changed(paths: readonly string[]): void;
  /** Forgets every page: the next read reads them all (after a change that may have been missed). */
  clear(): void;
  /** The last result of `path`, when it can be used again: not changed since, and `key` (what the folder rules give it) the same. */
  reusable(path: string, key: string): ParseDocumentResult | undefined;
  /** Keeps the result of `path` as parsed now, with its `key`. */
  remember(path: string, key: string, result: ParseDocumentResult): void;
  /** After a complete read of the folder: forgets the pages no longer listed and the changes named, all of them read now. */
  settle(listed: ReadonlySet<string>): void;
}

/**
 * A new, empty {@link CorpusMemory}.
 *
 * @example
 * const corpus = await streamCorpus(root, { memory: createCorpusMemory() });
 */
export function createCorpusMemory(): CorpusMemory {
  const pages = new Map<string, { key: string; result: ParseDocumentResult }>();
  const changed = new Set<string>();
  const isChanged = (path: string): boolean => {
    if (changed.size === 0) return false;
    if (changed.has(path) || changed.has(`${path}${SIDECAR_SUFFIX}`)) return true;
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) if (changed.has(path.slice(0, slash))) return true;
    return false;
  };
  return {
    changed(paths) {
      for (const path of paths) {
        if (path === '.' || path === '') pages.clear();
        else changed.add(path.replace(/\/+$/, ''));
      }
    },
    clear: () => pages.clear(),
    reusable(path, key) {
      const kept = pages.get(path);
      if (kept !== undefined && kept.key === key && !isChanged(path)) return kept.result;
      // Read again now: remembered again once parsed, or not at all when it cannot be read.
      pages.delete(path);
      return undefined;
    },
    remember(path, key, result) {
      pages.set(path, { key, result });
    },
    settle(listed) {
      changed.clear();
      for (const path of pages.keys()) if (!listed.has(path)) pages.delete(path);
    },
  };
}
