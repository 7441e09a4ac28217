/** One bar chart: a group of bars per category, one bar per series. */
export interface BarChart {
  title: string;
  categories: string[];
  series: string[];
  /** values[category][series]; null draws no bar ("n/a"). */
  values: Array<Array<number | null>>;
  /** Top of the y axis (default: the largest value). */
  max?: number;
  format: (value: number) => string;
}

/** Series colours (colour-blind friendly), cycled. */
const COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#b07aa1'];
const BAR = 16;
const GAP = 22;
const HEIGHT = 160;
const LEFT = 64;
const TOP = 28;
const BOTTOM = 40;

/**
 * An inline SVG grouped bar chart (no script, no network). Every bar is a `rect.bar` with a
 * `<title>` tooltip; null values draw "n/a".
 *
 * @example
 * renderBarChart({ title: 'Recall', categories: ['multi_hop'], series: ['classic@5', 'agentic'], values: [[0.6, 0.95]], max: 1, format: String });
 */
export function renderBarChart(chart: BarChart): string {
  const groupWidth = chart.series.length * BAR + GAP;
  const width = LEFT + chart.categories.length * groupWidth + 8;
  const height = TOP + HEIGHT + BOTTOM;
  const largest = Math.max(0, ...chart.values.flat().filter((value): value is number => value !== null));
  const max = chart.max ?? (largest > 0 ? largest : 1);
  const y = (value: number) => TOP + HEIGHT - (Math.min(value, max) / max) * HEIGHT;
  const parts: string[] = [
    `<text x="${LEFT}" y="16" class="chart-title">${escapeHtml(chart.title)}</text>`,
    `<line x1="${LEFT}" y1="${TOP + HEIGHT}" x2="${width - 4}" y2="${TOP + HEIGHT}" class="axis"/>`,
    `<text x="${LEFT - 4}" y="${TOP + 4}" class="tick" text-anchor="end">${escapeHtml(chart.format(max))}</text>`,
    `<text x="${LEFT - 4}" y="${TOP + HEIGHT}" class="tick" text-anchor="end">0</text>`,
  ];
  chart.categories.forEach((category, group) => {
    const left = LEFT + group * groupWidth + GAP / 2;
    chart.series.forEach((series, position) => {
      const value = chart.values[group]?.[position] ?? null;
      const x = left + position * BAR;
      const label = `${category} / ${series}: ${value === null ? 'n/a' : chart.format(value)}`;
      if (value === null) {
        parts.push(`<text x="${x + BAR / 2}" y="${TOP + HEIGHT - 4}" class="na" text-anchor="middle">n/a<title>${escapeHtml(label)}</title></text>`);
        return;
      }
      const top = y(value);
      const color = COLORS[position % COLORS.length];
      parts.push(
        `<rect class="bar" x="${x}" y="${top.toFixed(1)}" width="${BAR - 2}" height="${(TOP + HEIGHT - top).toFixed(1)}" fill="${color}"><title>${escapeHtml(label)}</title></rect>`,
      );
    });
    parts.push(`<text x="${left + (chart.series.length * BAR) / 2}" y="${TOP + HEIGHT + 14}" class="tick" text-anchor="middle">${escapeHtml(category)}</text>`);
  });
  const legend = chart.series
    .map((series, position) => {
      const x = LEFT + position * 110;
      return `<rect x="${x}" y="${height - 14}" width="10" height="10" fill="${COLORS[position % COLORS.length]}"/><text x="${x + 14}" y="${height - 5}" class="tick">${escapeHtml(series)}</text>`;
    })
    .join('');
  const legendWidth = LEFT + chart.series.length * 110;
  return `<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="${Math.max(width, legendWidth)}" height="${height}" role="img" aria-label="${escapeHtml(chart.title)}">${parts.join('')}${legend}</svg>`;
}

/**
 * Escapes text for HTML content and attribute values (document text is untrusted).
 *
 * @example
 * escapeHtml('<script>"x"</script>'); // '&lt;script&gt;&quot;x&quot;&lt;/script&gt;'
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
