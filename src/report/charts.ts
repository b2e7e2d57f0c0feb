/**
 * What the report's charts show, as plain data: one ChartSpec per chart,
 * embedded in the HTML as JSON and drawn there by Chart.js (browser/report-charts.ts).
 * Every dataset names the run it belongs to, so a reader (or a test) can tell
 * that each chart drew data for every run. A chart of simulated runs says so
 * in its title. Runs whose accuracy figures do not compare (comparable.ts)
 * get accuracy charts of their own, one set per group.
 */
import { differenceBasis, type DifferenceBasis } from './difference-basis.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import { PALETTE } from './format.ts';
import type { ReportRun } from './load.ts';
import { LATENCY_BOUNDS_MS } from './load.ts';
import { methodTokensOf } from './method-spend.ts';
import { bootstrapBand, pairedCurve, type PairedCurve, type ProblemFigure } from './bootstrap.ts';
import { comparisonGroups, type RunGroup } from './comparable.ts';
import type { ChartSpec, DatasetSpec } from './browser/chart-spec.ts';

export type { ChartSpec, DatasetSpec } from './browser/chart-spec.ts';

const ROLE_COLORS: Record<string, string> = {
  solution: '#4e79a7',
  verification: '#f28e2b',
  summary: '#59a14f',
  experience: '#e15759',
  guideline: '#76b7b2',
  judge: '#b07aa1',
};

function runColor(index: number): string {
  return PALETTE[index % PALETTE.length] ?? '#888';
}

/** A run's label on charts: its name, marked when simulated. */
export function runLabel(run: ReportRun): string {
  return run.simulated ? `${run.name} (simulated)` : run.name;
}


type Pick = (it: IterationMetrics) => number | null | undefined;
type X = (it: IterationMetrics, i: number, all: IterationMetrics[]) => number;

function lines(runs: ReportRun[], pick: Pick, x: X = (it) => it.iteration, options: { band?: ProblemFigure; only?: (run: ReportRun) => boolean } = {}): DatasetSpec[] {
  return runs.flatMap((run, r) => {
    if (options.only && !options.only(run)) return [];
    const band = options.band === undefined ? undefined : bootstrapBand(run.problems, options.band, run.name);
    return [
      {
        label: runLabel(run),
        color: runColor(r),
        run: r,
        points: run.iterations.flatMap((it, i, all) => {
          const y = pick(it);
          return y === null || y === undefined ? [] : [[x(it, i, all), y] as [number, number]];
        }),
        ...(band && band.length > 0 ? { band } : {}),
      },
    ];
  });
}

/** A run's Pass@1 minus the reference's per iteration, paired by problem (the chart's and the Markdown table's, one seed). */
export function differenceFrom(run: ReportRun, reference: ReportRun): PairedCurve {
  return pairedCurve(run.problems, reference.problems, 'pass1', run.name);
}

/** Each run's Pass@1 minus its reference's per iteration (difference-basis.ts), with its 95% paired interval over the problems both graded (a reference's own line is 0). */
function differenceLines(runs: ReportRun[], basis: DifferenceBasis, only: (run: ReportRun) => boolean): DatasetSpec[] {
  return runs.flatMap((run, r) => {
    const reference = basis.against(run);
    if (!only(run) || reference === null) return [];
    const { points, band } = differenceFrom(run, reference);
    return [{ label: run === reference ? `${runLabel(run)} (the reference)` : `${runLabel(run)} − ${reference.name}`, color: runColor(r), run: r, points, ...(band.length > 0 ? { band } : {}) }];
  });
}

/** Why an accuracy chart of these runs is empty: no candidate of any run was graded. */
function ungradedReason(runs: ReportRun[]): string {
  const proof = runs.some((run) => run.proof);
  return (
    'No candidate was graded, so there is nothing to plot. ' +
    (proof
      ? 'The runs are in proof mode (the default), which grades only against reference solutions or with the LLM judge; for problems with short answers, run with --no-proof.'
      : 'The problems have no reference answers.')
  );
}

