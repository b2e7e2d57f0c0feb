/**
 * What the page has besides this bundle: Chart.js and KaTeX's auto-render,
 * loaded by <script> elements of their own before it (page.ts), and the probe
 * the browser tests read. Reached through here, so that no module of the
 * bundle declares globals for the whole program.
 */
import type { Chart } from 'chart.js';

/** What the browser tests read: points drawn per run on its curves, lines of the overlay, math elements typeset. */
export interface ViewProbe {
  points: Record<number, number>;
  rendered: number;
  overlay?: number[];
}

/** KaTeX's auto-render: typesets the math delimited in a node's texts. */
type RenderMath = (node: HTMLElement, options: Record<string, unknown>) => void;

interface PageGlobals {
  Chart: typeof Chart;
  renderMathInElement?: RenderMath;
  __tmasView: ViewProbe;
}

const page = window as unknown as PageGlobals;

/** The probe, made when the bundle starts. */
export const probe: ViewProbe = (page.__tmasView = { points: {}, rendered: 0 });

/** Chart.js's constructor (its UMD bundle, every chart type registered). */
export function chartLibrary(): typeof Chart {
  return page.Chart;
}

/** KaTeX's auto-render, when it loaded. */
export function mathRenderer(): RenderMath | undefined {
  return page.renderMathInElement;
}
