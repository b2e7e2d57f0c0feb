/**
 * The problem list, at #/problems?runs=R,S&…: per problem across the runs
 * selected, final Pass@1, changes between iterations, judge ≠ rule,
 * disagreement between the runs, tokens and failed calls, and a link that
 * opens the problem side by side in the runs that have it. A column header
 * sorts; the filters and the sort live in the URL, so a reload, a problem's
 * page (its link carries the list) and Back keep them.
 */
import type { ProblemListAnswer, ProblemListRow, RunProblemStats, RunsAnswer } from '../api-shapes.ts';
import { folderApi, type Params } from './api.ts';
import { asMath, el, math, percent } from './dom.ts';
import { compareHash, hashOf, problemHash, selection } from './links.ts';

const COLUMNS = [
  { key: 'id', label: 'problem' },
  { key: 'pass1', label: 'Pass@1', title: 'final Pass@1, mean over the runs' },
  { key: 'changes', label: 'changes', title: 'iterations whose majority answer or Pass@1 differs from the one before, over the runs' },
  { key: 'judgeRule', label: 'judge ≠ rule', title: 'candidates the judge and the rule-based grader grade differently' },
  { key: 'disagreement', label: 'disagreement', title: 'highest minus lowest final Pass@1 among the runs' },
  { key: 'tokens', label: 'tokens', title: 'prompt and completion tokens of every call of the problem' },
  { key: 'failures', label: 'failed calls', title: 'calls behind its candidates that failed for good' },
];
const FLAGS = [
  { key: 'changed', label: 'answer or grade changed' },
  { key: 'judge', label: 'judge ≠ rule' },
  { key: 'disagree', label: 'runs disagree' },
  { key: 'failed', label: 'failed calls' },
];
/** The query's keys the server reads. */
const LIST_PARAMS = ['sort', 'desc', 'pass', 'changed', 'judge', 'disagree', 'failed', 'tokens', 'q'];

type Query = Record<string, string>;
type Change = Record<string, string | boolean>;

function number(v: number | null | undefined): string {
  return v === null || v === undefined ? '–' : Number(v).toLocaleString('en');
}

/** The filters bar: each change writes the URL, and the page is drawn again from it. */
function filterBar(query: Query, go: (change: Change) => void): HTMLElement {
  const choices = [
    ['', 'any Pass@1'],
    ['zero', 'Pass@1 = 0'],
    ['partial', '0 < Pass@1 < 1'],
    ['full', 'Pass@1 = 1'],
  ];
  const pass = el(
    'select',
    { 'aria-label': 'Pass@1', name: 'pass' },
    choices.map(([value, text]) => el('option', { value, text })),
  );
  pass.value = query.pass || '';
  pass.onchange = () => go({ pass: pass.value });
  const flags = FLAGS.map((f) => {
    const box = el('input', { type: 'checkbox', name: f.key });
    box.checked = query[f.key] === '1';
    box.onchange = () => go({ [f.key]: box.checked });
    return el('label', {}, [box, ` ${f.label}`]);
  });
  const tokens = el('input', { type: 'number', min: '0', name: 'tokens', placeholder: 'tokens at least', value: query.tokens || '' });
  tokens.onchange = () => go({ tokens: tokens.value });
  const search = el('input', { type: 'search', name: 'q', placeholder: 'problem id', value: query.q || '' });
  search.onchange = () => go({ q: search.value });
  return el('div', { class: 'filters' }, [pass, ...flags, tokens, search]);
}

function header(query: Query, labels: string[], go: (change: Change) => void): HTMLElement {
  const cells = COLUMNS.map((c) => {
    const on = (query.sort || 'id') === c.key;
    const desc = query.desc === '1';
    const th = el('th', { class: `sortable${on ? ' on' : ''}`, 'data-sort': c.key, title: c.title, 'aria-sort': on ? (desc ? 'descending' : 'ascending') : 'none' }, [c.label + (on ? (desc ? ' ▼' : ' ▲') : '')]);
    // The first click on a column sorts the largest first (problem ids: in order); the next reverses it.
    th.onclick = () => go({ sort: c.key, desc: on ? !desc : c.key !== 'id' });
    return th;
  });
  const side = labels.length > 1 ? [el('th', { class: 'compare-col', text: 'side by side' })] : [];
  return el('tr', {}, [...cells, ...labels.map((label) => el('th', { class: 'run-col', text: label })), ...side]);
}

/** The problem's page in a run that has it; its URL carries this list, which the header links back to. */
function problemHref(s: RunProblemStats, run: number): string {
  const last = Math.max(0, s.iterations - 1);
  return `${problemHash(run, s.problem, last)}?list=${encodeURIComponent(location.hash.slice(1))}`;
}