/** Marks a chart whose datasets hold no point or value with the reason. */
function withReason(spec: ChartSpec, reason: string): ChartSpec {
  const drawn = spec.datasets.some((d) => (d.points?.length ?? 0) > 0 || (d.values ?? []).some((v) => v > 0));
  return drawn ? spec : { ...spec, empty: reason };
}

function cumulativeTokens(_: IterationMetrics, i: number, all: IterationMetrics[]): number {
  return all.slice(0, i + 1).reduce((sum, it) => sum + methodTokensOf(it), 0);
}

function latencyLabel(bound: number): string {
  return bound >= 1000 ? `≤${bound / 1000}s` : `≤${bound}ms`;
}

/**
 * The accuracy charts of one group of runs that compare (all runs when they all do). A group after the
 * first gets ids of its own (`pass1-b`), its name and what its runs share in the title, and a note on what
 * sets it apart from the first group: runs graded otherwise, or over other problems or T, are drawn apart.
 */
function accuracySpecs(runs: ReportRun[], group: RunGroup | null, titled: (title: string) => string): ChartSpec[] {
  const members = new Set(group?.runs ?? runs.map((_, r) => r));
  const inGroup = runs.filter((_, r) => members.has(r));
  const id = (name: string) => (group === null || group.name === 'A' ? name : `${name}-${group.name.toLowerCase()}`);
  const named = (title: string) => titled(group === null ? title : `[${group.name}: ${group.label}] ${title}`);
  const only = (run: ReportRun) => members.has(runs.indexOf(run));
  const verified = (run: ReportRun) => run.verifier && only(run);
  const share = { kind: 'line' as const, xTitle: 'iteration', percent: true, integerX: true, runs: runs.length };
  const note = group !== null && group.differences.length > 0 ? { note: `Not comparable with group A (here vs A): ${group.differences.join('; ')}.` } : {};
  const basis = differenceBasis(inGroup);
  const subtracted = basis?.single === null ? 'the run each was forked from' : basis?.name;
  return [
    { ...share, id: id('pass1'), title: named('Pass@1 per iteration (95% bootstrap interval over problems)'), yTitle: 'Pass@1', datasets: lines(runs, (it) => it.pass1, undefined, { band: 'pass1', only }) },
    ...(basis === null
      ? []
      : [
          {
            ...share,
            id: id('pass1-vs-tmas'),
            title: named(`Pass@1 minus ${subtracted} per iteration (95% paired bootstrap interval over the problems both graded)`),
            yTitle: `Pass@1 − ${basis.name}`,
            datasets: differenceLines(runs, basis, only),
          },
        ]),
    { ...share, id: id('majority'), title: named('Majority vote per iteration (95% interval)'), yTitle: 'majority correct', datasets: lines(runs, (it) => it.majority, undefined, { band: 'majority', only }) },
    ...(inGroup.some((run) => run.verifier)
      ? [{ ...share, id: id('best-verified'), title: named('Best-verified per iteration (95% interval)'), yTitle: 'best-verified correct', datasets: lines(runs, (it) => it.bestVerified, undefined, { band: 'bestVerified', only: verified }) }]
      : []),
    { ...share, id: id('oracle'), title: named('Oracle pass@N per iteration (95% interval)'), yTitle: 'pass@N', datasets: lines(runs, (it) => it.oracle, undefined, { band: 'oracle', only }) },
    { ...share, id: id('pass1-tokens'), title: named("Pass@1 against tokens spent (the method's own, the judge's left out)"), xTitle: 'tokens spent (cumulative)', integerX: false, yTitle: 'Pass@1', datasets: lines(runs, (it) => it.pass1, cumulativeTokens, { only }) },
  ].map((spec) => ({ ...withReason(spec, ungradedReason(inGroup)), ...note }));
}

