/**
 * The HTML report: one self-contained file (inline CSS, the Chart.js bundle,
 * the chart data as JSON and the page's script, browser/report-charts.ts;
 * nothing fetched from a network)
 * comparing one or more runs: accuracy curves per iteration (one line per
 * run), accuracy against tokens spent, bank growth, tokens per iteration and
 * per role, the latency distribution, run totals and a per-problem table whose
 * links open each problem's per-iteration candidates, summaries and banks.
 * A simulated run is labelled on every chart and in every table.
 */
import { describeAgreement, ruleJudgeAgreement } from '../observers/agreement.ts';
import type { ProblemDetail } from './details.ts';
import { chartSpecs, runLabel, type ChartSpec } from './charts.ts';
import { BANDS_ALL_UP_TO, CHART_DATA_ID, HOVER_DATA_ID, MATH_DATA_ID } from './browser/chart-spec.ts';
import { MathShelf } from './math.ts';
import { HoverShelf } from './hover-shelf.ts';
import { bestVerifiedPercent, escapeXml, finalPass1, percent, shortNumber } from './format.ts';
import { cutCell, methodSpend, unusableCell, type MethodSpend } from './method-spend.ts';
import { problemsRun, unfinishedNote } from './stopped-problems.ts';
import { comparisonGroups, type RunGroup } from './comparable.ts';
import { differenceBasis } from './difference-basis.ts';
import { unpairedRuns, unpairedSentence } from './unpaired-runs.ts';
import { describeUnusableRole } from '../observers/role-outputs.ts';
import { hollowSentence } from './hollow-roles.ts';
import type { ReportRun } from './load.ts';

export { runLabel } from './charts.ts';

/** `12.3k (4.1k)` and, on a line of its own, the judge's: the method's own tokens (per problem solved), grading apart. */
function tokensCell(spent: MethodSpend): string {
  const own = `${shortNumber(spent.tokens)} (${spent.tokensPerSolved === null ? '–' : shortNumber(spent.tokensPerSolved)})`;
  return spent.judgeCalls === 0 ? own : `${own}<br><span class="hint">judge ${shortNumber(spent.judgeTokens)}</span>`;
}

/** The runs table: one row per run, its description wrapped in the first cell, columns only where some run has the figure. */
function totalsTable(runs: ReportRun[], groups: RunGroup[]): string {
  const verified = runs.some((run) => run.verifier);
  const judged = runs.some((run) => run.totals.judged > 0);
  const header = ['run', 'problems × iterations', 'Pass@1', 'majority', ...(verified ? ['best-verified'] : []), 'pass@N', 'solved', 'tokens (per solved), judge apart', 'calls (failed, retries), unusable', 'flips R→W / W→R', ...(judged ? ['judge disagrees'] : []), 'wall'];
  const rows = runs.map((run, r) => {
    const t = run.totals;
    const describe = [run.strategy ?? '–', run.settings].filter((part) => part !== '').join(' · ');
    // A run graded otherwise than the first group (the rule against a judge, a judge that graded otherwise), or over other problems or T, does not compare with it.
    const group = groups.find((g) => g.runs.includes(r));
    const apart = group !== undefined && group.name !== 'A';
    const grading = apart ? `<span class="bad">${escapeXml(run.grading)}: not comparable (group ${group.name})</span>` : escapeXml(run.grading);
    const tag = groups.length > 1 && group ? ` <span class="group">${group.name}</span>` : '';
    const stopped = unfinishedNote(run, ' (tmas run --resume finishes them)');
    // Roles that used no output at all: the run's figures are not its method's, whatever they look like.
    const hollow = hollowSentence(run.strategy ?? run.name, run);
    const unusable =
      (hollow === null ? '' : `<br><span class="bad hollow">✗ No result of its method: ${escapeXml(hollow)}</span>`) +
      run.unusable.map((entry) => `<br><span class="bad unusable">⚠ ${escapeXml(describeUnusableRole(entry))}</span>`).join('') +
      (stopped === null ? '' : `<br><span class="bad stopped">‡ ${escapeXml(stopped)}</span>`);
    // The run's totals count each candidate once (majority's iterations hold the earlier samples again); older files may lack it.
    const agreement = run.totals.ruleJudgeAgreement ?? ruleJudgeAgreement(run.iterations);
    const audit = agreement === null ? '' : `<br><span class="hint">rule = judge where the rule was sure: ${escapeXml(describeAgreement(agreement))}</span>`;
    return [
      `<div class="run-cell"><b>${escapeXml(run.name)}</b>${tag}${run.simulated ? ' <span class="sim">simulated</span>' : ''}<br>${escapeXml(describe)}<br>graded by ${grading}${audit}${unusable}${run.models ? `<br><span class="hint">${escapeXml(run.models)}</span>` : ''}</div>`,
      problemsByIterations(run),
      finalPass1(t.final?.pass1, run.iterations.at(-1)),
      percent(t.final?.majority),
      ...(verified ? [bestVerifiedPercent(run.verifier, t.final?.bestVerified)] : []),
      percent(t.final?.oracle),
      t.solved === null ? '–' : String(t.solved),
      tokensCell(methodSpend(run)),
      `${t.calls} (${t.failures}, ${t.retries === null ? '–' : t.retries})<br><span class="hint">unusable ${escapeXml(unusableCell(methodSpend(run)))}</span><br><span class="hint">cut at limit ${escapeXml(cutCell(methodSpend(run)))}</span>`,
      `${t.flips.majority.rightToWrong} / ${t.flips.majority.wrongToRight}`,
      ...(judged ? [t.judged > 0 ? `${t.disagreements} of ${t.judged}` : '–'] : []),
      t.wallSeconds === null ? '–' : `${t.wallSeconds.toFixed(1)} s`,
    ];
  });
  return table(header, rows);
}

