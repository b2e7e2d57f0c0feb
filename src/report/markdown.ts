/**
 * The report as Markdown (`tmas report --format md`), for terminals and pull
 * requests: one table of run totals and one of figures per iteration per run.
 * Tokens are the method's own: the judge's are counted apart (method-spend.ts).
 * Runs that do not compare (graded otherwise, or over other problems or T)
 * are put in groups, named in the table and under it; a role more than the
 * warned share of whose outputs of an iteration were unusable is a warning
 * under the table.
 */
import { PAIRED_RESAMPLES, type PairedCurve } from './bootstrap.ts';
import { differenceFrom } from './charts.ts';
import { differenceBasis, type DifferenceBasis } from './difference-basis.ts';
import { comparisonGroups } from './comparable.ts';
import { pairedReference, unpairedRuns, unpairedSentence } from './unpaired-runs.ts';
import { bestVerifiedPercent, finalPass1, percent, signedPoints } from './format.ts';
import type { ReportRun } from './load.ts';
import { cutCell, methodSpend, methodTokensOf, unusableCell, type MethodSpend } from './method-spend.ts';
import { describeUnusableRole, unusableEffect } from '../observers/role-outputs.ts';
import { unfinishedNote } from './stopped-problems.ts';
import { caveatMarks } from './run-marks.ts';
import { hollowSentence } from './hollow-roles.ts';
import { ALIKE_LEGEND, intervalBracket } from './interval-text.ts';

/** `+8.3 [-4.2, +20.8]`: a paired difference in points at one iteration, with its 95% interval; `–` where the runs share no graded problem. */
function difference(curve: PairedCurve, iteration: number): string {
  const point = curve.points.find(([x]) => x === iteration);
  if (point === undefined) return '–';
  const band = curve.band.find(([x]) => x === iteration);
  const problems = curve.problems.find(([x]) => x === iteration)?.[1] ?? 0;
  return `${signedPoints(point[1])}${intervalBracket(band === undefined ? null : [band[1], band[2]], problems, signedPoints)}`;
}

/**
 * What the difference column holds: from which run each run's difference is taken, over what, with which interval. A
 * difference is as sound as both its terms: where a reference run is marked, the sentence says so, as table1.md's does.
 */
function differenceIntro(runs: ReportRun[], basis: DifferenceBasis, header: string): string {
  const references = [...new Set(runs.flatMap((run) => basis.against(run) ?? []))];
  const from =
    basis.single !== null
      ? basis.single.name
      : `the run it was forked from (${runs.flatMap((run) => { const source = basis.against(run); return source === null || source === run ? [] : [`${run.name} from ${source.name}`]; }).join('; ')}; a run forks came from is its own reference, '0 (the reference)' throughout)`;
  const caveats = references.filter((run) => caveatMarks(run) !== '').map((run) => ` Marked${caveatMarks(run)}: ${run.name}'s own figures carry the caveats noted above, and so does every difference from them.`);
  return `${header}: each run's difference in points from ${from} at the same iteration, over the problems both graded, with its 95% paired bootstrap interval (problems resampled with both figures, ${PAIRED_RESAMPLES.toLocaleString('en')} resamples; ${ALIKE_LEGEND}).${caveats.join('')}`;
}

/**
 * The reference against itself is 0 by construction, not a difference measured on its problems; where it graded
 * no problem at that iteration (its Pass@1 '–') there is no 0 to state either.
 */
function referenceCell(cell: string, isReference: boolean): string {
  return isReference && cell !== '–' ? '0 (the reference)' : cell;
}

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The runs table's token cells: the method's own tokens and per problem solved, then the judge's apart (grading is not the method's spending). */
function tokenCells(spent: MethodSpend): string[] {
  return [String(spent.tokens), spent.tokensPerSolved === null ? '–' : String(spent.tokensPerSolved), spent.judgeCalls === 0 ? '–' : String(spent.judgeTokens)];
}

