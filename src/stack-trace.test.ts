import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { failureText, sourceMappedStack } from './stack-trace.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'atlas-stack-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

// A TypeScript module compiled as the build compiles the CLI: a .js file naming its .js.map.
const source = ['interface Options {', '  depth: number;', '}', '', 'export function fail(options: Options): never {', "  throw new Error(`too deep: ${options.depth}`);", '}', ''].join('\n');
const compiled = transformSync(source, { loader: 'ts', format: 'esm', sourcemap: 'external', sourcefile: '../src/fail.ts' });
const jsPath = path.join(folder, 'dist', 'fail.js');

mkdirSync(path.dirname(jsPath), { recursive: true });
writeFileSync(jsPath, `${compiled.code}//# sourceMappingURL=fail.js.map\n`);
writeFileSync(`${jsPath}.map`, compiled.map);

/** The stack of fail() thrown in a Node process of its own, as bin/atlas.js runs the bundle: no source maps on. */
function thrownStack(): string {
  const script = `const { fail } = await import(${JSON.stringify(pathToFileURL(jsPath).href)}); try { fail({ depth: 3 }); } catch (error) { process.stdout.write(error.stack); }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}

describe('sourceMappedStack', () => {
  it('gives the TypeScript position of a frame in a compiled file, from the map it names', () => {
    const stack = thrownStack();
    // Line 6, column 9 of the source: `new Error` inside fail().
    expect(stack).toContain(`${pathToFileURL(jsPath).href}:`);
    const mapped = sourceMappedStack(stack);
    expect(mapped.split('\n')[0]).toBe('Error: too deep: 3');
    expect(mapped.split('\n')[1]).toBe(`    at fail (${pathToFileURL(path.join(folder, 'src', 'fail.ts')).href}:6:9)`);
    expect(mapped).not.toContain('fail.js:');
  });

  it('maps absolute paths as paths, and leaves frames without a map and Node\'s own as they are', () => {
    const stack = [
      'Error: x',
      '    at fail (/no/such/file.js:3:7)',
      '    at node:internal/modules/esm/module_job:325:25',
      `    at Module.fail (${jsPath}:2:9)`,
    ].join('\n');
    const lines = sourceMappedStack(stack).split('\n');
    expect(lines.slice(0, 3)).toEqual(stack.split('\n').slice(0, 3));
    expect(lines[3]).toBe(`    at Module.fail (${path.join(folder, 'src', 'fail.ts')}:6:9)`);
  });

  it('leaves the stack as it is when a map cannot be read or parsed', () => {
    const stack = `Error: x\n    at f (${jsPath}:2:9)`;
    expect(sourceMappedStack(stack, (file) => (file.endsWith('.map') ? '{not json' : `//# sourceMappingURL=fail.js.map\n`))).toBe(stack);
    expect(sourceMappedStack(stack, () => undefined)).toBe(stack);
  });
});

describe('failureText', () => {
  it('is the text of a thrown value that is not an Error, and the message of an Error without a stack', () => {
    expect(failureText('plain')).toBe('plain');
    const error = new Error('no stack');
    error.stack = undefined;
    expect(failureText(error)).toBe('no stack');
  });
});
