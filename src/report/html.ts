/**
 * The HTML report: one self-contained file (inline CSS, the Chart.js bundle,
 * the chart data as JSON and a small script; nothing fetched from a network)
 * comparing one or more runs: accuracy curves per iteration (one line per
 * run), accuracy against tokens spent, bank growth, tokens per iteration and
 * per role, the latency distribution, run totals and a per-problem table whose
 * links open each problem's per-iteration candidates, summaries and banks.
 * A simulated run is labelled on every chart and in every table.
 */
import type { ProblemDetail } from './details.ts';
import { chartSpecs, runLabel, type ChartSpec } from './charts.ts';
import { CHART_DATA_ID, CLIENT_SCRIPT } from './client.ts';
import { escapeXml, shortNumber } from './format.ts';
import type { ReportRun } from './load.ts';

export { runLabel } from './charts.ts';

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)}%`;
}

function totalsTable(runs: ReportRun[]): string {
  const header = ['run', 'strategy', 'settings', 'problems', 'iters', 'Pass@1', 'majority', 'best-verif.', 'pass@N', 'solved', 'tokens', 'tok/solved', 'calls', 'failed', 'retries', 'flips R→W/W→R', 'judge disagr.', 'wall'];
  const rows = runs.map((run) => {
    const t = run.totals;
    return [
      `${escapeXml(run.name)}${run.simulated ? ' <span class="sim">simulated</span>' : ''}`,
      escapeXml(run.strategy ?? '–'),
      escapeXml(run.settings || '–'),
      String(t.problems),
      String(t.iterations),
      percent(t.final?.pass1),
      percent(t.final?.majority),
      percent(t.final?.bestVerified),
      percent(t.final?.oracle),
      t.solved === null ? '–' : String(t.solved),
      shortNumber(t.tokens.total),
      t.tokensPerSolved === null ? '–' : shortNumber(t.tokensPerSolved),
      String(t.calls),
      String(t.failures),
      t.retries === null ? '–' : String(t.retries),
      `${t.flips.majority.rightToWrong} / ${t.flips.majority.wrongToRight}`,
      t.judged > 0 ? `${t.disagreements} of ${t.judged}` : '–',
      t.wallSeconds === null ? '–' : `${t.wallSeconds.toFixed(1)} s`,
    ];
  });
  return table(header, rows);
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
function candidateSection(detail: ProblemDetail | undefined, anchor: (part: number | 'banks') => string): string {
  if (!detail) return '';
  const rows = detail.iterations.map((it) => [
    `<span id="${anchor(it.iteration)}">${it.iteration}</span>`,
    it.candidates
      .map((c) => {
        const grade = c.correctJudge !== null ? c.correctJudge >= 0.5 : c.correct;
        const score = c.score === null ? '' : ` ${c.score.toFixed(2)}`;
        return `<span class="cand" title="${escapeXml(`#${c.candidate} ${c.source}: ${c.summary}`)}">${escapeXml(c.answer ?? '∅')} ${mark(grade)}${score}</span>`;
      })
      .join(' ')
      .replace(/^/, '<div class="cands">')
      .concat('</div>'),
    it.experience === null ? '–' : String(it.experience),
    it.guidelines === null ? '–' : String(it.guidelines),
  ]);
  const list = (items: string[]) => (items.length === 0 ? '<p class="hint">(empty)</p>' : `<ul>${items.map((i) => `<li>${escapeXml(i)}</li>`).join('')}</ul>`);
  return (
    table(['iteration', 'candidates: answer, grade, calibrated score (hover: summary)', 'E bank', 'G bank'], rows) +
    `<details class="banks" id="${anchor('banks')}"><summary>final banks</summary><h5>experience</h5>${list(detail.finalBanks.experience)}<h5>guidelines</h5>${list(detail.finalBanks.guidelines)}</details>`
  );
}

function problemTable(runs: ReportRun[]): string {
  const ids = [...new Set(runs.flatMap((run) => run.problems.map((p) => p.problem)))];
  const byRun = runs.map((run) => new Map(run.problems.map((p) => [p.problem, p])));
  const header = ['problem', ...runs.flatMap((run) => [`${run.name}${run.simulated ? ' (simulated)' : ''}: final Pass@1`, 'majority answer', 'flips R→W / W→R', 'candidates per iteration, banks'])];
  const rows = ids.map((id) => {
    const cells = runs.flatMap((run, r) => {
      const p = byRun[r]?.get(id);
      const last = p?.iterations.at(-1);
      const detail = run.details.get(id);
      const links = detail
        ? [...detail.iterations.map((it) => `<a href="#${detailAnchor(id, r, it.iteration)}">${it.iteration}</a>`), `<a href="#${detailAnchor(id, r, 'banks')}">banks</a>`].join(' ')
        : '–';
      return [percent(last?.pass1), last ? `${escapeXml(last.answer ?? '–')} ${mark(last.majority)}` : '–', p ? `${p.flips.rightToWrong} / ${p.flips.wrongToRight}` : '–', links];
    });
    return [`<a href="#${problemAnchor(id)}">${escapeXml(id)}</a>`, ...cells];
  });
  const details = ids.map((id) => {
    const sections = runs.map((run, r) => {
      const p = byRun[r]?.get(id);
      if (!p) return '';
      const rows = p.iterations.map((it) => [
        String(it.iteration),
        percent(it.pass1),
        percent(it.pass1Rule),
        percent(it.pass1Judge),
        mark(it.majority),
        mark(it.bestVerified),
        mark(it.oracle),
        it.meanScore === null ? '–' : it.meanScore.toFixed(3),
        escapeXml(it.answer ?? '–'),
        it.judged > 0 ? `${it.disagreements} of ${it.judged}` : '–',
      ]);
      const figures = table(['iteration', 'Pass@1', 'rule', 'judge', 'majority', 'best-verified', 'pass@N', 'mean score', 'majority answer', 'disagreements'], rows);
      return `<h4>${escapeXml(runLabel(run))}</h4>${figures}${candidateSection(run.details.get(id), (part) => detailAnchor(id, r, part))}`;
    });
    // The anchor sits inside the closed <details>: following a link to it opens them (the script does, as do recent browsers on fragment navigation).
    return `<details class="problem"><summary>${escapeXml(id)}</summary><div id="${problemAnchor(id)}" class="anchor">${escapeXml(id)}</div>${sections.join('')}<p class="hint">Full texts: <code>results.jsonl</code> and <code>tmas show</code> on the run directory.</p></details>`;
  });
  return `${table(header, rows)}<h3>Per-problem details</h3>${details.join('')}`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1120px}
h1{font-size:22px;margin:0 0 4px}
.sim{background:#b8860b;color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600}
.banner{background:#fff4d6;border:1px solid #e0b84c;padding:8px 12px;border-radius:6px;margin:12px 0}
.charts{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:12px}
.chart{border:1px solid #ddd;border-radius:6px;padding:4px;margin:0;position:relative}
.chart .sim{position:absolute;top:6px;right:6px}
.chart-box{position:relative;height:320px}
table{border-collapse:collapse;margin:8px 0;font-size:13px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:right;white-space:nowrap}
th{background:#f4f4f4}
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
`;

