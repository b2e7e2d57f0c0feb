/**
 * A chart of shares per iteration (the run page's curves, the runs page's
 * overlay): iterations on x in whole numbers, a share of 1 on y as a
 * percentage, the legend below. Its lines are set by whoever draws it.
 */
import type { Chart } from 'chart.js';
import { percent } from './dom.ts';
import { chartLibrary } from './globals.ts';

/** A line chart on `canvas` with `yTitle` on its y axis, and `title` above it when given. */
export function iterationChart(canvas: HTMLCanvasElement, yTitle: string, title?: string): Chart<'line'> {
  const Chart = chartLibrary();
  return new Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      scales: {
        x: { type: 'linear', title: { display: true, text: 'iteration' }, ticks: { stepSize: 1, precision: 0 } },
        y: { beginAtZero: true, max: 1, title: { display: true, text: yTitle }, ticks: { callback: (v) => percent(Number(v)) } },
      },
      plugins: title === undefined ? { legend: { position: 'bottom' } } : { legend: { position: 'bottom' }, title: { display: true, text: title } },
    },
  });
}