/** Renders the report of `runs` as Markdown; `leftOut`: the runs found under a folder that it does not show, each with why. */
export function renderReportMarkdown(runs: ReportRun[], leftOut: string[] = []): string {
  const out: string[] = [`# tmas report: ${runs.map((run) => run.name).join(', ')}`, ''];
  for (const entry of leftOut) out.push(`> **left out** of this report: ${entry}`, '');
  const simulated = runs.filter((run) => run.simulated);
  if (simulated.length > 0) {
    out.push(`> **simulated**: ${simulated.map((run) => run.name).join(', ')} ran against the simulated model; these figures exercise the runtime, they measure no real LLM.`, '');
  }
  const groups = comparisonGroups(runs);
  const groupOf = (r: number) => groups.find((group) => group.runs.includes(r))?.name ?? 'A';
  const basis = differenceBasis(runs);
  // At the top, before any figure: which runs get no paired difference, and why (the groups follow the runs table).
  const unpaired = unpairedSentence(unpairedRuns(runs, groups, basis));
  if (unpaired !== null) out.push(`> **${unpaired}**`, '');
  out.push(
    table(
      ['run', 'settings', 'graded by', 'final Pass@1', 'majority', 'best-verified', 'pass@N', 'solved', 'tokens', 'tokens / solved', 'judge tokens', 'unusable', 'cut at limit'],
      runs.map((run, r) => [
        `${run.simulated ? `${run.name} (simulated)` : run.name}${caveatMarks(run)}`,
        run.settings || '–',
        groupOf(r) === 'A' ? run.grading : `${run.grading}: not comparable (group ${groupOf(r)})`,
        finalPass1(run.totals.final?.pass1, run.iterations.at(-1)),
        percent(run.totals.final?.majority),
        bestVerifiedPercent(run.verifier, run.totals.final?.bestVerified),
        percent(run.totals.final?.oracle),
        run.totals.solved === null ? '–' : String(run.totals.solved),
        ...tokenCells(methodSpend(run)),
        unusableCell(methodSpend(run)),
        cutCell(methodSpend(run)),
      ]),
    ),
    '',
  );
  if (groups.length > 1) {
    out.push('**These runs do not all compare** (graded otherwise, or over other problems or T, or not finished): compare figures only within a group.', '');
    for (const group of groups) {
      const apart = group.differences.length === 0 ? '' : `; differs from A in (here vs A): ${group.differences.join('; ')}`;
      out.push(`- group ${group.name}: ${group.runs.map((r) => runs[r]?.name ?? '?').join(', ')}: ${group.label}${apart}`);
    }
    out.push('');
  }
  for (const run of runs) {
    const hollow = hollowSentence(run.strategy ?? run.name, run);
    if (hollow !== null) out.push(`> ✗ ${run.name}: no result of its method: ${hollow}.`, '');
  }
  for (const run of runs) for (const entry of run.unusable) out.push(`> ⚠ ${run.name}: ${describeUnusableRole(entry)}: ${unusableEffect(entry.role)}.`, '');
  for (const run of runs) {
    const stopped = unfinishedNote(run, `. Finish them with: tmas run --resume ${run.dir}`);
    if (stopped !== null) out.push(`> ‡ ${run.name}: ${stopped}`, '');
  }
  const versusHeader = basis === null ? '' : `Pass@1 − ${basis.name}`;
  if (basis) out.push(differenceIntro(runs, basis, versusHeader), '');
  runs.forEach((run, r) => {
    out.push(`## ${run.name}${run.simulated ? ' (simulated)' : ''}${groups.length > 1 ? ` (group ${groupOf(r)})` : ''}`, '');
    // Graded alike over the same problems only: a run set against one graded otherwise has no difference, '–' (said at the top).
    const reference = pairedReference(basis, run);
    const versus = reference === null ? null : differenceFrom(run, reference);
    out.push(
      table(
        ['iteration', 'Pass@1', ...(basis === null ? [] : [versusHeader]), 'majority', 'best-verified', 'pass@N', 'flips R→W / W→R', 'E bank', 'G bank', 'tokens'],
        run.iterations.map((it) => [
          String(it.iteration),
          percent(it.pass1),
          ...(basis === null ? [] : [versus === null ? '–' : referenceCell(difference(versus, it.iteration), reference === run)]),
          percent(it.majority),
          // An iteration without a mean score had no usable verification: its figure (in a metrics.json of an earlier tmas) picked nothing.
          bestVerifiedPercent(run.verifier && it.meanScore !== null, it.bestVerified),
          percent(it.oracle),
          it.flips ? `${it.flips.majority.rightToWrong} / ${it.flips.majority.wrongToRight}` : '–',
          it.experienceBank.toFixed(1),
          it.guidelineBank.toFixed(1),
          String(methodTokensOf(it)),
        ]),
      ),
      '',
    );
  });
  return out.join('\n');
}