/** The report's charts for `runs`; the latency chart only when some run recorded call latencies. */
export function chartSpecs(runs: ReportRun[], groups: RunGroup[] = comparisonGroups(runs)): ChartSpec[] {
  const simulated = runs.some((run) => run.simulated);
  const titled = (title: string) => (simulated ? `${title} · simulated model` : title);
  const base = { kind: 'line' as const, xTitle: 'iteration', percent: false, integerX: true, runs: runs.length };
  const specs: ChartSpec[] = groups.length > 1 ? groups.flatMap((group) => accuracySpecs(runs, group, titled)) : accuracySpecs(runs, null, titled);
  specs.push(withReason({ ...base, id: 'tokens', title: titled("Tokens per iteration (the method's own, the judge's left out)"), yTitle: 'tokens', datasets: lines(runs, methodTokensOf) }, 'No iteration completed.'));
  if (runs.some((run) => run.iterations.some((it) => it.experienceBank > 0 || it.guidelineBank > 0))) {
    specs.push({
      ...base,
      id: 'banks',
      title: titled('Bank growth: experience —, guideline - -'),
      yTitle: 'records per problem',
      datasets: runs.flatMap((run, r) =>
        run.verifier
          ? [
              { label: `${runLabel(run)}: experience`, color: runColor(r), run: r, points: run.iterations.map((it) => [it.iteration, it.experienceBank] as [number, number]) },
              { label: `${runLabel(run)}: guideline`, color: runColor(r), run: r, dashed: true, points: run.iterations.map((it) => [it.iteration, it.guidelineBank] as [number, number]) },
            ]
          : [],
      ),
    });
  }
  // Whether late iterations are starved of completion budget: the exploit prompt's size beside the trims and truncations.
  if (runs.some((run) => run.iterations.some((it) => it.exploitPromptTokens != null))) {
    specs.push({
      ...base,
      id: 'exploit-prompt',
      title: titled('Exploit prompt tokens (mean) —; trimmed prompts and truncated answers - -'),
      yTitle: 'tokens / count',
      datasets: runs.flatMap((run, r) => [
        ...(run.iterations.some((it) => it.exploitPromptTokens != null)
          ? [{ label: `${runLabel(run)}: exploit prompt tokens`, color: runColor(r), run: r, points: run.iterations.flatMap((it) => (it.exploitPromptTokens == null ? [] : [[it.iteration, it.exploitPromptTokens] as [number, number]])) }]
          : []),
        { label: `${runLabel(run)}: trimmed + truncated`, color: runColor(r), run: r, dashed: true, points: run.iterations.map((it) => [it.iteration, it.trims + (it.faults?.truncated ?? 0)] as [number, number]) },
      ]),
    });
  }
  const roles = [...new Set(runs.flatMap((run) => Object.keys(run.totals.tokensByRole)))];
  specs.push({
    ...base,
    id: 'tokens-by-role',
    kind: 'bar',
    title: titled('Tokens per role'),
    xTitle: 'tokens',
    yTitle: 'run',
    labels: runs.map(runLabel),
    stacked: true,
    runsAreLabels: true,
    datasets: roles.map((role, i) => ({
      label: role,
      color: ROLE_COLORS[role] ?? runColor(i),
      run: null,
      values: runs.map((run) => {
        const t = run.totals.tokensByRole[role];
        return t ? t.prompt + t.completion : 0;
      }),
    })),
  });
  const buckets = LATENCY_BOUNDS_MS.length + 1;
  const latency = runs.map((run) => Object.values(run.latency).reduce<number[]>((sum, c) => sum.map((v, i) => v + (c[i] ?? 0)), Array.from({ length: buckets }, () => 0)));
  if (latency.some((counts) => counts.some((c) => c > 0))) {
    specs.push({
      ...base,
      id: 'latency',
      kind: 'bar',
      percent: true,
      title: titled('Call latency (share of calls per bucket)'),
      xTitle: 'latency',
      yTitle: 'share of calls',
      labels: [...LATENCY_BOUNDS_MS.map(latencyLabel), `>${latencyLabel(LATENCY_BOUNDS_MS.at(-1) ?? 0).slice(1)}`],
      datasets: runs.map((run, r) => {
        const counts = latency[r] ?? [];
        const total = counts.reduce((a, b) => a + b, 0);
        return { label: runLabel(run), color: runColor(r), run: r, values: total === 0 ? [] : counts.map((c) => c / total) };
      }),
    });
  }
  return specs;
}
