/** The URI scheme of Atlas resources: `atlas://chunk/<chunkId>` and `atlas://doc/<docId>`. */
export const CHUNK_URI_TEMPLATE = 'atlas://chunk/{chunkId}';
export const DOC_URI_TEMPLATE = 'atlas://doc/{docId}';

/**
 * The resource URI of a chunk; the `#` of its id is percent-encoded (else it would start a fragment).
 *
 * @example
 * chunkUri('flows#3'); // 'atlas://chunk/flows%233'
 */
export function chunkUri(chunkId: string): string {
  return `atlas://chunk/${encodeURIComponent(chunkId)}`;
}

/**
 * The resource URI of a whole document.
 *
 * @example
 * docUri('error-codes'); // 'atlas://doc/error-codes'
 */
export function docUri(docId: string): string {
  return `atlas://doc/${encodeURIComponent(docId)}`;
}

/**
 * A URI template variable as the resource's id: percent-decoded once; a malformed escape is
 * kept as written (it then names no chunk and reads as "not found").
 *
 * @example
 * decodeVariable('flows%233'); // 'flows#3'
 */
export function decodeVariable(value: string | string[] | undefined): string {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
