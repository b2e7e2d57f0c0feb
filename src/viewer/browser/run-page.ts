/**
 * A run's page, `#/run/R` (and its tabs `calls`, `errors`): its header, its
 * curves, and its problem table, each candidate of the last iteration
 * coloured by its grade.
 */
import type { ProblemPageAnswer, RunSummary } from '../api-shapes.ts';
import { api, knownRun } from './api.ts';
import { asMath, el, math, score } from './dom.ts';
import { forkNote } from './fork-note.ts';
import { problemHash } from './links.ts';
import { drawCurves } from './run-curves.ts';
import { callBrowser, errorBrowser } from './run-tabs.ts';

/** The run's name, strategy, settings, sampling and models; a fork says of which run, and what it changed. */
export function runHeader(run: RunSummary): HTMLElement {
  return el('section', { class: 'run-head' }, [
    el('h1', {}, [el('a', { href: `#/run/${run.index}`, text: run.name }), ' ', el('span', { class: 'tag', text: run.strategy }), run.live ? el('span', { class: 'tag live', text: 'live' }) : null, run.simulated ? el('span', { class: 'tag sim', text: 'simulated model' }) : null]),
    el('p', { class: 'muted', text: `${run.settings} · ${run.sampling}` }),
    // The settings above are the run's last: iterations made before a forced change were made otherwise.
    ...run.forcedChanges.map((change) => el('p', { class: 'caveat forced-change', text: `⚠ ${change}: the iterations before were made under the earlier settings` })),
    el(
      'ul',
      { class: 'models' },
      run.models.map((m) => el('li', { text: m })),
    ),
    forkNote(run),
  ]);
}

const FILTERS: Array<[string, string]> = [
  ['all', 'all problems'],
  ['correct', 'with a correct candidate'],
  ['wrong', 'with a wrong candidate'],
  ['failed', 'with failed calls'],
];

function problemRow(run: RunSummary, row: ProblemPageAnswer['rows'][number]): HTMLElement {
  const last = Math.max(0, row.iterations - 1);
  const cells = el(
    'td',
    { class: 'cands' },
    row.candidates.map((c, i) => {
      const cls = c.correct === true ? 'ok' : c.correct === false ? 'bad' : 'unk';
      const title = `candidate ${i}${c.failures ? `, ${c.failures} failed call(s)` : ''}`;
      return el('a', { class: `cand ${cls}`, href: `${problemHash(run.index, row.id, last)}?c=${i}`, title, text: (c.answer === null ? '∅' : asMath(c.answer)) + (run.hasVerifier ? ` · ${score(c.score)}` : '') });
    }),
  );
  return el('tr', {}, [el('td', {}, [el('a', { href: problemHash(run.index, row.id, last), text: row.id })]), el('td', { text: row.answer === null ? '–' : asMath(row.answer) }), el('td', { text: String(row.iterations) }), cells]);
}

function problemTable(run: RunSummary, container: HTMLElement, total: HTMLElement): Promise<void> {
  const filter = el(
    'select',
    { 'aria-label': 'correctness' },
    FILTERS.map(([value, text]) => el('option', { value, text })),
  );
  const search = el('input', { type: 'search', placeholder: 'problem id', 'aria-label': 'problem id' });
  const table = el('table', { class: 'problems' });
  const more = el('button', { text: 'more problems' });
  container.appendChild(el('div', { class: 'filters' }, [filter, search]));
  container.appendChild(table);
  container.appendChild(more);
  let next: number | null = 0;
  const load = async (reset: boolean): Promise<void> => {
    if (reset) {
      next = 0;
      table.replaceChildren(el('tr', {}, ['problem', 'answer', 'iterations', 'last iteration: candidates (answer · score)'].map((h) => el('th', { text: h }))));
    }
    const page = await api<ProblemPageAnswer>(`/${run.index}/problems`, { from: next, limit: 50, filter: filter.value, search: search.value });
    for (const row of page.rows) table.appendChild(problemRow(run, row));
    math(table);
    next = page.next;
    more.hidden = next === null;
    total.textContent = `${page.total} problems`;
  };
  filter.onchange = () => load(true);
  search.oninput = () => load(true);
  more.onclick = () => load(false);
  return load(true);
}

/** The page of run `index` at its tab (`problems`, `calls`, `errors`); `query` fills the calls tab's filters. */
export function showRun(app: HTMLElement, index: number, tab: string, query: Record<string, string>): Promise<unknown> {
  const run = knownRun(index);
  if (!run) {
    app.textContent = `No run ${index}`;
    return Promise.resolve();
  }
  app.replaceChildren();
  app.appendChild(runHeader(run));
  const curves = el('section', { class: 'card' });
  app.appendChild(curves);
  const total = el('span', { class: 'muted' });
  const tabLink = (name: string, href: string) => el('a', { href, class: tab === name ? 'on' : '', text: name });
  app.appendChild(
    el('nav', { class: 'tabs' }, [
      tabLink('problems', `#/run/${index}`),
      total,
      tabLink('calls', `#/run/${index}/calls`),
      tabLink('errors', `#/run/${index}/errors`),
      el('a', { href: `#/problems?runs=${index}`, text: 'sortable problem list' }),
    ]),
  );
  const body = el('section', { class: 'card' });
  app.appendChild(body);
  const work = tab === 'calls' ? callBrowser(run, body, query) : tab === 'errors' ? errorBrowser(run, body) : problemTable(run, body, total);
  return Promise.all([drawCurves(curves, run), work]);
}
