import type { CorpusProblem } from '../errors.ts';

/** Result of {@link decodeSource}: normalised text, or the problem that makes the file unreadable. */
export type DecodeResult = { ok: true; text: string } | { ok: false; problem: CorpusProblem };

/**
 * Turns the raw bytes of a page into text: rejects binary (NUL bytes) and non-UTF-8 files,
 * strips a UTF-8 byte order mark and normalises CRLF and lone CR line endings to LF
 * (line numbers are unchanged, only the line terminators).
 *
 * @example
 * decodeSource('a.md', Buffer.from('\uFEFF# Hi\r\n')); // { ok: true, text: '# Hi\n' }
 */
export function decodeSource(file: string, bytes: Buffer): DecodeResult {
  if (startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])) {
    return fail(file, 'file is UTF-16 encoded, got a UTF-16 byte order mark. Re-save it as UTF-8.');
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    return fail(
      file,
      `file looks binary, got a NUL byte at byte offset ${nul}. Only UTF-8 markdown (.md, .mdx) can be indexed: move the file out of the docs folder.`,
      lineAt(bytes, nul),
    );
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(bytes);
    return fail(
      file,
      `file is not valid UTF-8, got an invalid byte sequence at byte offset ${offset}. Re-save it as UTF-8.`,
      lineAt(bytes, offset),
    );
  }
  // TextDecoder strips a leading BOM by default (ignoreBOM: false); be explicit anyway.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  // The replace scans the whole text even when there is nothing to replace (most pages).
  return { ok: true, text: text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text };
}

function fail(file: string, message: string, line?: number): DecodeResult {
  return { ok: false, problem: { file, ...(line === undefined ? {} : { line }), field: 'encoding', message } };
}

/** 1-based line of a byte offset (counts LF bytes before it). */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset; index++) if (bytes[index] === 0x0a) line++;
  return line;
}

function startsWith(bytes: Buffer, prefix: number[]): boolean {
  return prefix.every((byte, index) => bytes[index] === byte);
}

/** Byte offset of the first invalid UTF-8 sequence (called only after a fatal decode failed). */
function firstInvalidUtf8Offset(bytes: Buffer): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let index = 0;
  while (index < bytes.length) {
    const length = sequenceLength(bytes[index]!);
    if (length === 0 || index + length > bytes.length) return index;
    if (length > 1) {
      try {
        decoder.decode(bytes.subarray(index, index + length));
      } catch {
        return index;
      }
    }
    index += length;
  }
  return index;
}

/** Length of the UTF-8 sequence a lead byte announces; 0 when it cannot lead one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}
