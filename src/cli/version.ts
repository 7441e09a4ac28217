import { readFileSync } from 'node:fs';

/**
 * The version of this Atlas, from its package.json (what `atlas --version` prints, and the
 * `service.version` of its spans). Read from two levels below the package root, as src/cli/ and
 * the CLI bundle's folder both are.
 *
 * @example
 * ATLAS_VERSION // '0.1.0'
 */
export const ATLAS_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
