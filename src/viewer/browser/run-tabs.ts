/**
 * A run's calls tab (filter by problem, iteration and role, search the texts)
 * and errors tab (failed calls, unusable outputs, trimmed prompts).
 */
import type { CallPageAnswer, MessagePageAnswer, RunSummary } from '../api-shapes.ts';
import { api, type Params } from './api.ts';
import { el, math } from './dom.ts';
import { callView } from './transcript.ts';

/** The calls of the run that pass the filters, a page at a time; `initial` fills the filters (from the URL). */
export function callBrowser(run: RunSummary, container: HTMLElement, initial: Record<string, string>): Promise<void> {
  const problem = el('input', { type: 'search', placeholder: 'problem id', value: initial.problem || '' });
  const iteration = el('input', { type: 'number', min: '0', placeholder: 'iteration', value: initial.iteration || '' });
  const role = el('input', { type: 'search', placeholder: 'role', value: initial.role || '' });
  const search = el('input', { type: 'search', placeholder: 'text in prompt or response' });
  const list = el('div', { class: 'calls' });
  const more = el('button', { text: 'more calls' });
  let after: string | null = null;
  const load = async (reset: boolean): Promise<void> => {
    if (reset) {
      after = null;
      list.replaceChildren();
    }
    const params: Params = { problem: problem.value, role: role.value, search: search.value, after, limit: 25 };
    if (problem.value !== '') params.iteration = iteration.value;
    const page = await api<CallPageAnswer>(`/${run.index}/calls`, params);
    for (const call of page.calls) list.appendChild(callView(run.index, call));
    if (reset && page.calls.length === 0) list.appendChild(el('p', { class: 'muted', text: page.next ? 'No match in the first calls read; ask for more.' : 'No call matches.' }));
    after = page.next;
    more.hidden = after === null;
    math(list);
  };
  const go = el('button', { text: 'search', onclick: () => load(true) });
  container.appendChild(el('div', { class: 'filters' }, [problem, iteration, role, search, go]));
  container.appendChild(list);
  container.appendChild(more);
  more.onclick = () => load(false);
  return load(true);
}

/** The fields of an error message the tab shows (each message type has some of them). */
interface ErrorFields {
  type: string;
  problem?: string;
  iteration?: number;
  role?: string;
  code?: string;
  error?: string;
  reason?: string;
  /** A reply's own reason its role could not use it (`<role>.completed`: a judge pass without a verdict, a solution without a final answer). */
  parseError?: string;
  dropped?: unknown;
}

/** The role an error is about: its own field, or a reply's type (`judge.completed`). */
function roleOf(m: ErrorFields): string {
  return m.role || (m.type.endsWith('.completed') ? m.type.slice(0, -'.completed'.length) : '');
}

function errorRow(run: RunSummary, m: ErrorFields): HTMLElement {
  const where = m.problem ? el('a', { text: `${m.problem} / ${m.iteration}`, href: `#/run/${run.index}/calls?problem=${encodeURIComponent(m.problem)}&iteration=${m.iteration}` }) : '';
  return el('tr', {}, [el('td', { text: m.type }), el('td', {}, [where]), el('td', { text: roleOf(m) }), el('td', { text: m.code || '' }), el('td', { class: 'text', text: m.error || m.reason || m.parseError || JSON.stringify(m.dropped || '') })]);
}

/**
 * The log's error messages. A page that found none before its read budget goes on by itself, so a run without
 * errors says so instead of offering an empty page and a button.
 */
export function errorBrowser(run: RunSummary, container: HTMLElement): Promise<void> {
  const list = el('table', { class: 'errors' });
  const more = el('button', { text: 'more errors' });
  const note = el('p', { class: 'muted', text: 'Reading the log…' });
  let after: string | null = null;
  let found = 0;
  const load = async (): Promise<void> => {
    more.hidden = true;
    const page = await api<MessagePageAnswer>(`/${run.index}/messages`, { type: 'errors', after, limit: 100 });
    for (const envelope of page.messages) list.appendChild(errorRow(run, envelope.message as unknown as ErrorFields));
    found += page.messages.length;
    after = page.next;
    if (page.messages.length === 0 && after !== null) return load();
    more.hidden = after === null;
    note.textContent = found === 0 ? `No errors in this run: no failed call, unusable output or trimmed prompt${run.live ? ' so far.' : '.'}` : `${found} error message${found === 1 ? '' : 's'}${after === null ? '.' : ' so far; more below.'}`;
    note.className = found === 0 ? 'muted no-errors' : 'muted';
  };
  container.appendChild(note);
  container.appendChild(list);
  container.appendChild(more);
  more.onclick = load;
  return load();
}
