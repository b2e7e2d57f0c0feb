/**
 * `table1.md`: Pass@1 per iteration (rows) and method (columns), and MV@k as
 * one figure, as the paper's Table 1 reports them, with what a reviewer needs
 * to read them: whether the figures come from the simulator, how many
 * problems each cell is a mean over, a 95% interval per cell, and each
 * method's difference from TMAS with its 95% paired interval.
 *
 * The interval is a percentile bootstrap over problems (1,000 resamples), the
 * one the report draws as bands: a cell is a mean over problems of per-problem
 * figures that are shares (Pass@1) or 0/1 (MV), bounded and often near 0 or 1
 * on tens of problems, where a normal approximation gives bounds outside
 * [0, 1]. Each resampling is seeded by the method and the iteration (MV@k's by
 * the method and k: its pool is the same whatever T), so the file is the same
 * on every machine. A cell over fewer than 2 graded problems
 * has no interval (`[–]`), and one whose problems all had the same figure
 * says so (`[all 4 alike]`, interval-text.ts) rather than print a bracket of
 * zero width that reads as exact.
 *
 * The difference from TMAS pairs the problems by id (those both graded at
 * that iteration): the bootstrap resamples problems, each with both figures,
 * 2,000 times (bootstrap.ts). Two methods' intervals apart overlap on most
 * problem sets; the paired one says whether the difference holds.
 *
 * MV@k is the mean over draws of k of each problem's pool of samples
 * (majority-draws.ts): every k-subset when there are at most 1,000, else
 * 1,000 seeded random ones; with no pool larger than k, the one vote over the
 * k samples.
 *
 * Methods that do not compare (graded otherwise, or over other
 * problems or T) are marked `†`, a method more than the warned share
 * (10% by default) of a role's outputs of which were unusable in some
 * iteration `⚠`, and a method that calls that failed for good left without
 * some problems' iterations `‡`, each with a note under the table (the
 * fields, the role, share and iterations, the problems stopped).
 */
import { bootstrapInterval, figureByProblem, figureSeed, pairedDifference, pairedSeed, PAIRED_RESAMPLES, voteSeed } from '../../report/bootstrap.ts';
import { comparisonGroups } from '../../report/comparable.ts';
import type { ReportRun } from '../../report/load.ts';
import type { ProblemFigure } from '../../report/bootstrap.ts';
import { describeUnusableRole, unusableEffect } from '../../observers/role-outputs.ts';
import { budgetTable, type Table1Method } from './table1-budgets.ts';
import { MAJORITY_DRAWS } from '../../observers/majority-draws.ts';
import { signedPoints } from '../../report/format.ts';
import { ALIKE_LEGEND, intervalBracket } from '../../report/interval-text.ts';
import { unreferencedProblems, unreferencedSentence } from '../../report/unreferenced-problems.ts';
import { describeUnfinished, problemsRun } from '../../report/stopped-problems.ts';
import { caveatMarks } from '../../report/run-marks.ts';
import { notAResultColumns, notAResultCount, notAResultSentences } from './table1-ungraded.ts';

export type { Table1Method } from './table1-budgets.ts';


function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : (value * 100).toFixed(1);
}

/** ` [25.0, 58.3]`: a 95% interval over `values` in points, ` [–]` without one, ` [all n alike]` where it has no width. */
function bracket(values: number[], seed: number): string {
  return intervalBracket(bootstrapInterval(values, seed), values.length, percent);
}

/** `41.7 [25.0, 58.3]`: a cell's figure with its 95% bootstrap interval over problems. */
function cell(method: Table1Method, figure: ProblemFigure, iteration: number | undefined): string {
  const it = method.run.iterations.find((candidate) => candidate.iteration === iteration);
  if (iteration === undefined || it === undefined || it[figure] === null) return '-';
  const values = [...figureByProblem(method.run.problems, figure, iteration).values()];
  return `${percent(it[figure])}${bracket(values, figureSeed(method.strategy, figure, iteration))}`;
}

