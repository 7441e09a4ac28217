import { readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Reads a file as text, or undefined when it cannot be read. */
export type ReadText = (path: string) => string | undefined;

/** A position in a stack: a file URL or absolute path, then line and column (1-based). */
const POSITION = /(file:\/\/[^\s()]+?|\/[^\s()]+?):(\d+):(\d+)/g;
/** The source map comment a compiler leaves at the end of a JavaScript file. */
const MAP_COMMENT = /\/\/# sourceMappingURL=(\S+)\s*$/;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};

/**
 * `stack` with each position in a compiled JavaScript file (the CLI bundle, dist/) replaced by
 * the TypeScript position the file's source map gives, where the file names a map beside it
 * (`//# sourceMappingURL=`, a relative URL) and the map has that position. Other positions
 * (Node's own, tsx-compiled sources, files without a map) are left as they are.
 *
 * Node maps stacks itself once `process.setSourceMapsEnabled(true)` is called, but then reads
 * and parses the map of every module it loads: 8 ms of the 150 ms `atlas search` takes. Mapping
 * the one stack of a failure costs nothing until a failure happens.
 *
 * @example
 * sourceMappedStack('Error: x\n    at run (file:///atlas/dist/cli-bundle/main.js:120:5)');
 * // 'Error: x\n    at run (file:///atlas/src/cli/main.ts:86:3)'
 */
export function sourceMappedStack(stack: string, read: ReadText = readText): string {
  const maps = new Map<string, { map: SourceMap; url: URL } | null>();
  const mapOf = (location: string) => {
    if (!/\.[cm]?js$/.test(location)) return null;
    let known = maps.get(location);
    if (known === undefined) {
      known = loadMap(location, read);
      maps.set(location, known);
    }
    return known;
  };
  return stack.replace(POSITION, (whole, location: string, line: string, column: string) => {
    const found = mapOf(location);
    if (found === null) return whole;
    const origin = found.map.findOrigin(Number(line), Number(column));
    if (!('fileName' in origin)) return whole;
    const source = new URL(origin.fileName, found.url);
    const named = location.startsWith('file:') ? source.href : fileURLToPath(source);
    return `${named}:${origin.lineNumber}:${origin.columnNumber}`;
  });
}

function loadMap(location: string, read: ReadText): { map: SourceMap; url: URL } | null {
  try {
    const fileUrl = location.startsWith('file:') ? new URL(location) : pathToFileURL(location);
    const code = read(fileURLToPath(fileUrl));
    const comment = code === undefined ? null : MAP_COMMENT.exec(code);
    if (comment === null || comment[1]!.startsWith('data:')) return null;
    const url = new URL(comment[1]!, fileUrl);
    const text = read(fileURLToPath(url));
    return text === undefined ? null : { map: new SourceMap(JSON.parse(text) as SourceMapPayload), url };
  } catch {
    // A stack is printed because something already failed: an unreadable map leaves it as it was.
    return null;
  }
}

/**
 * What a log or a terminal shows of an unexpected failure: the error's stack, mapped to the
 * TypeScript sources ({@link sourceMappedStack}), or its text when it has none.
 *
 * @example
 * failureText(new TypeError('boom')); // 'TypeError: boom\n    at ...'
 */
export function failureText(error: unknown, read: ReadText = readText): string {
  if (!(error instanceof Error)) return String(error);
  return error.stack === undefined ? error.message : sourceMappedStack(error.stack, read);
}
