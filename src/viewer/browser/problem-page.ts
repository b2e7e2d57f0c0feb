/**
 * A problem's page in a run, `#/run/R/problem/P/T`: the problem, then per
 * candidate of iteration T its grade, scores and transcript, the problem's own
 * calls, and the banks after T.
 */
import type { BanksAnswer, CandidateResult, NamedCall, ProblemDetailAnswer, RunSummary, Transcript } from '../api-shapes.ts';
import { api, knownRun } from './api.ts';
import { asMath, el, math, score, textBlock } from './dom.ts';
import { forkLink } from './fork-note.ts';
import { candidateHref, problemHash, problemHref } from './links.ts';
import { leavePage } from './page-life.ts';
import { runHeader } from './run-page.ts';
import { candidateTranscript, downloadLink, problemTimeline } from './transcript.ts';

/** What a grading call gave, beside its response: a judge pass's verdict, a verification's score. */
function gradeDetail(c: CandidateResult): (call: NamedCall) => string {
  return (call) => {
    const pass = call.subject ? call.subject.pass : undefined;
    if (pass === undefined) return '';
    if (call.role === 'judge') {
      const v = c.judge ? c.judge.verdicts[pass] : undefined;
      return v === undefined ? '' : v === null ? 'no verdict' : v ? 'verdict ✓' : 'verdict ✗';
    }
    if (call.role === 'verification' || call.role === 'rater') return c.verificationScores[pass] === undefined ? '' : `score ${score(c.verificationScores[pass])}`;
    return '';
  };
}

