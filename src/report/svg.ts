/**
 * Inline SVG charts for the HTML report, drawn here so that the report needs
 * no script and no network: line charts (one line per series) and horizontal
 * stacked bars. Text is escaped; sizes are fixed so charts line up in a grid.
 */

/** One line of a line chart. */
export interface Series {
  name: string;
  color: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

/** Colours of runs, in order; chosen to stay apart for colour-blind readers. */
export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b', '#e377c2'] as const;

/** Escapes text for HTML and SVG. */
export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const WIDTH = 520;
const HEIGHT = 300;
const MARGIN = { left: 56, right: 16, top: 34, bottom: 78 };

/** Round tick values covering [0, max]. */
function ticks(max: number, count = 5): number[] {
  if (max <= 0) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const values: number[] = [];
  for (let v = 0; v <= max + step / 2; v += step) values.push(Number(v.toPrecision(12)));
  return values;
}

/** A short number: 12k, 1.5M. */
export function shortNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toPrecision(3))}k`;
  return String(Number(value.toPrecision(4)));
}

/** Options of a line chart. */
export interface LineChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Fixed y range top (e.g. 1 for shares); else from the data. */
  yMax?: number;
  /** Shows y values as percentages. */
  percent?: boolean;
  /** A tag drawn in the corner, e.g. "simulated". */
  badge?: string;
  /** Names of the x positions 0, 1, …, drawn instead of numbers (categorical x). */
  xTickLabels?: string[];
}

/** A line chart with axes, ticks, a legend and one marker per point. */
export function lineChart(options: LineChartOptions): string {
  const all = options.series.flatMap((s) => s.points);
  const xMin = Math.min(0, ...all.map(([x]) => x));
  const xMaxData = Math.max(1, ...all.map(([x]) => x));
  const yTicks = ticks(options.yMax ?? Math.max(1e-9, ...all.map(([, y]) => y)));
  const yMax = options.yMax ?? (yTicks.at(-1) ?? 1);
  const xTicks = options.xTickLabels ? options.xTickLabels.map((_, i) => i) : Number.isInteger(xMaxData) && xMaxData <= 30 ? Array.from({ length: xMaxData - xMin + 1 }, (_, i) => xMin + i) : ticks(xMaxData);
  const xMax = Math.max(xMaxData, xTicks.at(-1) ?? 1);
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const sx = (x: number) => MARGIN.left + (xMax === xMin ? 0 : ((x - xMin) / (xMax - xMin)) * plotW);
  const sy = (y: number) => MARGIN.top + plotH - (yMax === 0 ? 0 : (y / yMax) * plotH);
  const yText = (y: number) => (options.percent ? `${Math.round(y * 100)}%` : shortNumber(y));
  const parts: string[] = [];
  parts.push(`<text x="${WIDTH / 2}" y="18" text-anchor="middle" class="title">${escapeXml(options.title)}</text>`);
  if (options.badge) {
    parts.push(`<rect x="${WIDTH - 92}" y="4" width="86" height="18" rx="4" class="badge"/><text x="${WIDTH - 49}" y="17" text-anchor="middle" class="badge-text">${escapeXml(options.badge)}</text>`);
  }
  for (const y of yTicks.filter((t) => t <= yMax + 1e-12)) {
    parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${sy(y)}" y2="${sy(y)}" class="grid"/>`);
    parts.push(`<text x="${MARGIN.left - 6}" y="${sy(y) + 4}" text-anchor="end" class="tick">${yText(y)}</text>`);
  }
  for (const x of xTicks) {
    const text = options.xTickLabels?.[x] ?? shortNumber(x);
    parts.push(`<text x="${sx(x)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle" class="tick">${escapeXml(text)}</text>`);
  }
  parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" class="axis"/>`);
  parts.push(`<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${MARGIN.top + plotH}" y2="${MARGIN.top + plotH}" class="axis"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${MARGIN.top + plotH + 34}" text-anchor="middle" class="label">${escapeXml(options.xLabel)}</text>`);
  parts.push(`<text transform="translate(14 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" class="label">${escapeXml(options.yLabel)}</text>`);
  options.series.forEach((series, i) => {
    const points = [...series.points].sort((a, b) => a[0] - b[0]);
    const path = points.map(([x, y], j) => `${j === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ');
    const dash = series.dashed ? ' stroke-dasharray="6 4"' : '';
    parts.push(`<g class="series" data-series="${escapeXml(series.name)}" data-points="${points.length}">`);
    if (points.length > 1) parts.push(`<path d="${path}" fill="none" stroke="${series.color}" stroke-width="2"${dash}/>`);
    for (const [x, y] of points) {
      parts.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${series.color}"><title>${escapeXml(`${series.name}: ${shortNumber(x)}, ${yText(y)}`)}</title></circle>`);
    }
    parts.push('</g>');
    const lx = MARGIN.left + (i % 2) * (plotW / 2);
    const ly = MARGIN.top + plotH + 50 + Math.floor(i / 2) * 14;
    parts.push(`<line x1="${lx}" x2="${lx + 18}" y1="${ly - 4}" y2="${ly - 4}" stroke="${series.color}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${lx + 22}" y="${ly}" class="legend">${escapeXml(series.name)}</text>`);
  });
  if (options.series.every((s) => s.points.length === 0)) {
    parts.push(`<text x="${WIDTH / 2}" y="${HEIGHT / 2}" text-anchor="middle" class="label">no data</text>`);
  }
  const height = HEIGHT + Math.max(0, Math.ceil(options.series.length / 2) - 2) * 14;
  return `<svg viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">${parts.join('')}</svg>`;
}