/**
 * `6 × 3`, or `4 of 6 × 3` when fewer problems have figures than the run was given (calls that failed for good, a stop):
 * the count of problems with figures alone read as a run over fewer problems.
 */
function problemsByIterations(run: ReportRun): string {
  const given = problemsRun(run);
  const shown = run.totals.problems;
  return `${shown === given ? shown : `${shown} of ${given}`} × ${run.totals.iterations}`;
}

function table(header: string[], rows: string[][]): string {
  return `<div class="scroll"><table><thead><tr>${header.map((h) => `<th>${escapeXml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table></div>`;
}

function mark(value: boolean | null): string {
  return value === null ? '–' : value ? '<span class="ok">✓</span>' : '<span class="bad">✗</span>';
}

/** An id safe in HTML for a problem. */
export function problemAnchor(problem: string): string {
  return `problem-${problem.replace(/[^A-Za-z0-9_-]/g, (c) => `_${c.charCodeAt(0).toString(16)}`)}`;
}

/** The id of one run's iteration (a number) or final banks ('banks') inside a problem's details. */
export function detailAnchor(problem: string, run: number, part: number | 'banks'): string {
  return `${problemAnchor(problem)}--r${run}-${part === 'banks' ? 'banks' : `i${part}`}`;
}

/** A problem's candidates per iteration (hover a candidate for the start of its summary), bank sizes, and its final banks. */
function candidateSection(detail: ProblemDetail | undefined, anchor: (part: number | 'banks') => string, verifier: boolean, shelves: Shelves): string {
  if (!detail) return '';
  const rows = detail.iterations.map((it) => [
    `<span id="${anchor(it.iteration)}">${it.iteration}</span>`,
    it.candidates
      .map((c) => {
        // One rule for judge ties everywhere (as the metrics count them): correct only when more than half of the passes say so.
        const grade = c.correctJudge !== null ? c.correctJudge > 0.5 : c.correct;
        const score = c.score === null || !verifier ? '' : ` ${c.score.toFixed(2)}`;
        return `<span class="cand" ${shelves.hovers.attribute(`#${c.candidate} ${c.source}`, c.summary)}>${answerHtml(shelves.math, c.answer, '∅')} ${mark(grade)}${score}</span>`;
      })
      .join(' ')
      .replace(/^/, '<div class="cands">')
      .concat('</div>'),
    ...(verifier ? [it.experience === null ? '–' : String(it.experience), it.guidelines === null ? '–' : String(it.guidelines)] : []),
  ]);
  const list = (items: string[]) => (items.length === 0 ? '<p class="hint">(empty)</p>' : `<ul>${items.map((i) => `<li>${escapeXml(i)}</li>`).join('')}</ul>`);
  return (
    table(['iteration', verifier ? 'candidates: answer, grade, calibrated score (hover: summary)' : 'candidates: answer, grade', ...(verifier ? ['E bank', 'G bank'] : [])], rows) +
    (verifier
      ? `<details class="banks" id="${anchor('banks')}"><summary>final banks</summary><h5>experience</h5>${list(detail.finalBanks.experience)}<h5>guidelines</h5>${list(detail.finalBanks.guidelines)}</details>`
      : `<span id="${anchor('banks')}"></span>`)
  );
}

/** What the report holds once and its script puts in place: the answers typeset, the candidates' hover summaries. */
interface Shelves {
  math: MathShelf;
  hovers: HoverShelf;
}

/** Where `tmas view` listens by default: the report links each problem's texts there. */
const VIEW_URL = 'http://127.0.0.1:8765/';

/** An answer, typeset once on `shelf` (KaTeX, when the report is written) and put in place by the page's script, or `none` when there is no answer. */
function answerHtml(shelf: MathShelf, answer: string | null | undefined, none: string): string {
  return answer === null || answer === undefined || answer === '' ? none : shelf.answer(answer);
}

/**
 * One row per problem, one column per run: a compact cell (final Pass@1, the majority answer typeset with its
 * grade, flips, links to the iterations' candidates), in a box that scrolls on its own, header and problem
 * column held in place, so that six runs fit the page instead of stretching it.
 */
function problemOverview(runs: ReportRun[], ids: string[], byRun: Array<Map<string, ReportRun['problems'][number]>>, shelf: MathShelf): string {
  const header = runs.map((run) => `<th>${escapeXml(run.name)}${run.simulated ? ' <span class="sim">simulated</span>' : ''}</th>`).join('');
  const rows = ids.map((id) => {
    const cells = runs.map((run, r) => {
      const p = byRun[r]?.get(id);
      const last = p?.iterations.at(-1);
      const detail = run.details.get(id);
      const links = detail
        ? [...detail.iterations.map((it) => `<a href="#${detailAnchor(id, r, it.iteration)}">${it.iteration}</a>`), `<a href="#${detailAnchor(id, r, 'banks')}">banks</a>`].join(' ')
        : '';
      if (!last) return `<td>–</td>`;
      const figures = `<b>${percent(last.pass1)}</b> · ${answerHtml(shelf, last.answer, '–')} ${mark(last.majority)} · ${p ? `${p.flips.rightToWrong}/${p.flips.wrongToRight}` : '–'}`;
      return `<td><div class="pcell">${figures}</div>${links ? `<div class="links">${links}</div>` : ''}</td>`;
    });
    return `<tr><th scope="row"><a href="#${problemAnchor(id)}">${escapeXml(id)}</a></th>${cells.join('')}</tr>`;
  });
  return (
    '<p class="hint">Each cell: final Pass@1 · majority answer and its grade · flips R→W/W→R; below it, the iterations\' candidates and the banks.</p>' +
    `<div class="problems-box"><table class="problems"><thead><tr><th>problem</th>${header}</tr></thead><tbody>${rows.join('')}</tbody></table></div>`
  );
}

function problemTable(runs: ReportRun[], shelves: Shelves): string {
  const ids = [...new Set(runs.flatMap((run) => run.problems.map((p) => p.problem)))];
  const byRun = runs.map((run) => new Map(run.problems.map((p) => [p.problem, p])));
  const details = ids.map((id) => {
    const sections = runs.map((run, r) => {
      const p = byRun[r]?.get(id);
      if (!p) return '';
      const judged = p.iterations.some((it) => it.pass1Judge !== null && it.pass1Judge !== undefined);
      const rows = p.iterations.map((it) => [
        String(it.iteration),
        percent(it.pass1),
        ...(judged ? [percent(it.pass1Rule), percent(it.pass1Judge)] : []),
        mark(it.majority),
        ...(run.verifier ? [mark(it.bestVerified)] : []),
        mark(it.oracle),
        ...(run.verifier ? [it.meanScore === null ? '–' : it.meanScore.toFixed(3)] : []),
        answerHtml(shelves.math, it.answer, '–'),
        ...(judged ? [it.judged > 0 ? `${it.disagreements} of ${it.judged}` : '–'] : []),
      ]);
      const header = ['iteration', 'Pass@1', ...(judged ? ['rule', 'judge'] : []), 'majority', ...(run.verifier ? ['best-verified'] : []), 'pass@N', ...(run.verifier ? ['mean score'] : []), 'majority answer', ...(judged ? ['disagreements'] : [])];
      const detail = run.details.get(id);
      const last = p.iterations.at(-1)?.iteration ?? 0;
      const viewLink = detail ? ` <a class="view" href="${VIEW_URL}#/run/${r}/problem/${encodeURIComponent(id)}/${last}">solutions, verifications, prompts in tmas view</a>` : '';
      return `<h4>${escapeXml(runLabel(run))}${viewLink}</h4>${table(header, rows)}${candidateSection(detail, (part) => detailAnchor(id, r, part), run.verifier, shelves)}`;
    });
    // The anchor sits inside the closed <details>: following a link to it opens them (the script does, as do recent browsers on fragment navigation).
    return `<details class="problem"><summary>${escapeXml(id)}</summary><div id="${problemAnchor(id)}" class="anchor">${escapeXml(id)}</div>${sections.join('')}<p class="hint">Full texts (each candidate's solution, reasoning, verifications, summary, judge verdicts, and every prompt as sent): the links above open them in <code>tmas view ${escapeXml(runs.map((run) => run.dir).join(' '))}</code>, which must be running on its default port.</p></details>`;
  });
  return `${problemOverview(runs, ids, byRun, shelves.math)}<h3>Per-problem details</h3>${details.join('')}`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1352px}