/** `+8.3 [-4.2, 20.8]`: a method's mean difference from TMAS over the problems both graded, with its 95% paired interval; `-` when they share none. */
function differenceCell(method: ReadonlyMap<string, number>, tmas: ReadonlyMap<string, number>, seed: number): string {
  const paired = pairedDifference(method, tmas, seed);
  return paired === null ? '-' : `${signedPoints(paired.difference)}${intervalBracket(paired.interval, paired.problems, signedPoints)}`;
}

/** The table of each iterative method's Pass@1 difference from TMAS per iteration, paired by problem. */
function differenceTable(iterative: Table1Method[], tmas: Table1Method, mark: (method: Table1Method) => string, depth: number): string[] {
  const others = iterative.filter((method) => method !== tmas);
  if (others.length === 0) return [];
  const pass1 = (method: Table1Method, t: number) => figureByProblem(method.run.problems, 'pass1', t);
  return [
    '',
    `Difference from TMAS in points of Pass@1 (method − tmas) per iteration, over the problems both graded at that iteration, with its 95% paired interval in brackets ` +
      `(percentile bootstrap over problems, each resampled with both figures, ${PAIRED_RESAMPLES.toLocaleString('en')} resamples; [–] under 2 problems; ${ALIKE_LEGEND}): an interval that excludes 0 is a difference the problems support.`,
    '',
    `| iteration | ${others.map(mark).join(' | ')} |`,
    `|---|${others.map(() => '---:').join('|')}|`,
    ...Array.from({ length: depth }, (_, t) => `| ${t} | ${others.map((method) => differenceCell(pass1(method, t), pass1(tmas, t), pairedSeed(method.strategy, t))).join(' | ')} |`),
  ];
}

/** MV@k per problem: the mean vote over draws of k of its pool when computed, else the one vote of the last iteration. */
function mvByProblem(majority: Table1Method): ReadonlyMap<string, number> {
  const last = majority.run.iterations.at(-1)?.iteration;
  return majority.draws?.byProblem ?? (last === undefined ? new Map() : figureByProblem(majority.run.problems, 'majority', last));
}

/** The MV@k line: its figure over problems with its 95% interval, how it was drawn, and its paired difference from TMAS's last iteration. */
function mvLine(majority: Table1Method, marks: string, tmas: Table1Method | undefined, tmasMarks: string): string {
  const k = majority.options.samples ?? '?';
  const byProblem = mvByProblem(majority);
  const values = [...byProblem.values()];
  const figure = values.length === 0 ? '-' : `${percent(values.reduce((a, b) => a + b, 0) / values.length)}${bracket(values, voteSeed(majority.strategy, k))}`;
  const pool = majority.draws?.pool ?? Number(k);
  const how =
    pool > Number(k)
      ? `the mean over draws of ${k} of each problem's ${pool} samples: every draw when there are at most ${MAJORITY_DRAWS.toLocaleString('en')}, else ${MAJORITY_DRAWS.toLocaleString('en')} seeded random ones`
      : `one vote over each problem's ${k} samples`;
  const tmasLast = tmas?.run.iterations.at(-1)?.iteration;
  const versus =
    tmas === undefined || tmasLast === undefined ? '' : `; minus tmas${tmasMarks} at its last iteration (${tmasLast}), paired by problem: ${differenceCell(byProblem, figureByProblem(tmas.run.problems, 'pass1', tmasLast), pairedSeed('mv', tmasLast))}`;
  return `MV@${k}${marks} (majority vote of ${k} samples, ${how}; judge-graded when a judge ran): ${figure} over ${problemCount(majority.run, ' problems')}${versus}`;
}

