/**
 * A run's curves: one line per figure that means something for its strategy,
 * read again every second while the run is live.
 */
import type { CurvesAnswer, RunSummary } from '../api-shapes.ts';
import { api } from './api.ts';
import { el } from './dom.ts';
import { probe } from './globals.ts';
import { iterationChart } from './iteration-chart.ts';
import { onLeave } from './page-life.ts';

type Figure = 'pass1' | 'majority' | 'bestVerified' | 'oracle';

const SERIES: Array<{ key: Figure; label: string; color: string; verifier?: boolean }> = [
  { key: 'pass1', label: 'Pass@1', color: '#4e79a7' },
  { key: 'majority', label: 'majority vote', color: '#f28e2b' },
  { key: 'bestVerified', label: 'best-verified', color: '#59a14f', verifier: true },
  { key: 'oracle', label: 'pass@N', color: '#b07aa1' },
];

function curveData(run: RunSummary, iterations: CurvesAnswer['iterations']) {
  return SERIES.filter((s) => !s.verifier || run.hasVerifier).map((s) => ({
    label: s.label,
    borderColor: s.color,
    backgroundColor: s.color,
    fill: false,
    data: iterations.flatMap((it) => {
      const y = it[s.key];
      return y === null || y === undefined ? [] : [{ x: it.iteration, y }];
    }),
  }));
}

function noteOf(curves: CurvesAnswer): string {
  const graded = curves.iterations.some((it) => it.graded > 0);
  if (curves.iterations.length === 0) return curves.live ? 'No iteration has completed yet: the curves appear when the first one does.' : 'No iteration completed in this run.';
  return graded ? '' : 'No curve: no problem could be graded (no reference answers, or a proof run without reference solutions).';
}

function titleOf(run: RunSummary, live: boolean): string {
  return `${run.name} · ${run.strategy}${live ? ' · live' : ''}`;
}

/** Draws the run's curves into `container`; while the run is live they are read again every second, until the page is left. */
export async function drawCurves(container: HTMLElement, run: RunSummary): Promise<void> {
  const canvas = el('canvas', { id: `curves-${run.index}` });
  const note = el('p', { class: 'muted note' });
  container.appendChild(el('div', { class: 'chart' }, [canvas]));
  container.appendChild(note);
  const chart = iterationChart(canvas, run.simulated ? 'share correct (simulated model)' : 'share correct', titleOf(run, run.live));
  let poller: ReturnType<typeof setInterval> | null = null;
  let left = false;
  onLeave(() => {
    left = true;
    chart.destroy();
    if (poller !== null) clearInterval(poller);
    poller = null;
  });
  const update = async (): Promise<CurvesAnswer> => {
    const curves = await api<CurvesAnswer>(`/${run.index}/curves`);
    chart.data.datasets = curveData(run, curves.iterations);
    const title = chart.options.plugins?.title;
    if (title) title.text = titleOf(run, curves.live);
    chart.update();
    probe.points[run.index] = chart.data.datasets[0]?.data.length ?? 0;
    note.textContent = noteOf(curves);
    if (!curves.live && poller !== null) {
      clearInterval(poller);
      poller = null;
    }
    return curves;
  };
  const curves = await update();
  // A page left while its first read was on its way starts no timer.
  if (curves.live && poller === null && !left) poller = setInterval(() => update().catch(() => {}), 1000);
}
