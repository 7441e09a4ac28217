/**
 * Derives a document id from its path relative to the docs root: extension dropped, `/` -> `-`,
 * lowercased, every character outside `[a-z0-9-]` replaced by `-`, leading dashes removed.
 * Returns `''` when nothing usable is left (the caller reports it).
 *
 * @example
 * slugFromPath('library/add-job.md'); // 'library-add-job'
 * slugFromPath('Guides/Getting Started.mdx'); // 'guides-getting-started'
 */
export function slugFromPath(relativePath: string): string {
  return relativePath
    .replace(/\.(md|mdx)$/i, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+/, '');
}

/** Ids given in front matter must match this: a letter or digit, then letters, digits, `.`, `_`, `-`. */
export const DOC_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
