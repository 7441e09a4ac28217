import { join } from 'node:path';
import type { CorpusProblem } from '../errors.ts';
import { convertBinaryPage, isBinaryFormat, pageFormat } from './formats/formats.ts';
import { megabytes, type FormatLimits } from './formats/limits.ts';
import { fileErrorFix, fileErrorText, type CorpusFileSystem } from './list-pages.ts';
import { SIDECAR_SUFFIX } from './page-body.ts';
import type { DocumentSource } from './parse-document.ts';

/** Where {@link readSource} reads: the docs root, its file system, the limits, and the sidecars listed. */
export interface SourceReading {
  root: string;
  fs: CorpusFileSystem;
  limits: FormatLimits;
  /** Paths of the sidecars listed; each one read is taken out, so the rest belong to no page. */
  sidecars: Set<string>;
}

/**
 * Reads one page for parsing: its bytes (a file over `limits.maxFileBytes` is a problem and
 * left unread when its size is known first), its sidecar when it has one, and a PDF or Word page
 * converted to markdown (the conversion's problem is kept in `converted`, reported at parsing).
 * A markdown page has front matter: a sidecar beside it is a problem.
 *
 * @example
 * const read = await readSource('handbook.pdf', { root, fs: nodeCorpusFileSystem, limits: DEFAULT_FORMAT_LIMITS, sidecars });
 */
export async function readSource(path: string, reading: SourceReading): Promise<{ source: DocumentSource } | { problem: CorpusProblem }> {
  const { root, fs, limits } = reading;
  const format = pageFormat(path) ?? 'markdown';
  const tooLarge = (size: number): { problem: CorpusProblem } => ({
    problem: { file: path, field: 'size', message: `the file is ${megabytes(size)}, more than the ${megabytes(limits.maxFileBytes)} Atlas reads of one file. Split it, or move it out of the docs folder (or pass --skip-invalid to leave it out).` },
  });
  let bytes: Buffer;
  try {
    // A markdown page is read without a stat first (thousands of small pages); another format is checked before it is read.
    if (format !== 'markdown') {
      const size = (await fs.stat(join(root, path))).size;
      if (size !== undefined && size > limits.maxFileBytes) return tooLarge(size);
    }
    bytes = await fs.readFile(join(root, path));
  } catch (error) {
    return { problem: { file: path, field: 'access', message: `cannot read this page: ${fileErrorText(error)}. ${fileErrorFix(error, 'file')}` } };
  }
  if (bytes.length > limits.maxFileBytes) return tooLarge(bytes.length);
  const source: DocumentSource = { path, bytes };
  const sidecarPath = `${path}${SIDECAR_SUFFIX}`;
  if (reading.sidecars.delete(sidecarPath)) {
    if (format === 'markdown') {
      return { problem: { file: sidecarPath, field: 'sidecar', message: `a sidecar is read only beside a page without front matter (HTML, PDF, Word, AsciiDoc, text), got one beside ${path}. Move its fields into the page's front matter and delete it.` } };
    }
    try {
      const text = (await fs.readFile(join(root, sidecarPath))).toString('utf8');
      source.sidecar = { path: sidecarPath, text };
    } catch (error) {
      return { problem: { file: sidecarPath, field: 'access', message: `cannot read this sidecar: ${fileErrorText(error)}. ${fileErrorFix(error, 'file')}` } };
    }
  }
  if (isBinaryFormat(format)) source.converted = await convertBinaryPage(format, bytes, limits);
  return { source };
}

/**
 * The problems of the sidecars that belong to no page (`old.pdf.atlas.yaml` once `old.pdf` is
 * gone): their labels would apply to nothing, without a word.
 */
export function orphanSidecarProblems(sidecars: Iterable<string>): CorpusProblem[] {
  return [...sidecars].map((file) => ({
    file,
    field: 'sidecar',
    message: `the sidecar belongs to no page: ${file.slice(0, -SIDECAR_SUFFIX.length)} is not in the docs folder (or is not a format Atlas reads). Rename it after its page, or delete it.`,
  }));
}
