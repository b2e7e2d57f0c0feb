/**
 * The runs page, at #/ and #/?runs=R,S: every run found under the folders
 * given, with strategy, models, N/M/T, grading, final Pass@1, calls and
 * status; the runs selected (their indexes in the URL) have their Pass@1
 * curves overlaid, with the report's caveats when they do not compare.
 */
import type { Overlay, RunListing, RunsAnswer } from '../api-shapes.ts';
import { folderApi } from './api.ts';
import { el, percent } from './dom.ts';
import { probe } from './globals.ts';
import { iterationChart } from './iteration-chart.ts';
import { hashOf, selection } from './links.ts';
import { onLeave } from './page-life.ts';

const COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#b07aa1', '#76b7b2', '#edc948', '#9c755f', '#ff9da7', '#bab0ac'];

function statusCell(run: RunListing): HTMLElement {
  if (run.error) return el('td', { class: 'status error' }, [el('b', { text: run.error.code })]);
  return el('td', { class: 'status' }, [el('span', { class: `tag ${run.status}`, text: run.status })]);
}

function gradingText(run: RunListing): string {
  if (run.grading === null) return '–';
  return run.grading + (run.proof === null ? '' : run.proof ? ' · proof' : ' · answer');
}

function count(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : String(v);
}

function runRow(run: RunListing, chosen: number[], toggle: (index: number, on: boolean) => void): HTMLElement {
  const box = el('input', { type: 'checkbox', 'aria-label': `select ${run.label}`, 'data-run': String(run.index) });
  box.checked = chosen.indexOf(run.index) >= 0;
  box.disabled = run.error !== null;
  box.onchange = () => toggle(run.index, box.checked);
  const forced = run.forcedChanges.map((change) => el('div', { class: 'muted small forced-change', text: `⚠ ${change}` }));
  const name = el('td', {}, [run.error ? run.label : el('a', { href: `#/run/${run.index}`, text: run.label }), ...forced]);
  // A run that cannot be read says why across the columns it has no figures for.
  if (run.error) return el('tr', { 'data-run': String(run.index), class: 'unreadable' }, [el('td', {}, [box]), name, el('td', { colspan: '6', class: 'error-text', text: run.error.message }), statusCell(run)]);
  return el('tr', { 'data-run': String(run.index) }, [
    el('td', {}, [box]),
    name,
    el('td', { class: 'strategy', text: run.strategy || '–' }),
    el('td', { text: run.models.join(', ') || '–' }),
    el('td', { text: run.n === null ? '–' : `N=${run.n} M=${run.m} T=${run.t}` }),
    el('td', { text: gradingText(run) }),
    el('td', { class: 'pass1', text: percent(run.pass1) + (run.t !== null && run.iterations < run.t ? ` (${run.iterations} of ${run.t} iterations)` : '') }),
    el('td', { text: count(run.calls) }),
    statusCell(run),
  ]);
}

/** The overlay's caveats: the groups when the runs do not all compare, and what each run changes from the first. */
function caveats(overlay: Overlay, first: string | null): HTMLElement[] {
  const notes: HTMLElement[] = [];
  if (overlay.groups.length > 1) {
    notes.push(el('p', { class: 'caveat', text: `These runs do not all compare: their Pass@1 were graded otherwise, or over different problems or T. Dashed lines are outside group ${first}.` }));
    for (const g of overlay.groups) notes.push(el('p', { class: 'muted small', text: `group ${g.name} (${g.label})${g.differences.length ? `: ${g.differences.join('; ')}` : ''}` }));
  }
  for (const run of overlay.runs) if (run.differs.length) notes.push(el('p', { class: 'muted small differs', text: `${run.label} differs from ${overlay.runs[0]?.label} in ${run.differs.join('; ')}` }));
  return notes;
}

/**
 * The overlay: one Pass@1 line per run selected; runs outside the first comparison group dashed, and the caveat said.
 * Returns its update, which reads the overlay again (while a run is live).
 */
function drawOverlay(container: HTMLElement, chosen: number[]): () => Promise<Overlay> {
  const canvas = el('canvas', { id: 'overlay' });
  const notes = el('div', { class: 'caveats' });
  container.replaceChildren(
    el('h2', { text: 'Pass@1 of the runs selected' }),
    el('div', { class: 'chart' }, [canvas]),
    notes,
    el('p', {}, [el('a', { href: hashOf('problems', { runs: chosen.join(',') }), class: 'to-problems', text: 'problem list of the runs selected →' })]),
  );
  const chart = iterationChart(canvas, 'Pass@1');
  onLeave(() => chart.destroy());
  return async () => {
    const overlay = await folderApi<Overlay>('overlay', { runs: chosen.join(',') });
    const first = overlay.groups.length ? (overlay.groups[0]?.name ?? null) : null;
    chart.data.datasets = overlay.runs.map((run, i) => {
      const color = COLORS[i % COLORS.length];
      return {
        label: `${run.label} · ${run.strategy || '?'}${overlay.groups.length > 1 ? ` [${run.group}]` : ''}${run.live ? ' · live' : ''}`,
        borderColor: color,
        backgroundColor: color,
        fill: false,
        borderDash: run.group === first ? [] : [6, 4],
        data: run.points.flatMap((p) => (p.pass1 === null ? [] : [{ x: p.iteration, y: p.pass1 }])),
      };
    });
    chart.update();
    probe.overlay = chart.data.datasets.map((d) => d.data.length);
    notes.replaceChildren(...caveats(overlay, first));
    return overlay;
  };
}

/** The page of the runs; a folder of one readable run opens that run. */
export async function runsPage(app: HTMLElement, query: Record<string, string>): Promise<unknown> {
  const chosen = selection(query);
  const folder = await folderApi<RunsAnswer>('runs');
  const readable = folder.runs.filter((r) => r.error === null);
  if (folder.runs.length === 1 && readable.length === 1 && !query.runs) {
    location.hash = '#/run/0';
    return;
  }
  const toggle = (index: number, on: boolean) => {
    const next = chosen.filter((i) => i !== index);
    if (on) next.push(index);
    location.hash = hashOf('', { runs: next.sort((a, b) => a - b).join(',') });
  };
  const table = el('table', { class: 'runs' });
  const head = el(
    'tr',
    {},
    ['', 'run', 'strategy', 'model', 'N / M / T', 'grading', 'final Pass@1', 'calls', 'status'].map((h) => el('th', { text: h })),
  );
  const fill = (list: RunsAnswer) => table.replaceChildren(head, ...list.runs.map((run) => runRow(run, chosen, toggle)));
  fill(folder);
  app.replaceChildren(
    el('section', { class: 'card' }, [
      el('h1', { text: `${folder.runs.length} runs` }),
      folder.truncated ? el('p', { class: 'caveat', text: `Not every run is listed: ${folder.truncated}.` }) : null,
      table,
      chosen.length ? null : el('p', { class: 'muted', text: 'Select runs to overlay their Pass@1 curves and list their problems side by side.' }),
    ]),
  );
  let update: (() => Promise<Overlay>) | null = null;
  if (chosen.length) {
    const overlay = el('section', { class: 'card overlay' });
    app.appendChild(overlay);
    update = drawOverlay(overlay, chosen);
  }
  // While a run is live, its row (and the overlay) are read again every two seconds.
  if (folder.live) {
    const timer = setInterval(() => {
      folderApi<RunsAnswer>('runs')
        .then((list) => {
          fill(list);
          if (update) update().catch(() => {});
          if (!list.live) clearInterval(timer);
        })
        .catch(() => {});
    }, 2000);
    onLeave(() => clearInterval(timer));
  }
  return update ? update() : null;
}
