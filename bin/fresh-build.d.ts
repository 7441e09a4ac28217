/** Types of fresh-build.js (plain JavaScript, loaded by bin/atlas.js before anything else). */
export function isBuildFresh(root: string): boolean;
