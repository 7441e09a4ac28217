import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * A folder of the docs rustup installs with the default toolchain (`<rustc --print sysroot>/share/
 * doc/rust/html/<relative>`), or undefined without rustc. Whether the folder exists is the caller's
 * to check.
 *
 * @example
 * rustDocsDir('cargo'); // '/root/.rustup/toolchains/stable-x86_64-unknown-linux-gnu/share/doc/rust/html/cargo'
 */
export function rustDocsDir(relative: string): string | undefined {
  try {
    const sysroot = execFileSync('rustc', ['--print', 'sysroot'], { encoding: 'utf8' }).trim();
    return join(sysroot, 'share/doc/rust/html', relative);
  } catch {
    return undefined;
  }
}
