/**
 * The report's page script, inlined after Chart.js and the chart data
 * (html.ts): it draws every ChartSpec (charts.ts) with Chart.js, records per
 * chart how many points it drew for each run in `window.__tmasCharts` (what
 * the browser test reads), draws one band at a time where many lines carry
 * one, opens the problem details a link points to, and puts the typeset
 * answers in place (report-math.ts). Bundled into one
 * script (src/report/browser-bundle.mjs): it runs in the reader's browser,
 * not in Node.
 */
import type { ActiveElement, Chart, ChartConfiguration, ChartData, ChartEvent, LegendElement, LegendItem, TooltipItem } from 'chart.js';
import { BANDS_ALL_UP_TO, CHART_DATA_ID, type ChartSpec } from './chart-spec.ts';
import { typesetAnswers } from './report-math.ts';
import { showHovers } from './report-hovers.ts';

/** A dataset as given to Chart.js, with the run it belongs to; band edges and their shade are marked. */
interface DrawnDataset {
  label: string;
  data: unknown[];
  tmasRun: number | null;
  tmasBand?: boolean;
  tmasShade?: string;
  backgroundColor?: string;
  [option: string]: unknown;
}

/** What the browser test reads of a chart. bandFocus: the run whose band alone is drawn (null: none yet); absent where every band is drawn. */
interface DrawnChart {
  id: string;
  title?: unknown;
  type?: string;
  datasets?: number;
  bands?: number;
  pointsPerRun?: number[];
  empty?: string;
  bandFocus?: number | null;
}

const page = window as unknown as { Chart: typeof Chart; __tmasCharts: DrawnChart[] };

/** Runs with equal figures draw on top of each other (the first run on top): later runs get wider lines and larger markers of their own shape, so each stays visible. */
const MARKERS = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'];

function percent(v: number): string {
  return `${Math.round(v * 1000) / 10}%`;
}

