/** The extension of a page file, of any format Atlas reads (formats/formats.ts lists them). */
const PAGE_FILE_EXTENSION = /\.(?:md|mdx|txt|html?|adoc|asciidoc|pdf|docx)$/i;

/**
 * Derives a document id from its path relative to the docs root: the extension of a page format
 * (`.md`, `.mdx`, `.txt`, `.html`, `.htm`, `.adoc`, `.asciidoc`, `.pdf`, `.docx`) dropped, `/` -> `-`,
 * lowercased, every character outside `[a-z0-9-]` replaced by `-`, leading dashes removed.
 * Returns `''` when nothing usable is left (the caller reports it).
 *
 * @example
 * slugFromPath('library/add-job.md'); // 'library-add-job'
 * slugFromPath('Guides/Getting Started.mdx'); // 'guides-getting-started'
 * slugFromPath('handbook.pdf'); // 'handbook' (the same id as handbook.md would have)
 */
export function slugFromPath(relativePath: string): string {
  return relativePath
    .replace(PAGE_FILE_EXTENSION, '')
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^-+/, '');
}

/** Ids given in front matter must match this: a letter or digit, then letters, digits, `.`, `_`, `-`. */
export const DOC_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
