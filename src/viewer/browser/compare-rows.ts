/**
 * The tables of one iteration side by side: each candidate's answer and grade
 * next to its counterparts, and each call next to its counterparts, marked the
 * same request or not. A call's row opens onto the calls' texts, fetched then.
 */
import type { CallDownload, CallRow, CandidateRow, ComparedIteration, ComparedRun, ProblemComparison } from '../api-shapes.ts';
import { getJson } from './api.ts';
import { asMath, el, math } from './dom.ts';
import { callHref } from './links.ts';
import { callView } from './transcript.ts';

/** An answer and its grade: `$12$ ✓`, `(none) ✗`. */
export function outcomeText(result: CandidateRow['results'][number]): string {
  if (result === null) return '–';
  const grade = result.correct === true ? ' ✓' : result.correct === false ? ' ✗' : '';
  return (result.answer === null ? '(none)' : asMath(result.answer)) + grade;
}

function candidateTable(runs: ComparedRun[], rows: CandidateRow[], parting: ProblemComparison['firstParting']): HTMLElement {
  const head = el('tr', {}, [el('th', { text: 'candidate' }), ...runs.map((run) => el('th', { text: run.name }))]);
  const body = rows.map((row) => {
    const first = parting !== null && parting.iteration === row.iteration && parting.candidate === row.candidate;
    return el('tr', { class: `${row.parts ? 'parts' : 'agrees'}${first ? ' first-parting' : ''}`, 'data-candidate': String(row.candidate) }, [
      el('td', {}, [`candidate ${row.candidate}`, first ? el('span', { class: 'tag mark', text: 'answers part here' }) : null]),
      ...row.results.map((result) => el('td', { class: result === null ? 'muted' : result.correct === true ? 'ok' : result.correct === false ? 'bad' : 'unk', text: outcomeText(result) })),
    ]);
  });
  return el('table', { class: 'compare-candidates' }, [head, ...body]);
}

/** What a row says of its calls: the same request everywhere, which runs lack the call, or that the requests differ. */
function verdict(runs: ComparedRun[], row: CallRow): string {
  if (row.same) return 'identical';
  const missing = runs.filter((_, i) => row.calls[i] === null).map((run) => run.name);
  return missing.length ? `not in ${missing.join(', ')}` : 'requests differ';
}

/** Opens (or closes) the row's calls, side by side, under it. */
async function toggleTexts(runs: ComparedRun[], row: CallRow, tr: HTMLElement): Promise<void> {
  const next = tr.nextElementSibling;
  if (next && next.classList.contains('call-texts')) {
    next.remove();
    return;
  }
  const grid = el('div', { class: 'side-by-side' }, [el('p', { class: 'muted', text: 'Loading the calls…' })]);
  grid.style.setProperty('--runs', String(runs.length));
  tr.after(el('tr', { class: 'call-texts', 'data-slot': row.slot }, [el('td', { colspan: String(runs.length + 1) }, [grid])]));
  let downloads: Array<CallDownload | null>;
  try {
    downloads = await Promise.all(row.calls.map((call, i) => (call === null ? null : getJson<CallDownload>(callHref(runs[i]?.index ?? -1, call.key)))));
  } catch (error) {
    // Said where the calls were to be, not left "Loading…": closing the row and opening it again asks again.
    grid.replaceChildren(el('p', { class: 'bad-text', text: `could not load the calls (close and open the row to try again): ${String(error)}` }));
    return;
  }
  grid.replaceChildren(...downloads.map((download, i) => el('div', { class: 'side' }, [el('h4', { text: runs[i]?.name ?? '' }), download ? callView(runs[i]?.index ?? -1, download.call, { open: true }) : el('p', { class: 'muted', text: 'No such call in this run.' })])));
  math(grid);
}

function callTable(runs: ComparedRun[], rows: CallRow[], difference: ProblemComparison['firstDifference']): HTMLElement {
  const head = el('tr', {}, [el('th', { text: 'call' }), ...runs.map((run) => el('th', { text: run.name }))]);
  const body = rows.map((row) => {
    const first = difference !== null && difference.slot === row.slot;
    const open = el('button', { class: 'open-texts', title: 'the calls\' prompts and responses side by side', text: '▸' });
    const tr = el('tr', { class: `call-row ${row.same ? 'same' : 'differs'}${first ? ' first-difference' : ''}`, 'data-slot': row.slot, 'data-role': row.role, 'data-iteration': String(row.iteration) }, [
      el('td', {}, [open, ' ', row.name, ' ', el('span', { class: 'verdict', text: verdict(runs, row) }), first ? el('span', { class: 'tag mark', text: 'first difference' }) : null]),
      ...row.calls.map((call) => el('td', { class: 'digest', text: call === null ? '–' : `${call.digest.slice(0, 10)}${call.tokens === null ? '' : ` · ${call.tokens} tokens`}`, title: call?.key })),
    ]);
    open.onclick = () => toggleTexts(runs, row, tr);
    return tr;
  });
  return el('table', { class: 'compare-calls' }, [head, ...body]);
}

/** One iteration: its candidates, then its calls. */
export function iterationSection(comparison: ProblemComparison, it: ComparedIteration): HTMLElement {
  const same = it.calls.filter((row) => row.same).length;
  return el('section', { class: 'card compare-iteration', 'data-iteration': String(it.iteration) }, [
    el('h2', { text: `iteration ${it.iteration}: ${same} of ${it.calls.length} calls the same in every run` }),
    it.candidates.length ? candidateTable(comparison.runs, it.candidates, comparison.firstParting) : el('p', { class: 'muted', text: 'No run completed this iteration.' }),
    callTable(comparison.runs, it.calls, comparison.firstDifference),
  ]);
}
