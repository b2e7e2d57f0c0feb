/**
 * The HTML report: one self-contained file (inline CSS and SVG, no script, no
 * network) comparing one or more runs: accuracy curves per iteration (one
 * line per run), accuracy against tokens spent, bank growth, tokens per
 * iteration and per role, the latency distribution, run totals and a
 * per-problem table whose rows open each problem's per-iteration figures.
 * A simulated run is labelled on every chart and in every table.
 */
import type { IterationMetrics } from '../metrics.ts';
import type { ProblemDetail } from './details.ts';
import type { ReportRun } from './load.ts';
import { LATENCY_BOUNDS_MS } from './load.ts';
import { escapeXml, lineChart, PALETTE, shortNumber, stackedBars, type Series } from './svg.ts';

const ROLE_COLORS: Record<string, string> = {
  solution: '#4e79a7',
  verification: '#f28e2b',
  summary: '#59a14f',
  experience: '#e15759',
  guideline: '#76b7b2',
  judge: '#b07aa1',
};

function roleColor(role: string, index: number): string {
  return ROLE_COLORS[role] ?? PALETTE[index % PALETTE.length] ?? '#888';
}

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)}%`;
}

function tokensOf(it: IterationMetrics): number {
  return Object.values(it.tokens).reduce((sum, t) => sum + t.prompt + t.completion, 0);
}

/** A run's label on charts: its name, marked when simulated. */
export function runLabel(run: ReportRun): string {
  return run.simulated ? `${run.name} (simulated)` : run.name;
}

function seriesOf(runs: ReportRun[], pick: (it: IterationMetrics) => number | null | undefined, x: (it: IterationMetrics, i: number, all: IterationMetrics[]) => number = (it) => it.iteration): Series[] {
  return runs.map((run, r) => ({
    name: runLabel(run),
    color: PALETTE[r % PALETTE.length] ?? '#888',
    points: run.iterations.flatMap((it, i, all) => {
      const y = pick(it);
      return y === null || y === undefined ? [] : [[x(it, i, all), y] as [number, number]];
    }),
  }));
}

function cumulativeTokens(_: IterationMetrics, i: number, all: IterationMetrics[]): number {
  return all.slice(0, i + 1).reduce((sum, it) => sum + tokensOf(it), 0);
}

function charts(runs: ReportRun[]): string[] {
  const badge = runs.some((run) => run.simulated) ? 'simulated' : undefined;
  const common = { xLabel: 'iteration', ...(badge ? { badge } : {}) };
  const share = { ...common, yMax: 1, percent: true };
  const banks: Series[] = runs.flatMap((run, r) => {
    const color = PALETTE[r % PALETTE.length] ?? '#888';
    return [
      { name: `${runLabel(run)}: experience`, color, points: run.iterations.map((it) => [it.iteration, it.experienceBank] as [number, number]) },
      { name: `${runLabel(run)}: guideline`, color, dashed: true, points: run.iterations.map((it) => [it.iteration, it.guidelineBank] as [number, number]) },
    ];
  });
  const roles = [...new Set(runs.flatMap((run) => Object.keys(run.totals.tokensByRole)))];
  const latencyLabels = [...LATENCY_BOUNDS_MS.map((b) => (b >= 1000 ? `${b / 1000}s` : `${b}ms`)), 'more'];
  const latency: Series[] = runs.map((run, r) => {
    const counts = Object.values(run.latency).reduce<number[]>((sum, c) => sum.map((v, i) => v + (c[i] ?? 0)), Array.from({ length: latencyLabels.length }, () => 0));
    const total = counts.reduce((a, b) => a + b, 0);
    return { name: runLabel(run), color: PALETTE[r % PALETTE.length] ?? '#888', points: total === 0 ? [] : counts.map((c, i) => [i, c / total] as [number, number]) };
  });
  return [
    lineChart({ ...share, title: 'Pass@1 per iteration', yLabel: 'Pass@1', series: seriesOf(runs, (it) => it.pass1) }),
    lineChart({ ...share, title: 'Majority vote per iteration', yLabel: 'majority correct', series: seriesOf(runs, (it) => it.majority) }),
    lineChart({ ...share, title: 'Best-verified per iteration', yLabel: 'best-verified correct', series: seriesOf(runs, (it) => it.bestVerified) }),
    lineChart({ ...share, title: 'Oracle pass@N per iteration', yLabel: 'pass@N', series: seriesOf(runs, (it) => it.oracle) }),
    lineChart({ ...share, title: 'Pass@1 against tokens spent', xLabel: 'tokens spent (cumulative)', yLabel: 'Pass@1', series: seriesOf(runs, (it) => it.pass1, cumulativeTokens) }),
    lineChart({ ...common, title: 'Tokens per iteration', yLabel: 'tokens', series: seriesOf(runs, tokensOf) }),
    lineChart({ ...common, title: 'Banks: experience —, guideline - -', yLabel: 'records per problem', series: banks }),
    stackedBars({
      title: 'Tokens per role',
      unit: 'tokens',
      ...(badge ? { badge } : {}),
      bars: runs.map((run) => ({
        label: runLabel(run),
        segments: roles.map((role, i) => {
          const t = run.totals.tokensByRole[role];
          return { name: role, color: roleColor(role, i), value: t ? t.prompt + t.completion : 0 };
        }),
      })),
    }),
    lineChart({
      ...common,
      title: 'Call latency (share of calls per bucket)',
      xLabel: 'latency at most',
      xTickLabels: latencyLabels,
      yLabel: 'share of calls',
      yMax: 1,
      percent: true,
      series: latency,
    }),
  ];
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

/** A problem's candidates per iteration (hover a candidate for the start of its summary), bank sizes, and its final banks. */
function candidateSection(detail: ProblemDetail | undefined): string {
  if (!detail) return '';
  const rows = detail.iterations.map((it) => [
    String(it.iteration),
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
    `<details class="banks"><summary>final banks</summary><h5>experience</h5>${list(detail.finalBanks.experience)}<h5>guidelines</h5>${list(detail.finalBanks.guidelines)}</details>`
  );
}

function problemTable(runs: ReportRun[]): string {
  const ids = [...new Set(runs.flatMap((run) => run.problems.map((p) => p.problem)))];
  const byRun = runs.map((run) => new Map(run.problems.map((p) => [p.problem, p])));
  const header = ['problem', ...runs.flatMap((run) => [`${run.name}${run.simulated ? ' (simulated)' : ''}: final Pass@1`, 'majority answer', 'flips R→W / W→R'])];
  const rows = ids.map((id) => {
    const cells = runs.flatMap((_, r) => {
      const p = byRun[r]?.get(id);
      const last = p?.iterations.at(-1);
      return [percent(last?.pass1), last ? `${escapeXml(last.answer ?? '–')} ${mark(last.majority)}` : '–', p ? `${p.flips.rightToWrong} / ${p.flips.wrongToRight}` : '–'];
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
      return `<h4>${escapeXml(runLabel(run))}</h4>${figures}${candidateSection(run.details.get(id))}`;
    });
    // The anchor sits inside the closed <details>: following a link to it opens them (browsers auto-expand on fragment navigation).
    return `<details class="problem"><summary>${escapeXml(id)}</summary><div id="${problemAnchor(id)}" class="anchor">${escapeXml(id)}</div>${sections.join('')}<p class="hint">Full texts: <code>results.jsonl</code> and <code>tmas show</code> on the run directory.</p></details>`;
  });
  return `${table(header, rows)}<h3>Per-problem details</h3>${details.join('')}`;
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1120px}
h1{font-size:22px;margin:0 0 4px}
.sim{background:#b8860b;color:#fff;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:600}
.banner{background:#fff4d6;border:1px solid #e0b84c;padding:8px 12px;border-radius:6px;margin:12px 0}
.charts{display:grid;grid-template-columns:repeat(2,1fr);gap:12px}
.chart{border:1px solid #ddd;border-radius:6px;padding:4px}
svg .title{font-size:14px;font-weight:600}
svg .tick,svg .legend{font-size:11px;fill:#444}
svg .label{font-size:12px;fill:#333}
svg .grid{stroke:#eee}
svg .axis{stroke:#888}
svg .badge{fill:#b8860b}
svg .badge-text{font-size:11px;fill:#fff;font-weight:600}
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
details.problem:has(:target){outline:2px solid #1f77b4}
.hint{color:#666;font-size:12px}
`;

/** Renders the report of `runs` as one self-contained HTML document. */
export function renderReportHtml(runs: ReportRun[], options: { generatedAt?: Date } = {}): string {
  const simulated = runs.filter((run) => run.simulated);
  const banner =
    simulated.length > 0
      ? `<div class="banner"><span class="sim">simulated</span> ${simulated.map((run) => escapeXml(run.name)).join(', ')} ran against the simulated model: these figures exercise the runtime, they measure no real LLM.</div>`
      : '';
  const title = `tmas report: ${runs.map((run) => run.name).join(', ')}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeXml(title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeXml(title)}</h1>
<p class="hint">Generated ${(options.generatedAt ?? new Date()).toISOString()} by <code>tmas report</code>. Pass@1: mean candidate correctness (over judge passes when a judge ran), averaged over problems.</p>
${banner}
<h2>Runs</h2>
${totalsTable(runs)}
<h2>Charts</h2>
<div class="charts">${charts(runs).map((svg) => `<div class="chart">${svg}</div>`).join('')}</div>
<h2>Problems</h2>
${problemTable(runs)}
</body></html>
`;
}
