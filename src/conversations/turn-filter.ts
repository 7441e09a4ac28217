// The filter a conversation's turn searches with: the one it was created with, narrowed by the
// filter enforced now. A server restarted with a narrower --version or --label must win over a
// conversation created before (docs/server.md: a request narrows the server's filter, never widens it).
import type { LabelValue } from '../corpus/types.ts';
import { ALL_VALUE } from '../index/filter.ts';
import type { SearchFilter } from '../index/types.ts';

/**
 * The intersection of a conversation's stored filter (version, labels) and the filter enforced
 * now (`current`, e.g. `atlas serve --version 3.x --label store=Aundh`), without a principal (the
 * conversation's groups decide that). What only one of them sets is kept; a version both set and
 * that differs keeps only the pages for all versions (`version: 'all'`); label values are
 * intersected, and none left keeps only the pages for all values of the label (`['all']`). Each
 * such case adds a note, as a request narrowing the server's filter does.
 *
 * @example
 * narrowConversationFilter({ version: '2.x' }, { version: '3.x', labels: { store: 'Aundh' } });
 * // { filter: { version: 'all', labels: { store: 'Aundh' } }, notes: ['this conversation searches version "2.x" (as it was created), outside ...'] }
 */
export function narrowConversationFilter(stored: SearchFilter, current: SearchFilter | undefined): { filter: SearchFilter; notes: string[] } {
  const notes: string[] = [];
  const version = narrowVersion(stored.version, current?.version, notes);
  const labels: Record<string, LabelValue> = { ...stored.labels };
  for (const [name, value] of Object.entries(current?.labels ?? {})) {
    const mine = labels[name];
    if (mine === undefined) {
      labels[name] = value;
      continue;
    }
    const allowed = labelValues(value);
    // "all" is a narrowing too: it keeps only the pages for every value of the label.
    const kept = labelValues(mine).filter((item) => allowed.includes(item) || item === ALL_VALUE);
    const outside = labelValues(mine).filter((item) => !kept.includes(item));
    if (outside.length > 0) {
      const fallback = kept.length === 0 ? `only pages for all values of "${name}" match` : `only ${kept.join(', ')} match`;
      notes.push(`this conversation searches labels.${name} ${outside.map((item) => JSON.stringify(item)).join(', ')} (as it was created), outside the values searched now (${allowed.join(', ')}); ${fallback}.`);
      labels[name] = kept.length === 0 ? [ALL_VALUE] : kept;
    }
  }
  const filter: SearchFilter = { ...(version === undefined ? {} : { version }), ...(Object.keys(labels).length === 0 ? {} : { labels }) };
  return { filter, notes };
}

function labelValues(value: LabelValue): string[] {
  return [value].flat();
}

function narrowVersion(stored: string | undefined, current: string | undefined, notes: string[]): string | undefined {
  if (current === undefined || stored === current) return stored;
  if (stored === undefined) return current;
  notes.push(`this conversation searches version "${stored}" (as it was created), outside the release line "${current}" searched now; only pages for all versions match.`);
  return ALL_VALUE;
}
