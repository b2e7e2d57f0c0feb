/**
 * The per-iteration results table printed at the end of a run. By default it
 * holds the essential columns and fits an 80-column terminal; `wide` adds the
 * rest (rule-based Pass@1 and disagreements beside the judge's, flips, mean
 * score, bank sizes, unusable outputs). Columns that mean nothing for the run
 * (best-verified and scores without a verifier, banks without banks) are left
 * out either way. Unusable outputs are also named per role in a line under
 * the table at any width: they are never only in --wide.
 */
import type { IterationMetrics } from './metrics.ts';
import { roleOutputTotals } from './role-outputs.ts';

function percent(value: number | null | undefined): string {
  return value === null || value === undefined ? '-' : `${(value * 100).toFixed(1)}%`;
}

function kilo(value: number): string {
  return value >= 10_000 ? `${(value / 1000).toFixed(0)}k` : String(value);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    if (current !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = word;
    } else current = current === '' ? word : `${current} ${word}`;
  }
  return [...lines, current];
}

/**
 * Pass@1, with what it is over when that is not every candidate: the share
 * with a grade when judge calls failed for good, the share sent to the
 * judge under `--judge-when unsure`.
 */
function pass1Cell(it: IterationMetrics): string {
  const notes = [
    ...(it.judgeCoverage != null && it.judgeCoverage < 1 ? [`${percent(it.judgeCoverage)} judged`] : []),
    ...(it.judgeAsked != null && it.judgeAsked < 1 ? [`${percent(it.judgeAsked)} to judge`] : []),
  ];
  return notes.length === 0 ? percent(it.pass1) : `${percent(it.pass1)} (${notes.join(', ')})`;
}

/** Unusable outputs of an iteration over all roles, `unusable/outputs`. */
function unusableCell(it: IterationMetrics): string {
  const counts = Object.values(it.outputsByRole ?? {});
  return `${counts.reduce((sum, c) => sum + c.unusable, 0)}/${counts.reduce((sum, c) => sum + c.outputs, 0)}`;
}

/** The line under the table naming each role with unusable outputs (none when every output was usable): never only in --wide. */
function unusableLines(iterations: IterationMetrics[]): string[] {
  const roles = Object.entries(roleOutputTotals(iterations)).filter(([, counts]) => counts.unusable > 0);
  if (roles.length === 0) return [];
  const parts = roles.map(([role, c]) => `${role} ${c.unusable} of ${c.outputs}${c.retried > 0 ? ` (${c.retried} asked again)` : ''}`);
  return wrap(`Unusable outputs (unparseable or not of the role's format), all iterations: ${parts.join(', ')}.`, NARROW_WIDTH);
}

interface Column {
  title: string;
  cell(it: IterationMetrics): string;
  /** Shown without --wide. */
  essential: boolean;
}

/** The width the default table keeps within. */
export const NARROW_WIDTH = 80;

/**
 * Renders the metrics as a fixed-width text table; `simulated` marks every figure as coming from the simulator.
 * When a judge ran, Pass@1 is the judge's; with `wide`, the rule-based Pass@1 and the disagreements get columns of their own.
 */
export function formatIterationTable(iterations: IterationMetrics[], options: { simulated: boolean; wide?: boolean }): string {
  // The judge's columns stand wherever it ran, its verdicts or not: a judge that gave none (every pass cut or out of format) is no run without a judge.
  const judged = iterations.some((it) => (it.pass1Judge !== null && it.pass1Judge !== undefined) || (it.judgeCoverage !== null && it.judgeCoverage !== undefined));
  const verdicts = iterations.some((it) => it.pass1Judge !== null && it.pass1Judge !== undefined);
  const scored = iterations.some((it) => it.meanScore !== null);
  const banked = iterations.some((it) => it.experienceBank > 0 || it.guidelineBank > 0);
  const unusable = unusableLines(iterations);
  const columns: Column[] = [
    { title: 'iter', cell: (it) => String(it.iteration), essential: true },
    { title: 'problems', cell: (it) => (it.graded === it.problems ? String(it.problems) : `${it.problems} (${it.graded} graded)`), essential: true },
    { title: judged ? 'Pass@1 judge' : 'Pass@1', cell: pass1Cell, essential: true },
    ...(judged
      ? [
          { title: 'Pass@1 rule', cell: (it: IterationMetrics) => percent(it.pass1Rule), essential: false },
          { title: 'disagree', cell: (it: IterationMetrics) => `${it.disagreements ?? 0}/${it.judged ?? 0}`, essential: false },
        ]
      : []),
    { title: 'majority', cell: (it) => percent(it.majority), essential: true },
    ...(scored ? [{ title: 'best-verified', cell: (it: IterationMetrics) => percent(it.bestVerified), essential: true }] : []),
    { title: 'pass@N', cell: (it) => percent(it.oracle), essential: true },
    { title: 'flips R→W/W→R', cell: (it) => (it.flips ? `${it.flips.majority.rightToWrong}/${it.flips.majority.wrongToRight}` : '-'), essential: false },
    ...(scored ? [{ title: 'mean score', cell: (it: IterationMetrics) => (it.meanScore === null ? '-' : it.meanScore.toFixed(3)), essential: false }] : []),
    ...(banked
      ? [
          { title: 'E bank', cell: (it: IterationMetrics) => it.experienceBank.toFixed(1), essential: false },
          { title: 'G bank', cell: (it: IterationMetrics) => it.guidelineBank.toFixed(1), essential: false },
        ]
      : []),
    ...(unusable.length > 0 ? [{ title: 'unusable', cell: (it: IterationMetrics) => unusableCell(it), essential: false }] : []),
    { title: 'tokens', cell: (it) => kilo(Object.values(it.tokens).reduce((sum, t) => sum + t.prompt + t.completion, 0)), essential: true },
    { title: 'failed', cell: (it) => String(it.failures), essential: true },
  ];
  const shown = columns.filter((column) => options.wide === true || column.essential);
  const header = shown.map((column) => column.title);
  const rows = iterations.map((it) => shown.map((column) => column.cell(it)));
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padStart(widths[column] ?? 0)).join('  ');
  const title = options.simulated ? ['Results per iteration (simulated model: these figures exercise the runtime,', 'they measure no real LLM)'] : ['Results per iteration'];
  const hidden = columns.length - shown.length;
  const footer = hidden > 0 ? wrap(`(--wide adds ${columns.filter((c) => !shown.includes(c)).map((c) => c.title).join(', ')})`, NARROW_WIDTH) : [];
  const hybrid = iterations.some((it) => it.judgeAsked != null && it.judgeAsked < 1);
  const grading = !judged
    ? wrap('Pass@1 is the rule-based grade: no LLM judge ran (name one with --judge-base-url / --judge-model-name for judge grading).', NARROW_WIDTH)
    : !verdicts
      ? wrap("The LLM judge ran but gave no verdict (its unusable outputs are counted above), so Pass@1 and the shares have no value; --wide adds the rule-based grade (Pass@1 rule).", NARROW_WIDTH)
      : hybrid
      ? wrap("The judge graded the share of candidates in parentheses; the rule's verdict stands for the rest: a reply cut before its end (no final answer, 0) and, with --judge-when unsure, those the rule-based grader was sure of.", NARROW_WIDTH)
      : [];
  return [...title, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), ...footer, ...unusable, ...grading].join('\n');
}
