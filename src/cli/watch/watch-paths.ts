import path from 'node:path';

/**
 * Whether a path under a watched docs folder can be left unwatched: what the corpus loader never
 * reads (dot-entries such as `.git` and `.atlas`, `node_modules`), the files editors write while
 * saving (vim's `4913` probe and `~` backups, emacs' `#autosave#`, JetBrains' `___jb_tmp___`
 * and `___jb_old___`, `.tmp`/`.part`/`.crdownload` downloads), and the index's own files when it
 * lies inside the folder (`index.db`, its `-wal`/`-journal` and its `.state.db`). Any other file
 * counts: the ingest decides what is a page, so a format the corpus learns to read is watched
 * without a change here.
 *
 * @example
 * const ignore = watchIgnore('/docs', ['/docs/index.db']);
 * ignore('/docs/guide.md'); // false
 * ignore('/docs/.guide.md.swp'); // true
 * ignore('/docs/index.db-wal'); // true
 */
export function watchIgnore(root: string, indexFiles: string[]): (file: string) => boolean {
  const resolvedRoot = path.resolve(root);
  const indexes = indexFiles.map((file) => path.resolve(file));
  return (file) => {
    const absolute = path.resolve(file);
    if (indexes.some((index) => absolute === index || absolute.startsWith(`${index}-`) || absolute.startsWith(`${index}.`))) return true;
    const relative = path.relative(resolvedRoot, absolute);
    if (relative === '' || relative.startsWith('..')) return false;
    const parts = relative.split(path.sep);
    if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) return true;
    return isEditorTemporary(parts.at(-1)!);
  };
}

const EDITOR_TEMPORARY = [/~$/, /^4913$/, /^#.*#$/, /___jb_(?:tmp|old)___$/, /\.(?:tmp|temp|part|crdownload|swp|swo|swx|kate-swp)$/i];

/** Whether a file name is one an editor or a download writes on the way to the real file. */
function isEditorTemporary(name: string): boolean {
  return EDITOR_TEMPORARY.some((pattern) => pattern.test(name));
}
