/**
 * What the report's page script (report-charts.ts) reads from the report:
 * the charts as plain data (charts.ts makes them, the HTML embeds them as
 * JSON under CHART_DATA_ID), the rule for drawing bands, and where the
 * typeset answers lie (MATH_DATA_ID).
 */

/**
 * A chart with more lines than this that carry a 95% band draws only the band
 * of the line the pointer is on (the line or its legend entry): six bands at
 * once overlap into one mass.
 */
export const BANDS_ALL_UP_TO = 2;

/** Id of the `<script type="application/json">` element holding the ChartSpec list. */
export const CHART_DATA_ID = 'tmas-chart-data';

/** One dataset: a line (points) or one series of bars (values, one per label). */
export interface DatasetSpec {
  label: string;
  color: string;
  /** Index of the run this dataset belongs to; null when the runs are the chart's labels. */
  run: number | null;
  dashed?: boolean;
  /** [x, y] points of a line. */
  points?: Array<[number, number]>;
  /** Bar values, one per label. */
  values?: number[];
  /** A line's 95% bootstrap interval over problems: [x, low, high], drawn as a shaded band. */
  band?: Array<[number, number, number]>;
}

/** One chart, as the browser script draws it. */
export interface ChartSpec {
  id: string;
  title: string;
  kind: 'line' | 'bar';
  xTitle: string;
  yTitle: string;
  /** Shows y values (x for horizontal bars) as percentages of 1. */
  percent: boolean;
  /** The x axis counts iterations: whole-number ticks. */
  integerX: boolean;
  /** Categories of a bar chart. */
  labels?: string[];
  /** Bars drawn horizontally and stacked (labels are runs). */
  stacked?: boolean;
  /** When the runs are the labels (stacked bars), label i is run i. */
  runsAreLabels?: boolean;
  datasets: DatasetSpec[];
  /** Number of runs the chart should show data for. */
  runs: number;
  /** Why the chart has nothing to draw, shown in its place; absent when it has data. */
  empty?: string;
  /** Shown under the chart: what sets its runs apart from the first group's (charts of runs that do not compare). */
  note?: string;
}

/** Id of the `<script type="application/json">` element holding each answer's typeset HTML by its LaTeX source (math.ts's MathShelf). */
export const MATH_DATA_ID = 'tmas-math';

/** Id of the `<script type="application/json">` element holding each distinct candidate summary the hovers show, once (hover-shelf.ts). */
export const HOVER_DATA_ID = 'tmas-hovers';