/** How many problems a method's last iteration graded, of how many it ran (those failed calls stopped included: they are not in the figures), `noun` after the count, then why the others were not graded. */
function problemCount(run: ReportRun, noun = ''): string {
  const last = run.iterations.at(-1);
  const ran = describeUnfinished(run) !== null ? problemsRun(run) : (last?.problems ?? 0);
  const graded = last?.graded ?? 0;
  if (graded === ran) return `${ran}${noun}`;
  // Problems without a reference answer are never graded: said so, `3 of 5` alone reads as 2 the method lost.
  const unreferenced = unreferencedProblems(run)?.length ?? 0;
  const why = unreferenced > 0 ? [`${unreferenced} without a reference answer`] : [];
  // In a finished run the rest reached the last iteration and were not graded there: the judge gave none of their candidates a verdict.
  const unjudged = describeUnfinished(run) === null && run.evaluation?.grading === 'judge' ? ran - graded - unreferenced : 0;
  if (unjudged > 0) why.push(`${unjudged} without a verdict of the judge`);
  return `${graded} of ${ran}${noun}${why.length > 0 ? ` (${why.join('; ')})` : ''}`;
}

/** The line that says where the figures come from. */
function heading(methods: Table1Method[]): string {
  const simulated = methods.filter((method) => method.run.simulated);
  if (simulated.length === 0) return '# Table 1';
  if (simulated.length === methods.length) return '# Table 1 (simulated model: these figures exercise the runtime, they measure no real LLM)';
  return `# Table 1 (${simulated.map((method) => method.strategy).join(', ')}: simulated model, not comparable with the others)`;
}

/**
 * The note a table graded by the model under test needs: with no --judge-base-url or --judge-model-name, the
 * judge is the solution model grading its own candidates, which a reader cannot tell from "judge grade".
 * A simulated run is left out, as the run's warning leaves it out: the simulator's verdicts judge nothing.
 */
function selfJudgedNote(methods: Table1Method[]): string[] {
  const judgeOf = (method: Table1Method) => method.run.evaluation?.judge as { independent?: boolean; model?: string } | null | undefined;
  const selfJudged = methods.filter((method) => !method.run.simulated && method.run.evaluation?.grading === 'judge' && judgeOf(method)?.independent === false);
  const [first] = selfJudged;
  if (first === undefined) return [];
  const who = selfJudged.length === methods.length ? 'every method' : selfJudged.map((method) => method.strategy).join(', ');
  const model = judgeOf(first)?.model ?? '?';
  return [
    `The judge is the model under test: ${who} graded by ${model} itself (no --judge-base-url or --judge-model-name), so a method's Pass@1 is the model's opinion of its own answers. Name an independent judge for figures that do not rest on it.`,
  ];
}

/**
 * How the figures were graded, as the line under the title says it: `rule grade`, or the judge with
 * its model, passes and verdict limit (the first judged method's; a method judged otherwise is
 * marked † with the fields that differ). "judge grade" alone read the same at 1 pass as at the
 * paper's 4, and named no judge.
 */
function gradeLabel(methods: Table1Method[]): string {
  const grades = [...new Set(methods.flatMap((method) => method.run.iterations.map((it) => it.grade)))];
  const judged = methods.find((method) => method.run.evaluation?.grading === 'judge');
  const judge = judged?.run.evaluation?.judge as { model?: string; passes?: number; maxTokens?: number } | undefined;
  if (judge === undefined) return `${grades.join(', ')} grade`;
  const passes = judge.passes ?? 0;
  const described = `judge grade: ${judge.model ?? '?'}, ${passes} pass${passes === 1 ? '' : 'es'} per candidate, verdicts of at most ${judge.maxTokens ?? '?'} tokens`;
  return grades.map((grade) => (grade === 'judge' ? described : `${grade} grade`)).join('; ');
}

/**
 * The paragraph under the title when some column is not a result (no figure at all, a rule's 0.0 that is the
 * replies' format, a role that used no output): a table whose every cell is '-' read, to whoever opens table1.md
 * without the command's exit code, like one whose methods scored nothing, its cause a note at the bottom.
 */
function notAResult(methods: Table1Method[]): string[] {
  const columns = notAResultColumns(methods, (method) => method.strategy);
  const count = notAResultCount(columns);
  if (count === 0) return [];
  const which = count === methods.length ? 'No column of this table is a result' : `Not a result: ${count} of the ${methods.length} columns`;
  const ended = ' (The commands above run in the folder of this file; tmas table1 ended with TMAS_TABLE_UNGRADED, exit code 3.)';
  return ['', [`**${which}.**`, ...notAResultSentences(columns), ended.trim()].join(' ')];
}