/** A chart's place in the page: a canvas the script draws on, tagged when the runs are simulated. */
function chartFigure(spec: ChartSpec, simulated: boolean): string {
  const height = spec.stacked ? 120 + 36 * spec.runs : 320;
  return `<figure class="chart" data-chart="${escapeXml(spec.id)}">${simulated ? '<span class="sim">simulated</span>' : ''}<div class="chart-box" style="height:${height}px"><canvas id="chart-${escapeXml(spec.id)}" role="img" aria-label="${escapeXml(spec.title)}"></canvas></div></figure>`;
}

/** JSON as the content of a `<script>` element: "<" escaped so no "</script>" or "<!--" can end or confuse it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** Renders the report of `runs` as one self-contained HTML document; `chartLibrary` is the Chart.js bundle (readChartLibrary). */
export function renderReportHtml(runs: ReportRun[], options: { chartLibrary: string; generatedAt?: Date }): string {
  const simulated = runs.filter((run) => run.simulated);
  const banner =
    simulated.length > 0
      ? `<div class="banner"><span class="sim">simulated</span> ${simulated.map((run) => escapeXml(run.name)).join(', ')} ran against the simulated model: these figures exercise the runtime, they measure no real LLM.</div>`
      : '';
  const title = `tmas report: ${runs.map((run) => run.name).join(', ')}`;
  const specs = chartSpecs(runs);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeXml(title)}</h1>
<p class="hint">Generated ${(options.generatedAt ?? new Date()).toISOString()} by <code>tmas report</code>. Pass@1: mean candidate correctness (over judge passes when a judge ran), averaged over problems.</p>
${banner}
<h2>Runs</h2>
${totalsTable(runs)}
<h2>Charts</h2>
<noscript><p class="hint">The charts are drawn by a script embedded in this file (Chart.js); allow scripts to see them. <code>tmas report --format md</code> gives the figures as tables.</p></noscript>
<div class="charts">${specs.map((spec) => chartFigure(spec, simulated.length > 0)).join('')}</div>
<h2>Problems</h2>
${problemTable(runs)}
<script>${options.chartLibrary}</script>
<script type="application/json" id="${CHART_DATA_ID}">${scriptJson(specs)}</script>
<script>${CLIENT_SCRIPT}</script>
</body></html>
`;
}
