/**
 * `table1.md`: Pass@1 per iteration (rows) and method (columns), and MV@k as
 * one figure, as the paper's Table 1 reports them, with what a reviewer needs
 * to read them: whether the figures come from the simulator, how many
 * problems each cell is a mean over, and a 95% interval per cell.
 *
 * The interval is a percentile bootstrap over problems (1,000 resamples), the
 * one the report draws as bands: a cell is a mean over problems of per-problem
 * figures that are shares (Pass@1) or 0/1 (MV), bounded and often near 0 or 1
 * on tens of problems, where a normal approximation gives bounds outside
 * [0, 1]. Each resampling is seeded by the method and the iteration, so the
 * file is the same on every machine. A cell over fewer than 2 graded problems
 * has no interval (`[–]`).
 *
 * Methods that do not compare (graded under another protocol, or over other
 * problems or T) are marked `†`, and a method more than the warned share
 * (10% by default) of a role's outputs of which were unusable in some
 * iteration `⚠`, each with a note under the table (the role, the share and
 * the iterations).
 */
import { bootstrapInterval } from '../report/bootstrap.ts';
import { comparisonGroups } from '../report/comparable.ts';
import type { ReportRun } from '../report/load.ts';
import { seedFor } from '../kernel/prng.ts';
import type { ProblemFigure } from '../report/bootstrap.ts';
import { describeUnusableRole } from '../observers/role-outputs.ts';
import { budgetTable, type Table1Method } from './table1-budgets.ts';

export type { Table1Method } from './table1-budgets.ts';


function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : (value * 100).toFixed(1);
}

/** The per-problem values of one figure at one iteration (graded problems only). */
function problemValues(run: ReportRun, figure: ProblemFigure, iteration: number): number[] {
  return run.problems.flatMap((problem) => {
    const value = problem.iterations.find((it) => it.iteration === iteration)?.[figure];
    return value === null || value === undefined ? [] : [typeof value === 'boolean' ? (value ? 1 : 0) : value];
  });
}

/** `41.7 [25.0, 58.3]`: a cell's figure with its 95% bootstrap interval over problems. */
function cell(method: Table1Method, figure: ProblemFigure, iteration: number | undefined): string {
  const it = method.run.iterations.find((candidate) => candidate.iteration === iteration);
  if (iteration === undefined || it === undefined || it[figure] === null) return '-';
  const interval = bootstrapInterval(problemValues(method.run, figure, iteration), seedFor('table1', method.strategy, figure, iteration));
  return `${percent(it[figure])} ${interval === null ? '[–]' : `[${percent(interval[0])}, ${percent(interval[1])}]`}`;
}

/** How many problems a method's last iteration graded, of how many it ran. */
function problemCount(run: ReportRun): string {
  const last = run.iterations.at(-1);
  if (!last) return '0';
  return last.graded === last.problems ? String(last.problems) : `${last.graded} of ${last.problems}`;
}

/** The line that says where the figures come from. */
function heading(methods: Table1Method[]): string {
  const simulated = methods.filter((method) => method.run.simulated);
  if (simulated.length === 0) return '# Table 1';
  if (simulated.length === methods.length) return '# Table 1 (simulated model: these figures exercise the runtime, they measure no real LLM)';
  return `# Table 1 (${simulated.map((method) => method.strategy).join(', ')}: simulated model, not comparable with the others)`;
}

/** Table 1 as Markdown. */
export function formatTable1(methods: Table1Method[]): string {
  const groups = comparisonGroups(methods.map((method) => method.run));
  const apart = new Map(groups.filter((group) => group.name !== 'A').flatMap((group) => group.runs.map((r) => [r, group] as const)));
  const marks = (method: Table1Method) => `${apart.has(methods.indexOf(method)) ? ' †' : ''}${method.run.unusable.length > 0 ? ' ⚠' : ''}`;
  const mark = (method: Table1Method) => `${method.strategy}${marks(method)}`;
  const iterative = methods.filter((method) => method.strategy !== 'majority');
  const majority = methods.find((method) => method.strategy === 'majority');
  const depth = Math.max(0, ...iterative.map((method) => method.run.iterations.length));
  const problems = new Set(methods.flatMap((method) => method.run.problems.map((p) => p.problem))).size;
  const grades = new Set(methods.flatMap((method) => method.run.iterations.map((it) => it.grade)));
  const lines = [
    heading(methods),
    '',
    `Pass@1 in % per iteration and method, over ${problems} problem${problems === 1 ? '' : 's'} (${[...grades].join(', ')} grade): the mean over each iteration's candidates (and judge passes), then over problems, ` +
      "with its 95% interval in brackets (percentile bootstrap over problems, 1,000 resamples; [–] under 2 graded problems). The row 'problems' gives how many problems each method's last iteration graded.",
    '',
    `| iteration | ${iterative.map(mark).join(' | ')} |`,
    `|---|${iterative.map(() => '---:').join('|')}|`,
    ...Array.from({ length: depth }, (_, t) => `| ${t} | ${iterative.map((method) => cell(method, 'pass1', method.run.iterations[t]?.iteration)).join(' | ')} |`),
    `| problems | ${iterative.map((method) => problemCount(method.run)).join(' | ')} |`,
  ];
  if (majority) {
    const k = majority.options.samples ?? '?';
    const last = majority.run.iterations.at(-1)?.iteration;
    lines.push('', `MV@${k}${marks(majority)} (majority vote over all of majority's samples, judge-graded when a judge ran): ${cell(majority, 'majority', last)} over ${problemCount(majority.run)} problems`);
  }
  const hybrid = methods.some((method) => method.run.iterations.some((it) => it.judgeAsked != null && it.judgeAsked < 1));
  if (hybrid) lines.push('', "Hybrid grading (--judge-when unsure): the judge graded the candidates the rule-based grader was unsure of, the rule the rest; the column 'judged' below gives each method's share.");
  lines.push('', ...budgetTable(methods));
  const notes = [
    ...methods.flatMap((method, r) => {
      const group = apart.get(r);
      return group ? [`† ${method.strategy}: not comparable with the other methods (${group.differences.join('; ')}).`] : [];
    }),
    ...methods.flatMap((method) => method.run.unusable.map((entry) => `⚠ ${method.strategy}: ${describeUnusableRole(entry)}; the method did not run as designed there.`)),
  ];
  if (notes.length > 0) lines.push('', ...notes.map((note) => `- ${note}`));
  return lines.join('\n');
}