h1{font-size:22px;margin:0 0 4px}
.sim{background:#b8860b;color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600}
.banner{background:#fff4d6;border:1px solid #e0b84c;padding:8px 12px;border-radius:6px;margin:12px 0}
.charts{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px}
.chart{border:1px solid #ddd;border-radius:6px;padding:4px;margin:0;position:relative}
.chart-head{text-align:right;height:20px;padding:0 2px}
.chart-box{position:relative;height:320px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}
th{background:#f4f4f4;white-space:normal}
td:first-child,th:first-child{text-align:left}
.scroll{overflow-x:auto}
.cand{display:inline-block;background:#f6f6f6;border-radius:3px;padding:0 4px;margin:1px}
td .cand{white-space:nowrap}
.cands{white-space:normal;min-width:480px;text-align:left}
.anchor{font-weight:600;margin-top:6px}
.ok{color:#2a7a2a}.bad{color:#b22}
details.problem{margin:4px 0}
details.problem:has(:target),details.problem:has(:target) :target{outline:2px solid #1f77b4}
.hint{color:#666;font-size:12px}
.run-cell{white-space:normal;min-width:14em;max-width:30em}
.empty-chart{padding:12px;color:#444;white-space:normal}
.group{background:#555;color:#fff;border-radius:4px;padding:0 5px;font-size:12px;font-weight:600}
figcaption{font-size:12px;padding:2px 6px;white-space:normal}
a.view{font-size:12px;font-weight:normal;margin-left:8px}
.problems-box{max-height:70vh;overflow:auto;border:1px solid #ddd;margin:8px 0}
table.problems{margin:0;width:100%}
table.problems thead th{position:sticky;top:0;z-index:2}
table.problems tbody th{position:sticky;left:0;z-index:1;background:#fff;text-align:left;font-weight:normal}
table.problems thead th:first-child{left:0;z-index:3}
table.problems td{text-align:left;white-space:normal;min-width:9em;vertical-align:top}
.pcell{white-space:nowrap}
.links{font-size:12px}
.answer .katex{font-size:1.05em}
`;

/** A chart's place in the page: a canvas the script draws on, tagged when the runs are simulated, with its note (runs that do not compare) under it. */
function chartFigure(spec: ChartSpec, simulated: boolean): string {
  const height = spec.stacked ? 120 + 36 * spec.runs : 320;
  const note = spec.note === undefined ? '' : `<figcaption class="bad">${escapeXml(spec.note)}</figcaption>`;
  const bands = spec.datasets.filter((d) => d.band !== undefined).length;
  const hover = bands > BANDS_ALL_UP_TO ? '<figcaption class="hint">95% intervals: hover a line or its legend entry to see its band.</figcaption>' : '';
  // The badge has a line of its own above the canvas: placed over it, it covered the chart's title.
  const badge = simulated ? '<div class="chart-head"><span class="sim">simulated</span></div>' : '';
  return `<figure class="chart" data-chart="${escapeXml(spec.id)}">${badge}<div class="chart-box" style="height:${height}px"><canvas id="chart-${escapeXml(spec.id)}" role="img" aria-label="${escapeXml(spec.title)}"></canvas></div>${hover}${note}</figure>`;
}

/** When the runs do not all compare: the groups, each charted apart, and what sets each apart from the first. */
function groupsBanner(runs: ReportRun[], groups: RunGroup[]): string {
  if (groups.length < 2) return '';
  const items = groups.map((group) => {
    const names = group.runs.map((r) => escapeXml(runs[r]?.name ?? '?')).join(', ');
    const apart = group.differences.length === 0 ? '' : `; differs from A in (here vs A): ${group.differences.map(escapeXml).join('; ')}`;
    return `<li><span class="group">${group.name}</span> ${names}: ${escapeXml(group.label)}${apart}</li>`;
  });
  return `<div class="banner"><b>These runs do not all compare</b> (graded otherwise, or over other problems or T, or not finished): their accuracy charts are drawn apart, one set per group.<ul>${items.join('')}</ul></div>`;
}

/** JSON as the content of a `<script>` element: "<" escaped so no "</script>" or "<!--" can end or confuse it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Renders the report of `runs` as one self-contained HTML document; `chartLibrary` is the Chart.js bundle
 * (readChartLibrary), `script` the report's own (reportScript), `mathStyle` KaTeX's stylesheet (readMathStyle), `leftOut` the
 * runs found under a folder that it does not show, each with why.
 */
export function renderReportHtml(runs: ReportRun[], options: { chartLibrary: string; script: string; mathStyle: string; generatedAt?: Date; leftOut?: string[] }): string {
  const simulated = runs.filter((run) => run.simulated);
  const banner =
    (simulated.length > 0
      ? `<div class="banner"><span class="sim">simulated</span> ${simulated.map((run) => escapeXml(run.name)).join(', ')} ran against the simulated model: these figures exercise the runtime, they measure no real LLM.</div>`
      : '') + (options.leftOut ?? []).map((entry) => `<div class="banner bad">Left out of this report: ${escapeXml(entry)}</div>`).join('');
  const title = `tmas report: ${runs.map((run) => run.name).join(', ')}`;
  const groups = comparisonGroups(runs);
  const specs = chartSpecs(runs, groups);
  // At the top, as the Markdown report says it: the runs no paired difference is drawn for (the charts pair within a group).
  const unpaired = unpairedSentence(unpairedRuns(runs, groups, differenceBasis(runs)));
  const unpairedBanner = unpaired === null ? '' : `<div class="banner bad unpaired">${escapeXml(unpaired)}</div>`;
  const shelves: Shelves = { math: new MathShelf(), hovers: new HoverShelf() };
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>${options.mathStyle}</style><style>${STYLE}</style></head>
<body>
<h1>${escapeXml(title)}</h1>
<p class="hint">Generated ${(options.generatedAt ?? new Date()).toISOString()} by <code>tmas report</code>. Pass@1: mean candidate correctness (over judge passes when a judge ran), averaged over problems.</p>
${banner}${unpairedBanner}
<h2>Runs</h2>
${totalsTable(runs, groups)}
${groupsBanner(runs, groups)}
<h2>Charts</h2>
<noscript><p class="hint">The charts are drawn, and the answers typeset, by a script embedded in this file (Chart.js, KaTeX's output); allow scripts to see them (without, each answer shows as its LaTeX source, and a candidate shows no summary on hover). <code>tmas report --format md</code> gives the figures as tables.</p></noscript>
<div class="charts">${specs.map((spec) => chartFigure(spec, simulated.length > 0)).join('')}</div>
<h2>Problems</h2>
${problemTable(runs, shelves)}
<script>${options.chartLibrary}</script>
<script type="application/json" id="${CHART_DATA_ID}">${scriptJson(specs)}</script>
<script type="application/json" id="${MATH_DATA_ID}">${scriptJson(shelves.math)}</script>
<script type="application/json" id="${HOVER_DATA_ID}">${scriptJson(shelves.hovers)}</script>
<script>${options.script}</script>
</body></html>
`;
}