/** The line under a candidate's title: its scores, the judge's verdicts and the rule's grade where they apply. */
function scoreLine(run: RunSummary, c: CandidateResult, calls: NamedCall[]): string {
  const verdicts = c.judge ? c.judge.verdicts.map((v) => (v === null ? '?' : v ? '✓' : '✗')).join(' ') : null;
  const judged = calls.some((k) => k.role === 'judge');
  return [
    run.hasVerifier ? `verification scores ${c.verificationScores.map(score).join(' ')} · summary score ${score(c.summaryScore)}` : '',
    verdicts ? `judge ${verdicts}${judged ? '' : ' (verdicts reused from an earlier identical judge request)'}` : '',
    verdicts && c.correct !== null ? `rule ${c.correct ? 'correct' : 'wrong'}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** A candidate: its grade and scores, then its transcript (every call about it, in the order they started). */
function candidateCard(run: RunSummary, place: { id: string; iteration: number }, c: CandidateResult, calls: NamedCall[], wanted: boolean): HTMLElement {
  const grade = c.correctJudge !== null && c.correctJudge !== undefined ? c.correctJudge > 0.5 : c.correct;
  const title = `candidate ${c.candidate} · ${c.source} · answer ${c.answer === null ? '(none)' : asMath(c.answer)} · ${grade === true ? 'correct' : grade === false ? 'wrong' : 'ungraded'} · ${calls.length} call${calls.length === 1 ? '' : 's'}`;
  return el('div', { class: `candidate ${grade === true ? 'ok' : grade === false ? 'bad' : 'unk'}`, id: `cand-${c.candidate}`, 'data-candidate': String(c.candidate) }, [
    el('h3', {}, [el('span', { text: title }), ' ', downloadLink(candidateHref(run.index, place.id, place.iteration, c.candidate), 'transcript JSON')]),
    el('p', { class: 'muted', text: scoreLine(run, c, calls) }),
    c.failures.length ? el('p', { class: 'bad-text', text: `failed calls: ${c.failures.join('; ')}` }) : null,
    candidateTranscript(run.index, calls, { open: wanted ? 'summary' : null, detail: gradeDetail(c) }),
  ]);
}

function banksView(banks: BanksAnswer): HTMLElement {
  return el('div', { class: 'banks' }, [
    el('h3', { text: `experience bank E(t): ${banks.experience.length} records` }),
    el(
      'ul',
      {},
      banks.experience.map((r) => el('li', {}, [el('span', { class: 'tag', text: r.kind }), ' ', el('span', { class: 'text', text: r.text }), el('span', { class: 'muted small', text: `  (iteration ${r.provenance.iteration}, candidate ${r.provenance.candidate === null ? '–' : r.provenance.candidate})` })])),
    ),
    el('h3', { text: `guideline bank G(t): ${banks.guidelines.length} records` }),
    el(
      'ul',
      {},
      banks.guidelines.map((r) => el('li', {}, [el('b', { class: 'text', text: r.strategy }), ': ', el('span', { class: 'text', text: r.outcome })])),
    ),
  ]);
}

/** The problem, its reference answer and solution, its download, and its iterations as tabs. */
function problemHead(run: RunSummary, detail: ProblemDetailAnswer, iteration: number): HTMLElement {
  const p = detail.problem;
  const tabs = detail.iterations.map((r) => el('a', { href: problemHash(run.index, p.id, r.iteration), class: r.iteration === iteration ? 'on' : '', text: String(r.iteration) }));
  const nav = el('nav', { class: 'tabs' }, [el('span', { text: 'iteration: ' }), ...tabs, el('a', { href: `#/run/${run.index}/calls?problem=${encodeURIComponent(p.id)}`, text: 'every call of this problem' }), forkLink(run, p.id)]);
  return el('section', { class: 'card problem' }, [
    el('h2', { text: `problem ${p.id}` }),
    el('div', { class: 'text question', text: p.question }),
    p.answer !== undefined ? el('p', {}, ['reference answer: ', el('span', { class: 'text', text: asMath(p.answer) })]) : null,
    p.solution ? textBlock('reference solution', p.solution, { kind: 'reference', collapsed: true }) : null,
    el('p', {}, [downloadLink(problemHref(run.index, p.id), 'download the problem as JSON (its iterations and every call)')]),
    nav,
  ]);
}

/** Iteration T's candidates, the calls about candidates its results do not hold, the problem's own calls, and the banks. */
function iterationBody(run: RunSummary, id: string, record: ProblemDetailAnswer['iterations'][number], transcript: Transcript, banks: BanksAnswer | null, wanted: number | null): HTMLElement[] {
  const byCandidate = new Map(transcript.candidates.map((t) => [t.candidate, t.calls]));
  const place = { id, iteration: record.iteration };
  const parts: HTMLElement[] = [el('h2', { text: `iteration ${record.iteration}: ${record.candidates.length} candidates` })];
  if (transcript.truncated) parts.push(el('p', { class: 'bad-text', text: 'This iteration has more calls than a page shows; the calls tab lists them all.' }));
  for (const c of record.candidates) parts.push(candidateCard(run, place, c, byCandidate.get(c.candidate) ?? [], wanted === c.candidate));
  // Calls about a candidate this iteration's results do not hold (majority's later samples in iteration 0) stay in view.
  const listed = new Set(record.candidates.map((c) => c.candidate));
  for (const t of transcript.candidates.filter((t) => !listed.has(t.candidate))) {
    parts.push(
      el('div', { class: 'candidate unk', id: `cand-${t.candidate}`, 'data-candidate': String(t.candidate) }, [
        el('h3', { text: `candidate ${t.candidate} · not among the results of iteration ${record.iteration} · ${t.calls.length} call${t.calls.length === 1 ? '' : 's'}` }),
        candidateTranscript(run.index, t.calls),
      ]),
    );
  }
  parts.push(problemTimeline(run.index, transcript.problemCalls));
  if (banks) parts.push(el('section', {}, [el('h2', { text: `banks after iteration ${record.iteration}` }), banksView(banks)]));
  return parts;
}

/** The page of problem `key` (its id, or a position) in run `index` at `iteration`; once found, it is asked for by its id. */
export async function showProblem(app: HTMLElement, index: number, key: string, iteration: number, query: Record<string, string>): Promise<void> {
  const run = knownRun(index);
  if (!run) return;
  leavePage();
  app.replaceChildren(runHeader(run));
  const detail = await api<ProblemDetailAnswer>(`/${index}/problems/${encodeURIComponent(key)}`);
  const ref = encodeURIComponent(detail.problem.id);
  const record = detail.iterations.find((r) => r.iteration === iteration);
  app.appendChild(problemHead(run, detail, iteration));
  if (!record) {
    app.appendChild(el('p', { class: 'muted', text: detail.iterations.length ? `Iteration ${iteration} has not completed.` : 'No iteration of this problem has completed yet.' }));
    math(app);
    return;
  }
  const body = el('section', { class: 'card' }, [el('p', { class: 'muted', text: 'Loading calls…' })]);
  app.appendChild(body);
  const [transcript, banks] = await Promise.all([api<Transcript>(`/${index}/problems/${ref}/transcript/${iteration}`), run.hasVerifier ? api<BanksAnswer>(`/${index}/problems/${ref}/banks/${iteration}`) : null]);
  const wanted = query.c === undefined ? null : Number(query.c);
  body.replaceChildren(...iterationBody(run, detail.problem.id, record, transcript, banks, wanted));
  math(app);
  if (wanted !== null) document.getElementById(`cand-${wanted}`)?.scrollIntoView();
}
