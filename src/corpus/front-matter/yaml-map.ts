import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import type { CorpusProblem } from '../../errors.ts';

/** A YAML map as read: its data, and the line (in the file) of any key in it. */
export interface YamlMap {
  data: Record<string, unknown>;
  /** The 1-based line in the file of the key at `path` (`['labels', 'acl']`, `['overrides', 0, 'match']`), or of its deepest key found. */
  lineOf(path: ReadonlyArray<string | number>): number | undefined;
}

/**
 * Parses YAML that must be a map of fields (front matter, a sidecar, a folder rule). A syntax
 * error, an alias bomb or a value that is not a map is one problem naming the file, the line and
 * the fix; `subject` names the YAML in messages (`front matter`, `folder rule`).
 *
 * @example
 * readYamlMap({ file: 'a.md', yaml: 'title: A', yamlStartLine: 2, subject: 'front matter' });
 * // { ok: true, map: { data: { title: 'A' }, lineOf: ... } }
 */
export function readYamlMap(input: { file: string; yaml: string; yamlStartLine: number; subject: string }): { ok: true; map: YamlMap } | { ok: false; problem: CorpusProblem } {
  const { file, yaml, yamlStartLine, subject } = input;
  const lineCounter = new LineCounter();
  const document = parseDocument(yaml, { lineCounter });
  const problem = (line: number, message: string) => ({ ok: false as const, problem: { file, line, field: subject, message } });
  const error = document.errors[0];
  if (error) {
    const position = error.linePos?.[0] ?? { line: 1, col: 1 };
    const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return problem(yamlStartLine + position.line - 1, `${subject} is not valid YAML at column ${position.col}: ${reason}. Fix the YAML syntax; quote values that contain ": " or " #".`);
  }
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 }) ?? {};
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return problem(yamlStartLine, `${subject} could not be read, got "${reason}". Remove YAML aliases (*name) from the ${subject}.`);
  }
  if (typeof data !== 'object' || Array.isArray(data)) {
    return problem(yamlStartLine, `${subject} must be a map of fields, got ${Array.isArray(data) ? 'a list' : JSON.stringify(data)}. Write one field per line, e.g. title: "Install".`);
  }
  const lineOf = (path: ReadonlyArray<string | number>) => {
    const line = keyLine(document, lineCounter, path);
    return line === undefined ? undefined : yamlStartLine + line - 1;
  };
  return { ok: true, map: { data: data as Record<string, unknown>, lineOf } };
}

/** 1-based line (within the YAML text) of the key at `path`; a number is an item of a list (the line of its first key). */
function keyLine(document: Document, lineCounter: LineCounter, path: ReadonlyArray<string | number>): number | undefined {
  let node: unknown = document.contents;
  let line: number | undefined;
  for (const part of path) {
    if (typeof part === 'number' && isSeq(node)) {
      node = node.items[part];
      const range = (node as { range?: [number, number, number] } | undefined)?.range;
      if (range !== undefined) line = lineCounter.linePos(range[0]).line;
      continue;
    }
    if (!isMap(node)) return line;
    const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(part));
    if (!pair || !isScalar(pair.key) || !pair.key.range) return line;
    line = lineCounter.linePos(pair.key.range[0]).line;
    node = pair.value;
  }
  return line;
}
