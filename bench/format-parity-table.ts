/**
 * The table of bench/format-parity.ts: recall per arm and per kind (atlas eval retrieval) and
 * the offline planner's correct answers (atlas eval compare), per format beside markdown, with
 * each format's gap to markdown and a mark where it is more below markdown than the target
 * (issue 40: 0.03 for HTML and Word, 0.05 for PDF).
 */

interface Row {
  kind: string;
  arm: string;
  recall?: number;
  correct?: number;
  abstainRate?: number;
}

/** One arm's eval results: `atlas eval retrieval --json` and `atlas eval compare --json`. */
export interface ArmResult {
  name: string;
  retrieval?: { rows: Row[] };
  compare?: { rows: Row[] };
}

/** How far below markdown a format may be, per format. */
export const PARITY_TARGETS: Readonly<Record<string, number>> = { html: 0.03, docx: 0.03, pdf: 0.05 };

const KINDS = ['exact_term', 'semantic', 'multi_hop', 'version'];

interface Metric {
  label: string;
  value: (arm: ArmResult) => number | undefined;
}

function metrics(arms: ArmResult[]): Metric[] {
  const kinds = (source: 'retrieval' | 'compare') => KINDS.filter((kind) => arms.some((arm) => arm[source]?.rows.some((row) => row.kind === kind)));
  const pick = (source: 'retrieval' | 'compare', kind: string, armName: string, field: keyof Row) => (arm: ArmResult) => {
    const value = arm[source]?.rows.find((row) => row.kind === kind && row.arm === armName)?.[field];
    return typeof value === 'number' ? value : undefined;
  };
  const list: Metric[] = [];
  for (const armName of ['classic@5', 'classic@15', 'agentic']) {
    list.push({ label: `recall, ${armName}, all kinds`, value: pick('retrieval', 'all', armName, 'recall') });
    for (const kind of kinds('retrieval')) list.push({ label: `recall, ${armName}, ${kind}`, value: pick('retrieval', kind, armName, 'recall') });
  }
  list.push({ label: 'abstained, agentic, unanswerable', value: pick('retrieval', 'unanswerable', 'agentic', 'abstainRate') });
  list.push({ label: 'correct answers, offline agentic, all', value: pick('compare', 'all', 'agentic', 'correct') });
  for (const kind of [...kinds('compare'), 'unanswerable', 'qa']) {
    list.push({ label: `correct answers, offline agentic, ${kind}`, value: pick('compare', kind, 'agentic', 'correct') });
  }
  return list.filter((metric) => arms.some((arm) => metric.value(arm) !== undefined));
}

/**
 * A markdown table, markdown first; a format's cell is `value (gap)`, marked `MISS` when the gap
 * below markdown is over its target. A last line counts the misses.
 *
 * @example
 * formatParityTable('graphile-worker-dev', [markdownResult, htmlResult]);
 */
export function formatParityTable(dataset: string, arms: ArmResult[]): string {
  const list = metrics(arms);
  const lines = [`| ${dataset} | ${arms.map((arm) => arm.name).join(' | ')} |`, `|---|${arms.map(() => '---|').join('')}`];
  const misses: string[] = [];
  for (const metric of list) {
    const base = metric.value(arms[0]!);
    const cells = arms.map((arm, at) => {
      const value = metric.value(arm);
      if (value === undefined) return 'n/a';
      if (at === 0 || base === undefined) return value.toFixed(3);
      const gap = value - base;
      const miss = gap < -(PARITY_TARGETS[arm.name] ?? 0) - 1e-9;
      if (miss) misses.push(`${arm.name}: ${metric.label}`);
      return `${value.toFixed(3)} (${gap >= 0 ? '+' : ''}${gap.toFixed(3)})${miss ? ' MISS' : ''}`;
    });
    lines.push(`| ${metric.label} | ${cells.join(' | ')} |`);
  }
  lines.push('', misses.length === 0 ? 'Every format within its target of markdown (HTML, Word 0.03; PDF 0.05).' : `Over target (${misses.length}): ${misses.join('; ')}`);
  return `${lines.join('\n')}\n`;
}