/** One horizontal stacked bar: a label and its segments. */
export interface StackedBar {
  label: string;
  segments: Array<{ name: string; value: number; color: string }>;
}

/** Horizontal stacked bars sharing one scale, with a legend of segment names. */
export function stackedBars(options: { title: string; bars: StackedBar[]; badge?: string; unit: string }): string {
  const rowH = 26;
  const left = 150;
  const width = WIDTH;
  const names = [...new Map(options.bars.flatMap((b) => b.segments.map((s) => [s.name, s.color] as const))).entries()];
  const legendRows = Math.ceil(names.length / 4);
  const height = 40 + options.bars.length * rowH + 30 + legendRows * 16;
  const max = Math.max(1, ...options.bars.map((b) => b.segments.reduce((sum, s) => sum + s.value, 0)));
  const scale = (v: number) => (v / max) * (width - left - 70);
  const parts: string[] = [`<text x="${width / 2}" y="18" text-anchor="middle" class="title">${escapeXml(options.title)}</text>`];
  if (options.badge) {
    parts.push(`<rect x="${width - 92}" y="4" width="86" height="18" rx="4" class="badge"/><text x="${width - 49}" y="17" text-anchor="middle" class="badge-text">${escapeXml(options.badge)}</text>`);
  }
  options.bars.forEach((bar, i) => {
    const y = 34 + i * rowH;
    parts.push(`<text x="${left - 6}" y="${y + 15}" text-anchor="end" class="tick">${escapeXml(bar.label.length > 22 ? `${bar.label.slice(0, 21)}…` : bar.label)}</text>`);
    let x = left;
    parts.push(`<g class="series" data-series="${escapeXml(bar.label)}" data-points="${bar.segments.filter((s) => s.value > 0).length}">`);
    for (const segment of bar.segments) {
      const w = scale(segment.value);
      parts.push(`<rect x="${x.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 6}" fill="${segment.color}"><title>${escapeXml(`${bar.label} · ${segment.name}: ${shortNumber(segment.value)} ${options.unit}`)}</title></rect>`);
      x += w;
    }
    parts.push('</g>');
    const total = bar.segments.reduce((sum, s) => sum + s.value, 0);
    parts.push(`<text x="${(x + 4).toFixed(1)}" y="${y + 15}" class="tick">${shortNumber(total)}</text>`);
  });
  names.forEach(([name, color], i) => {
    const x = 20 + (i % 4) * ((width - 40) / 4);
    const y = 40 + options.bars.length * rowH + 16 + Math.floor(i / 4) * 16;
    parts.push(`<rect x="${x}" y="${y - 9}" width="10" height="10" fill="${color}"/><text x="${x + 14}" y="${y}" class="legend">${escapeXml(name)}</text>`);
  });
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">${parts.join('')}</svg>`;
}