/** Table 1 as Markdown. */
export function formatTable1(methods: Table1Method[]): string {
  const groups = comparisonGroups(methods.map((method) => method.run));
  const apart = new Map(groups.filter((group) => group.name !== 'A').flatMap((group) => group.runs.map((r) => [r, group] as const)));
  const marks = (method: Table1Method) => `${apart.has(methods.indexOf(method)) ? ' †' : ''}${caveatMarks(method.run)}`;
  const mark = (method: Table1Method) => `${method.strategy}${marks(method)}`;
  const iterative = methods.filter((method) => method.strategy !== 'majority');
  const majority = methods.find((method) => method.strategy === 'majority');
  const depth = Math.max(0, ...iterative.map((method) => method.run.iterations.length));
  // A problem no method finished an iteration of has no figures: the problems each run was given count it.
  const problems = Math.max(new Set(methods.flatMap((method) => [...method.run.problems.map((p) => p.problem), ...method.run.stopped.map((entry) => entry.problem)])).size, ...methods.map((method) => problemsRun(method.run)));
  const unreferenced = [...new Set(methods.flatMap((method) => unreferencedProblems(method.run) ?? []))];
  const lines = [
    heading(methods),
    ...notAResult(methods),
    '',
    `Pass@1 in % per iteration and method, over ${problems} problem${problems === 1 ? '' : 's'} (${gradeLabel(methods)}): the mean over each iteration's candidates (and judge passes), then over problems, ` +
      `with its 95% interval in brackets (percentile bootstrap over problems, 1,000 resamples; [–] under 2 graded problems; ${ALIKE_LEGEND}). The row 'problems' gives how many problems each method's last iteration graded, of how many it ran when fewer.${unreferenced.length > 0 ? ` Of the ${problems} problems, ${unreferencedSentence(unreferenced)}` : ''}`,
    '',
    `| iteration | ${iterative.map(mark).join(' | ')} |`,
    `|---|${iterative.map(() => '---:').join('|')}|`,
    ...Array.from({ length: depth }, (_, t) => `| ${t} | ${iterative.map((method) => cell(method, 'pass1', method.run.iterations[t]?.iteration)).join(' | ')} |`),
    `| problems | ${iterative.map((method) => problemCount(method.run)).join(' | ')} |`,
  ];
  const tmas = iterative.find((method) => method.strategy === 'tmas');
  // A difference is as sound as both its terms: where TMAS's own column is marked, every difference from it says so.
  const versus = tmas === undefined || marks(tmas) === '' ? '' : ` (tmas${marks(tmas)})`;
  if (tmas) lines.push(...differenceTable(iterative, tmas, (method) => `${mark(method)}${versus}`, depth));
  if (majority) lines.push('', mvLine(majority, marks(majority), tmas, tmas === undefined ? '' : marks(tmas)));
  const hybrid = methods.some((method) => method.run.iterations.some((it) => it.judgeAsked != null && it.judgeAsked < 1));
  if (hybrid) lines.push('', "The judge graded the share of candidates the column 'judged' below gives; the rule's verdict stands for the rest: a reply cut before its end (no final answer, 0) and, with --judge-when unsure, those the rule-based grader was sure of.");
  lines.push('', ...budgetTable(methods));
  const notes = [
    ...methods.flatMap((method, r) => {
      const group = apart.get(r);
      return group ? [`† ${method.strategy}: not comparable with the other methods (${group.differences.join('; ')}).`] : [];
    }),
    ...methods.flatMap((method) => method.run.unusable.map((entry) => `⚠ ${method.strategy}: ${describeUnusableRole(entry)}; ${unusableEffect(entry.role)}.`)),
    ...methods.flatMap((method) => {
      const stopped = describeUnfinished(method.run);
      return stopped === null ? [] : [`‡ ${method.strategy}: ${stopped}. Give the same tmas table1 command again to finish them.`];
    }),
    ...selfJudgedNote(methods),
  ];
  if (notes.length > 0) lines.push('', ...notes.map((note) => `- ${note}`));
  return lines.join('\n');
}
