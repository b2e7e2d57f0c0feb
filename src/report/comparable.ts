/**
 * Which runs' accuracy figures compare: those graded alike, with
 * one budget (the models under test, the window, the completion limit, N),
 * over the same problems, for the same number of iterations T, each done (a
 * run stopped before T has no final figures to set beside a finished one's). Runs are put
 * in groups of runs that agree on all of these; a report draws each group's
 * accuracy charts apart and names what sets a group apart from the first.
 *
 * How a run was graded is read from metrics.json's evaluation block without
 * knowing its fields: `grading`, `proof`, every field whose name starts with
 * `judge` (the judge block and whatever is added to it or beside it), and the
 * judge slot's sampling when a judge graded. Two runs grade alike when those
 * are deep-equal; otherwise the fields that differ are named by their path.
 */
import { isDeepStrictEqual } from 'node:util';
import { problemDifferences, type ProblemIdentity } from '../input/problem-identity.ts';
import type { ReportRun } from './load.ts';

/** What decides whether a run's accuracy figures compare with another's. */
export interface ComparisonBasis {
  /** The grading part of the evaluation block (see the module comment); null for a run made before the block was written. */
  grading: Record<string, unknown> | null;
  /** What the method under test was given: its models (the judge's is part of grading), window, completion limit and N; null before the evaluation block. */
  budget: Record<string, unknown> | null;
  /** The run's problem ids, sorted. */
  problems: string[];
  /** Each problem's question and reference answer (digests), by id; null when the run's store could not be read. */
  identities: ReadonlyMap<string, ProblemIdentity> | null;
  maxIterations: number | null;
  /** The iterations every problem completed, when fewer than T (a run stopped or still going: its last figures are no final ones); null when it did all T. */
  iterationsDone: number | null;
}

/** Runs that compare with each other. */
export interface RunGroup {
  /** `A`, `B`, …: the first group holds the most runs (on a tie, the TMAS run's, else the finished and whole runs', else the first run's). */
  name: string;
  /** Indexes of its runs in the report's order. */
  runs: number[];
  /** What its runs share, e.g. `graded by judge m ×4 · 12 problems · T=20`. */
  label: string;
  /** How it differs from the first group (empty for the first group). */
  differences: string[];
}

/** What a comparison reads of a run: a ReportRun has it, and so has the viewer's listing of a run. */
export type ComparedRun = Pick<ReportRun, 'evaluation' | 'maxIterations' | 'grading'> & {
  problems: Array<{ problem: string }>;
  iterations: ReadonlyArray<{ problems: number }>;
  /** The method, where known: the group holding the TMAS run is the reference on a tie. */
  strategy?: string | null;
  /** The problems' iterations calls that failed for good stopped, where known: a group with none is the reference on a tie. */
  stopped?: readonly unknown[];
  /** Each problem's question and reference answer (digests), by id, where known: a problem of one id with another question is another problem. */
  identities?: ReadonlyMap<string, ProblemIdentity> | null;
};

/**
 * The iterations every problem of a run completed, when fewer than its T; null when it did them all
 * (or T is unknown). A run stopped after one of three iterations had its iteration 0 figures read
 * as final beside a finished run's iteration 2, in the same group.
 */
export function iterationsDone(run: ComparedRun): number | null {
  const problems = Math.max(0, ...run.iterations.map((it) => it.problems));
  const done = run.iterations.filter((it) => it.problems === problems).length;
  return run.maxIterations === null || done >= run.maxIterations ? null : done;
}

/** The fields of an evaluation block that say how candidates were graded. */
export function gradingFields(evaluation: Record<string, unknown> | null): Record<string, unknown> | null {
  if (evaluation === null) return null;
  const picked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(evaluation)) {
    if (key === 'grading' || key === 'proof' || key.startsWith('judge')) picked[key] = value;
  }
  const sampling = evaluation.sampling;
  if (evaluation.grading === 'judge' && typeof sampling === 'object' && sampling !== null && 'judge' in sampling) picked['sampling.judge'] = (sampling as Record<string, unknown>).judge;
  return picked;
}

/**
 * The completion limit a run's calls had: its recorded limit, or null ('window': what the window
 * leaves after the prompt) when there was none or it was not below the window. A strategy's upstream
 * budget that the window cannot hold (rse's 38,912 in a 32,768 window) is cut to what the window
 * leaves on every call, so the run had no other limit than a run without one: its table column named
 * a limit no call was given and marked the others as run under another budget.
 */
