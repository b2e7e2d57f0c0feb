/**
 * The report as Markdown (`tmas report --format md`), for terminals and pull
 * requests: one table of run totals and one of figures per iteration per run.
 */
import { commonGrading } from './grading.ts';
import type { ReportRun } from './load.ts';

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)}%`;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** Renders the report of `runs` as Markdown. */
export function renderReportMarkdown(runs: ReportRun[]): string {
  const out: string[] = [`# tmas report: ${runs.map((run) => run.name).join(', ')}`, ''];
  const simulated = runs.filter((run) => run.simulated);
  if (simulated.length > 0) {
    out.push(`> **simulated**: ${simulated.map((run) => run.name).join(', ')} ran against the simulated model; these figures exercise the runtime, they measure no real LLM.`, '');
  }
  const usual = commonGrading(runs);
  out.push(
    table(
      ['run', 'settings', 'graded by', 'final Pass@1', 'majority', 'best-verified', 'pass@N', 'solved', 'tokens', 'tokens / solved'],
      runs.map((run) => [
        run.simulated ? `${run.name} (simulated)` : run.name,
        run.settings || '–',
        run.grading === usual ? run.grading : `${run.grading}: not comparable`,
        percent(run.totals.final?.pass1),
        percent(run.totals.final?.majority),
        run.verifier ? percent(run.totals.final?.bestVerified) : 'n/a',
        percent(run.totals.final?.oracle),
        run.totals.solved === null ? '–' : String(run.totals.solved),
        String(run.totals.tokens.total),
        run.totals.tokensPerSolved === null ? '–' : String(run.totals.tokensPerSolved),
      ]),
    ),
    '',
  );
  for (const run of runs) {
    out.push(`## ${run.name}${run.simulated ? ' (simulated)' : ''}`, '');
    out.push(
      table(
        ['iteration', 'Pass@1', 'majority', 'best-verified', 'pass@N', 'flips R→W / W→R', 'E bank', 'G bank', 'tokens'],
        run.iterations.map((it) => [
          String(it.iteration),
          percent(it.pass1),
          percent(it.majority),
          percent(it.bestVerified),
          percent(it.oracle),
          it.flips ? `${it.flips.majority.rightToWrong} / ${it.flips.majority.wrongToRight}` : '–',
          it.experienceBank.toFixed(1),
          it.guidelineBank.toFixed(1),
          String(Object.values(it.tokens).reduce((sum, t) => sum + t.prompt + t.completion, 0)),
        ]),
      ),
      '',
    );
  }
  return out.join('\n');
}