function short(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${Number((v / 1e6).toPrecision(3))}M`;
  if (a >= 1e4) return `${Number((v / 1e3).toPrecision(3))}k`;
  return String(Number(Number(v).toPrecision(4)));
}

function axis(title: string, extra: Record<string, unknown>): Record<string, unknown> {
  return { title: { display: true, text: title }, ...extra };
}

function datasetsOf(chart: Chart): DrawnDataset[] {
  return chart.data.datasets as unknown as DrawnDataset[];
}

function pointsPerRun(chart: Chart, spec: ChartSpec): number[] {
  const counts = new Array<number>(spec.runs).fill(0);
  datasetsOf(chart).forEach((ds, i) => {
    const meta = chart.getDatasetMeta(i);
    if (meta.hidden || ds.tmasBand) return;
    meta.data.forEach((element, j) => {
      if (!Number.isFinite(element.x) || !Number.isFinite(element.y)) return;
      if (spec.kind === 'bar' && !((ds.data[j] as number) > 0)) return;
      const run = spec.runsAreLabels ? j : ds.tmasRun;
      if (run !== null && run >= 0 && run < counts.length) counts[run] = (counts[run] ?? 0) + 1;
    });
  });
  return counts;
}

/** Nothing to draw: say why in the chart's place instead of an empty frame. */
function emptyChart(canvas: HTMLElement, spec: ChartSpec & { empty: string }): DrawnChart {
  const box = canvas.parentNode as HTMLElement;
  box.style.height = 'auto';
  const why = document.createElement('p');
  why.className = 'empty-chart';
  const title = document.createElement('b');
  title.textContent = spec.title;
  why.appendChild(title);
  why.appendChild(document.createElement('br'));
  why.appendChild(document.createTextNode(spec.empty));
  box.replaceChildren(why);
  return { id: spec.id, title: spec.title, type: spec.kind, datasets: 0, pointsPerRun: new Array<number>(spec.runs).fill(0), empty: spec.empty };
}

/** Each line or series, and for a line with a 95% interval its band: a lower edge, and an upper edge filled down to it. */
function datasetsFor(spec: ChartSpec, focusOnly: boolean): DrawnDataset[] {
  const datasets: DrawnDataset[] = [];
  for (const d of spec.datasets) {
    const ds: DrawnDataset = { label: d.label, borderColor: d.color, backgroundColor: d.color, tmasRun: d.run, data: [] };
    if (spec.kind === 'line') {
      const rank = Math.min(d.run || 0, 3);
      Object.assign(ds, { data: (d.points ?? []).map((p) => ({ x: p[0], y: p[1] })), borderDash: d.dashed ? [6, 4] : [], borderWidth: 2 + 2 * rank, pointStyle: MARKERS[(d.run || 0) % MARKERS.length], pointRadius: 4 + 2 * rank, fill: false });
    } else {
      ds.data = d.values ?? [];
    }
    datasets.push(ds);
    if (d.band) {
      const edge = { borderWidth: 0, pointRadius: 0, pointHitRadius: 0, tmasBand: true, tmasRun: d.run, label: `${d.label} (95% interval)` };
      datasets.push({ ...edge, data: d.band.map((b) => ({ x: b[0], y: b[1] })), fill: false });
      const shade = `${d.color}2e`;
      datasets.push({ ...edge, data: d.band.map((b) => ({ x: b[0], y: b[2] })), fill: '-1', tmasShade: shade, backgroundColor: focusOnly ? 'transparent' : shade });
    }
  }
  return datasets;
}

function scalesFor(spec: ChartSpec, horizontal: boolean, format: (v: number) => string): Record<string, unknown> {
  const tick = { callback: (v: number | string) => format(Number(v)) };
  if (spec.kind === 'line') {
    return {
      x: axis(spec.xTitle, { type: 'linear', ticks: spec.integerX ? { stepSize: 1, precision: 0 } : { callback: (v: number | string) => short(Number(v)) } }),
      y: axis(spec.yTitle, { beginAtZero: true, max: spec.percent ? 1 : undefined, ticks: tick }),
    };
  }
  if (horizontal) return { x: axis(spec.xTitle, { stacked: true, beginAtZero: true, ticks: tick }), y: axis(spec.yTitle, { stacked: true }) };
  return { x: axis(spec.xTitle, {}), y: axis(spec.yTitle, { beginAtZero: true, max: spec.percent ? 1 : undefined, ticks: tick }) };
}

/** Draws one chart; where many lines carry a band, only the band of the run under the pointer is shaded. */
function drawChart(canvas: HTMLCanvasElement, spec: ChartSpec): DrawnChart {
  const horizontal = spec.kind === 'bar' && spec.stacked === true;
  const format = spec.percent ? percent : short;
  const focusOnly = spec.datasets.filter((d) => d.band).length > BANDS_ALL_UP_TO;
  const entry: DrawnChart = { id: spec.id };
  // Shows the band of one run (null: none) where a chart draws bands one at a time.
  const focus = (chart: Chart, run: number | null) => {
    if (!focusOnly || entry.bandFocus === run) return;
    entry.bandFocus = run;
    for (const ds of datasetsOf(chart)) if (ds.tmasShade) ds.backgroundColor = ds.tmasRun === run ? ds.tmasShade : 'transparent';
    chart.update('none');
  };
  const runAt = (event: ChartEvent, chart: Chart): number | null => {
    if (event.type === 'mouseout') return null;
    const hit = chart.getElementsAtEventForMode(event as unknown as Event, 'nearest', { intersect: false }, false)[0];
    return hit ? (datasetsOf(chart)[hit.datasetIndex]?.tmasRun ?? null) : null;
  };
  const runOf = (chart: Chart, item: LegendItem) => datasetsOf(chart)[item.datasetIndex ?? -1]?.tmasRun ?? null;
  const config = {
    type: spec.kind,
    data: { labels: spec.labels, datasets: datasetsFor(spec, focusOnly) },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      indexAxis: horizontal ? 'y' : 'x',
      scales: scalesFor(spec, horizontal, format),
      onHover: (event: ChartEvent, _elements: ActiveElement[], chart: Chart) => focus(chart, runAt(event, chart)),
      plugins: {
        title: { display: true, text: spec.title, font: { size: 14 } },
        legend: {
          position: 'bottom',
          labels: { boxWidth: 18, filter: (item: LegendItem, data: ChartData) => !(data.datasets[item.datasetIndex ?? -1] as unknown as DrawnDataset | undefined)?.tmasBand },
          onHover: (_event: ChartEvent, item: LegendItem, legend: LegendElement<'line'>) => focus(legend.chart, runOf(legend.chart, item)),
          onLeave: (_event: ChartEvent, _item: LegendItem, legend: LegendElement<'line'>) => focus(legend.chart, null),
        },
        tooltip: {
          filter: (item: TooltipItem<'line'>) => !(item.dataset as unknown as DrawnDataset).tmasBand,
          callbacks: { label: (ctx: TooltipItem<'line'>) => `${ctx.dataset.label}: ${format((horizontal ? ctx.parsed.x : ctx.parsed.y) as number)}` },
        },
      },
    },
  };
  const chart = new page.Chart(canvas, config as unknown as ChartConfiguration);
  const lines = datasetsOf(chart).filter((ds) => !ds.tmasBand).length;
  const facts = { title: chart.options.plugins?.title?.text, type: (chart.config as { type?: string }).type, datasets: lines, bands: chart.data.datasets.length - lines, pointsPerRun: pointsPerRun(chart, spec) };
  return Object.assign(entry, facts, focusOnly ? { bandFocus: entry.bandFocus === undefined ? null : entry.bandFocus } : {});
}

/** Browsers open a closed <details> around a link's target only in some versions: open it here, and its ancestors. */
function openTarget(): void {
  const id = decodeURIComponent(location.hash.slice(1));
  const target = id ? document.getElementById(id) : null;
  if (!target) return;
  for (let d = target.closest('details'); d; d = d.parentElement ? d.parentElement.closest('details') : null) d.open = true;
  target.scrollIntoView();
}

// Before the charts: a chart that fails to draw leaves the answers typeset.
typesetAnswers();
showHovers();
const specs = JSON.parse(document.getElementById(CHART_DATA_ID)?.textContent ?? '[]') as ChartSpec[];
page.__tmasCharts = specs.map((spec) => {
  const canvas = document.getElementById(`chart-${spec.id}`) as HTMLCanvasElement;
  return spec.empty ? emptyChart(canvas, { ...spec, empty: spec.empty }) : drawChart(canvas, spec);
});
window.addEventListener('hashchange', openTarget);
openTarget();
