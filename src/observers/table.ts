/**
 * The per-iteration results table printed at the end of a run.
 */
import type { IterationMetrics } from './metrics.ts';

function percent(value: number | null): string {
  return value === null ? '-' : `${(value * 100).toFixed(1)}%`;
}

function kilo(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(0)}k` : String(value);
}

/**
 * Renders the metrics as a fixed-width text table; `simulated` marks every figure as coming from the simulator.
 * When a judge ran, Pass@1 is the judge's and the rule-based Pass@1 and the disagreements get columns of their own.
 */
export function formatIterationTable(iterations: IterationMetrics[], options: { simulated: boolean }): string {
  const judged = iterations.some((it) => it.pass1Judge !== null && it.pass1Judge !== undefined);
  const header = ['iter', 'problems', judged ? 'Pass@1 judge' : 'Pass@1', ...(judged ? ['Pass@1 rule', 'disagree'] : []), 'majority', 'best-verified', 'pass@N', 'flips R→W/W→R', 'mean score', 'E bank', 'G bank', 'tokens', 'failed calls'];
  const rows = iterations.map((it) => {
    const tokens = Object.values(it.tokens).reduce((sum, t) => sum + t.prompt + t.completion, 0);
    return [
      String(it.iteration),
      it.graded === it.problems ? String(it.problems) : `${it.problems} (${it.graded} graded)`,
      // Pass@1 over the candidates the judge graded: when some were not (failed judge calls), say how many were.
      it.judgeCoverage != null && it.judgeCoverage < 1 ? `${percent(it.pass1)} (${percent(it.judgeCoverage)} judged)` : percent(it.pass1),
      ...(judged ? [percent(it.pass1Rule ?? null), `${it.disagreements ?? 0}/${it.judged ?? 0}`] : []),
      percent(it.majority),
      percent(it.bestVerified),
      percent(it.oracle),
      it.flips ? `${it.flips.majority.rightToWrong}/${it.flips.majority.wrongToRight}` : '-',
      it.meanScore === null ? '-' : it.meanScore.toFixed(3),
      it.experienceBank.toFixed(1),
      it.guidelineBank.toFixed(1),
      kilo(tokens),
      String(it.failures),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
  const title = options.simulated
    ? 'Results per iteration (simulated model: these figures exercise the runtime, they measure no real LLM)'
    : 'Results per iteration';
  const grading = judged
    ? []
    : ['Pass@1 is the rule-based grade: no LLM judge ran (name one with --judge-base-url / --judge-model-name for the judge protocol).'];
  return [title, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ...grading].join('\n');
}