/** The link that opens the problem side by side in the runs that have it: when two or more do. */
function compareCell(r: ProblemListRow, selected: number[]): HTMLTableCellElement {
  const having = selected.filter((_, i) => r.runs[i]);
  return el('td', { class: 'compare' }, [having.length > 1 ? el('a', { class: 'compare', href: compareHash(having, r.id), title: 'its calls, answers and grades side by side', text: 'compare' }) : '–']);
}

function row(r: ProblemListRow, selected: number[], labels: string[]): HTMLElement {
  const firstAt = r.runs.findIndex(Boolean);
  const first = r.runs[firstAt];
  const cells = [
    el('td', { class: 'id' }, [first && selected[firstAt] !== undefined ? el('a', { href: problemHref(first, selected[firstAt]), text: r.id }) : r.id]),
    el('td', { class: 'pass1', text: percent(r.pass1) }),
    el('td', { text: String(r.changes) }),
    el('td', { text: String(r.judgeRule) }),
    el('td', { text: r.disagreement === null ? '–' : percent(r.disagreement) }),
    el('td', { class: 'tokens', text: number(r.tokens) }),
    el('td', { text: String(r.failures) }),
  ];
  r.runs.forEach((s, i) => {
    const run = selected[i];
    if (s === null || run === undefined) {
      cells.push(el('td', { class: 'muted', text: '–' }));
      return;
    }
    const other = r.otherProblem[i] ?? [];
    const link = el('a', { href: problemHref(s, run), title: labels[i], text: percent(s.pass1) + (s.answer === null ? '' : ` · ${asMath(s.answer)}`) });
    // Another version of the data set under this id: shown, but left out of the row's figures.
    const apart = other.length === 0 ? [] : [el('span', { class: 'bad-text problem-differs', title: `another problem under this id: its ${other.join(' and ')} ${other.length > 1 ? 'differ' : 'differs'} from the first run's; left out of this row's Pass@1 and disagreement`, text: ' ≠ problem' })];
    cells.push(el('td', {}, [link, ...apart]));
  });
  if (labels.length > 1) cells.push(compareCell(r, selected));
  return el('tr', { 'data-id': r.id }, cells);
}

/** The page of the problem list. */
export async function problemsPage(app: HTMLElement, query: Query): Promise<void> {
  let selected = selection(query);
  if (!selected.length) selected = [0];
  const go = (change: Change) => {
    location.hash = hashOf('problems', { ...query, ...change });
  };
  const params: Params = { runs: selected.join(','), limit: 100 };
  for (const k of LIST_PARAMS) if (query[k] !== undefined) params[k] = query[k];
  const [runs, first] = await Promise.all([folderApi<RunsAnswer>('runs'), folderApi<ProblemListAnswer>('problem-list', params)]);
  const labels = selected.map((i) => runs.runs[i]?.label ?? `run ${i}`);
  const table = el('table', { class: 'problem-list' });
  const more = el('button', { text: 'more problems' });
  const total = el('p', { class: 'muted total' });
  table.appendChild(header(query, labels, go));
  const add = (page: ProblemListAnswer) => {
    for (const r of page.rows) table.appendChild(row(r, page.runs, labels));
    math(table);
    const apart = page.otherProblems === 0 ? '' : `; ${page.otherProblems} ${page.otherProblems === 1 ? 'id names' : 'ids name'} another problem in some run (another question or reference answer, marked ≠ problem): those runs are left out of its row's Pass@1 and disagreement`;
    total.textContent = `${page.matched} of ${page.total} problems${apart}`;
    more.hidden = page.next === null;
    more.onclick = () => {
      params.from = page.next;
      folderApi<ProblemListAnswer>('problem-list', params).then(add);
    };
  };
  app.replaceChildren(
    el('section', { class: 'card' }, [
      el('h1', {}, ['problems of ', labels.join(', '), ' ', el('a', { class: 'small', href: hashOf('', { runs: selected.join(',') }), text: '(runs)' })]),
      filterBar(query, go),
      total,
      table,
      more,
    ]),
  );
  add(first);
}

/** The header's way back to the list from a problem's page whose URL carries it. */
export function trail(): void {
  const back = document.getElementById('back-to-list');
  if (!back) return;
  const match = /[?&]list=([^&]*)/.exec(location.hash);
  back.hidden = !match;
  if (match) back.setAttribute('href', `#${decodeURIComponent(match[1] ?? '')}`);
}
