/**
 * One problem side by side in several runs, `#/compare/R,S/problem/P` (P the
 * problem's id, URL-encoded): which run each is (and which it was forked
 * from), the first call whose requests differ, where the runs' answers and
 * grades part, then per iteration the candidates and the calls next to their
 * counterparts (compare-rows.ts).
 */
import type { ComparedRun, ProblemComparison } from '../api-shapes.ts';
import { folderApi } from './api.ts';
import { asMath, el, math } from './dom.ts';
import { outcomeText, iterationSection } from './compare-rows.ts';
import { problemHash } from './links.ts';

/** Where a run's own page of the problem is, and what it was forked from when that run is compared too. */
function runLine(comparison: ProblemComparison, run: ComparedRun): HTMLElement {
  const at = comparison.runs.indexOf(run);
  const done = comparison.iterations.filter((it) => it.candidates.some((row) => row.results[at] !== null));
  const last = done.length ? (done[done.length - 1]?.iteration ?? 0) : 0;
  const parent = run.fork && comparison.runs.find((other) => other.index === run.fork?.index);
  return el('li', { 'data-run': String(run.index) }, [
    run.present ? el('a', { href: problemHash(run.index, comparison.problem.id, last), text: run.name }) : `${run.name} (has no problem ${comparison.problem.id})`,
    ` · ${run.strategy}`,
    el('span', { class: 'run-settings', text: ` · ${run.settings}` }),
    parent && run.fork ? el('span', { class: 'fork-of', text: ` · forked from ${parent.name}${run.fork.changed.length ? `, changed: ${run.fork.changed.join('; ')}` : ''}` }) : null,
    run.truncated ? el('span', { class: 'bad-text', text: ' · more calls than the comparison reads: the last are left out' }) : null,
    run.problemDiffers.length ? el('span', { class: 'bad-text problem-differs', text: ` · another problem under this id: its ${run.problemDiffers.join(' and ')} ${run.problemDiffers.length > 1 ? 'differ' : 'differs'} from the one shown` }) : null,
  ]);
}

/** The first call whose requests differ, and where the answers and grades part, each with a way to its row. */
function findings(comparison: ProblemComparison): HTMLElement {
  const { firstDifference: difference, firstParting: parting } = comparison;
  const goTo = (selector: string) => () => document.querySelector(selector)?.scrollIntoView();
  const differs = difference
    ? el('p', { class: 'first-difference-note', 'data-slot': difference.slot }, [`First request that differs: iteration ${difference.iteration}, ${difference.name} `, el('button', { text: 'show', onclick: goTo('tr.call-row.first-difference') })])
    : el('p', { class: 'first-difference-note', text: 'Every call has the same request in every run.' });
  const row = parting && comparison.iterations.find((it) => it.iteration === parting.iteration)?.candidates.find((c) => c.candidate === parting.candidate);
  const parts =
    parting && row
      ? el('p', { class: 'parting-note', 'data-parting': `${parting.iteration}/${parting.candidate}` }, [
          `Answers or grades part at iteration ${parting.iteration}, candidate ${parting.candidate}: `,
          comparison.runs.map((run, i) => `${run.name} ${outcomeText(row.results[i] ?? null)}`).join(' · '),
          ' ',
          el('button', { text: 'show', onclick: goTo('tr.first-parting') }),
        ])
      : el('p', { class: 'parting-note', 'data-parting': '', text: 'Answers and grades agree at every iteration and candidate.' });
  return el('div', { class: 'findings' }, [differs, parts]);
}

/** The page of a problem side by side in the runs the route names. */
export async function comparePage(app: HTMLElement, runs: string, key: string): Promise<void> {
  const comparison = await folderApi<ProblemComparison>('compare', { runs, problem: key });
  const p = comparison.problem;
  app.replaceChildren(
    el('section', { class: 'card problem compare-head' }, [
      el('h1', { text: `problem ${p.id}, side by side` }),
      el(
        'ul',
        { class: 'compared-runs' },
        comparison.runs.map((run) => runLine(comparison, run)),
      ),
      el('div', { class: 'text question', text: p.question }),
      p.answer !== null ? el('p', {}, ['reference answer: ', el('span', { class: 'text', text: asMath(p.answer) })]) : null,
      findings(comparison),
    ]),
    ...comparison.iterations.map((it) => iterationSection(comparison, it)),
  );
  math(app);
}