export function effectiveCompletionLimit(evaluation: Record<string, unknown> | null): number | null {
  const limit = evaluation?.completionMaxTokens;
  const window = evaluation?.contextWindow;
  if (typeof limit !== 'number') return null;
  return typeof window === 'number' && limit >= window ? null : limit;
}

/** The fields of an evaluation block that say what budget the method under test had. */
export function budgetFields(evaluation: Record<string, unknown> | null): Record<string, unknown> | null {
  if (evaluation === null) return null;
  const { judge: _, ...models } = (evaluation.models ?? {}) as Record<string, unknown>;
  return { models, contextWindow: evaluation.contextWindow, completionMaxTokens: effectiveCompletionLimit(evaluation), nCandidates: evaluation.nCandidates };
}

/** The basis of a run's comparison. */
export function comparisonBasis(run: ComparedRun): ComparisonBasis {
  return {
    grading: gradingFields(run.evaluation),
    budget: budgetFields(run.evaluation),
    problems: run.problems.map((p) => p.problem).sort(),
    identities: run.identities ?? null,
    maxIterations: run.maxIterations,
    iterationsDone: iterationsDone(run),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  return value === undefined ? 'absent' : JSON.stringify(value);
}

/** Adds to `out` every field of two JSON values that differs, by its dotted path, as deep as both sides are objects. */
function differing(a: unknown, b: unknown, path: string, out: string[]): string[] {
  if (isDeepStrictEqual(a, b)) return out;
  if (isRecord(a) && isRecord(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) differing(a[key], b[key], path === '' ? key : `${path}.${key}`, out);
  } else out.push(`${path}: ${show(a)} vs ${show(b)}`);
  return out;
}

/** How two runs were graded, in the words of the report's runs table (load.ts's gradingOf), `a`'s then `b`'s. */
export type GradingWords = [string, string];

/** A grading field that only a judge's grading has: where one run was graded by a judge and the other by the rule, each differs as a whole. */
function judgeField(key: string): boolean {
  return key.startsWith('judge') || key === 'sampling.judge';
}

/**
 * The fields that differ between two runs' grading, each as `path: a vs b`. Where one was graded by a judge and the
 * other by the rule, and `words` says how each was, that is one line in those words (`grading: judge m ×4 (T 0.6)
 * vs rule`), not the judge block as JSON against null with its every field again.
 */
export function gradingDifferences(a: Record<string, unknown> | null, b: Record<string, unknown> | null, words?: GradingWords): string[] {
  if (a === null || b === null) return a === b ? [] : [`evaluation block: ${a === null ? 'absent' : 'present'} vs ${b === null ? 'absent' : 'present'} (a run made before metrics.json recorded it)`];
  if (words === undefined || a.grading === b.grading) return differing(a, b, '', []);
  const rest = (fields: Record<string, unknown>) => Object.fromEntries(Object.entries(fields).filter(([key]) => key !== 'grading' && !judgeField(key)));
  return [`grading: ${words[0]} vs ${words[1]}`, ...differing(rest(a), rest(b), '', [])];
}

/** The ids both bases hold whose question or reference answer differ (where both runs' stores say), with what differs. */
function otherProblems(a: ComparisonBasis, b: ComparisonBasis): Array<{ id: string; what: string[] }> {
  if (a.identities === null || b.identities === null) return [];
  const { identities: mine } = a;
  return [...b.identities].flatMap(([id, theirs]) => {
    const own = mine.get(id);
    const what = own === undefined ? [] : problemDifferences(theirs, own);
    return what.length === 0 ? [] : [{ id, what }];
  });
}

/** Whether two runs compare: their bases agree, each problem's question and answer too where both stores say. */
function sameBasis(a: ComparisonBasis, b: ComparisonBasis): boolean {
  return isDeepStrictEqual({ ...a, identities: null }, { ...b, identities: null }) && otherProblems(a, b).length === 0;
}

/** `; only here: p1, p2 (3 in all)`: the first few of `ids` under `label`, or nothing when there are none. */
function namedIds(label: string, ids: string[]): string {
  if (ids.length === 0) return '';
  const shown = ids.slice(0, 5).join(', ');
  return `; ${label}: ${shown}${ids.length > 5 ? `, … (${ids.length} in all)` : ''}`;
}

/** What sets basis `a` apart from basis `b`: grading fields (`words`: how each was graded, see gradingDifferences), budget fields, problems (and problems of one id that are not one), T. */
export function basisDifferences(a: ComparisonBasis, b: ComparisonBasis, words?: GradingWords): string[] {
  const out = gradingDifferences(a.grading, b.grading, words);
  if (a.budget !== null && b.budget !== null) differing(a.budget, b.budget, '', out);
  const others = otherProblems(a, b);
  if (!isDeepStrictEqual(a.problems, b.problems) || others.length > 0) {
    const theirs = new Set(b.problems);
    const mine = new Set(a.problems);
    const shared = a.problems.filter((id) => theirs.has(id)).length - others.length;
    const apart = others.length === 0 ? '' : `; ${others.length} more of the same id ${others.length === 1 ? 'is another problem' : 'are other problems'}, never paired: ${others.slice(0, 5).map(({ id, what }) => `${id} (its ${what.join(' and ')})`).join(', ')}${others.length > 5 ? ', …' : ''}`;
    // Named, not only counted: "3 vs 3 (2 in common)" left the reader to find which problem each run lacks.
    const onlyHere = namedIds('only here', a.problems.filter((id) => !theirs.has(id)));
    const onlyThere = namedIds('only there', b.problems.filter((id) => !mine.has(id)));
    out.push(`problems: ${a.problems.length} vs ${b.problems.length} (${shared} in common${apart}${onlyHere}${onlyThere})`);
  }
  if (a.maxIterations !== b.maxIterations) out.push(`T: ${a.maxIterations ?? '?'} vs ${b.maxIterations ?? '?'}`);
  if (a.iterationsDone !== b.iterationsDone) out.push(`iterations done: ${a.iterationsDone ?? 'all'} vs ${b.iterationsDone ?? 'all'}`);
  return out;
}

/**
 * Which of groups of equal size is the reference, lowest first: the one holding the TMAS run (the method every
 * difference is taken from), then one whose runs are finished and whole (no problem stopped by failed calls, every
 * iteration done), then the first run's (a stable sort). Taking the first run's alone marked the methods that
 * kept every problem as the ones apart ("problems: 6 vs 4") when the first run listed was the one that lost some.
 */
function tieRank(runs: ComparedRun[], bases: ComparisonBasis[], members: number[][], group: number): number {
  const inGroup = (members[group] ?? []).map((r) => runs[r]);
  const holdsTmas = inGroup.some((run) => run?.strategy === 'tmas');
  const whole = bases[group]?.iterationsDone === null && inGroup.every((run) => (run?.stopped?.length ?? 0) === 0);
  return (holdsTmas ? 0 : 2) + (whole ? 0 : 1);
}

/** Groups of runs whose accuracy figures compare, the largest first (tieRank orders groups of one size). */
export function comparisonGroups(runs: ComparedRun[]): RunGroup[] {
  const bases: ComparisonBasis[] = [];
  const members: number[][] = [];
  runs.forEach((run, index) => {
    const basis = comparisonBasis(run);
    const at = bases.findIndex((known) => sameBasis(known, basis));
    if (at >= 0) members[at]?.push(index);
    else {
      bases.push(basis);
      members.push([index]);
    }
  });
  const order = bases.map((_, i) => i).sort((a, b) => (members[b]?.length ?? 0) - (members[a]?.length ?? 0) || tieRank(runs, bases, members, a) - tieRank(runs, bases, members, b));
  const first = bases[order[0] ?? 0];
  const firstRun = runs[members[order[0] ?? 0]?.[0] ?? 0];
  return order.map((i, rank) => {
    const basis = bases[i] as ComparisonBasis;
    const run = runs[members[i]?.[0] ?? 0];
    const stopped = basis.iterationsDone === null ? '' : ` (${basis.iterationsDone} done: not finished)`;
    const label = `graded by ${run?.grading ?? '?'} · ${basis.problems.length} problems · T=${basis.maxIterations ?? '?'}${stopped}`;
    return { name: String.fromCharCode(65 + (rank % 26)), runs: members[i] ?? [], label, differences: rank === 0 || !first ? [] : basisDifferences(basis, first, [run?.grading ?? '?', firstRun?.grading ?? '?']) };
  });
}
