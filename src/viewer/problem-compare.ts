/**
 * One problem side by side in several runs of the viewer (`/api/compare?runs=0,1&problem=ID`):
 * per iteration, each call next to its counterparts with whether their requests are the same,
 * and each candidate's answer and grade next to its counterparts; the first call whose requests
 * differ, and the first candidate where the runs' answers or grades part. Calls are read without
 * their texts (the page fetches a call's texts when it is opened), at most COMPARE_CALLS per run.
 */
import type { IterationRecord } from '../store/store.ts';
import { alignCalls, alignCandidates, type CallOutline, type CallRow, type CandidateRow } from './call-alignment.ts';
import { forkParent, type ForkLink } from './fork-link.ts';
import { problemOrdinal } from './problem-key.ts';
import { problemDifferences } from '../input/problem-identity.ts';
import { problemDetail } from './queries.ts';
import type { RunCatalog } from './run-catalog.ts';
import { settingsLine } from '../settings/settings-line.ts';
import { callSubject, outlineOf } from './transcript.ts';
import type { ViewedRun } from './viewed-run.ts';

/** Most calls of the problem read per run. */
export const COMPARE_CALLS = 20_000;

/** A run of the comparison. */
export interface ComparedRun {
  index: number;
  name: string;
  strategy: string;
  /**
   * The settings its strategy reads, with its agents module and prompt templates by name and digest
   * (settings-line.ts, as its own page and the report say them): two forks of one module edited
   * between them, both `changed: --agents`, read apart.
   */
  settings: string;
  /** Whether the run has the problem. */
  present: boolean;
  /** The run it was made from, when the viewer has it. */
  fork: ForkLink | null;
  /** It has more calls of the problem than were read. */
  truncated: boolean;
  /** What of its problem differs from the problem the page shows (the first run's that has it): `question`, `reference answer`. */
  problemDiffers: string[];
}

/** One iteration side by side. */
export interface ComparedIteration {
  iteration: number;
  candidates: CandidateRow[];
  calls: CallRow[];
}

/** The answer of `/api/compare`. */
export interface ProblemComparison {
  problem: { id: string; question: string; answer: string | null };
  runs: ComparedRun[];
  iterations: ComparedIteration[];
  /** The first call, in iteration order and then the order calls started, whose requests differ (or that a run lacks). */
  firstDifference: Pick<CallRow, 'slot' | 'iteration' | 'role' | 'index' | 'name'> | null;
  /** The first candidate, by iteration and number, where an answer or a grade differs. */
  firstParting: Pick<CandidateRow, 'iteration' | 'candidate'> | null;
}

interface RunSide {
  run: ViewedRun;
  problem: { id: string; question: string; answer?: string } | null;
  records: IterationRecord[];
  calls: CallOutline[];
  truncated: boolean;
}

async function callsOf(run: ViewedRun, id: string): Promise<{ calls: CallOutline[]; truncated: boolean }> {
  const calls: CallOutline[] = [];
  const prefix = `${id}/`;
  // Without texts: what the alignment reads is in the key and the timings.
  for await (const call of run.store.callFields(['key', 'role', 'problem', 'iteration', 'index', 'timings', 'usage'], { gte: prefix, lt: `${prefix}\uffff` })) {
    if (call.problem !== id) continue;
    if (calls.length === COMPARE_CALLS) return { calls, truncated: true };
    calls.push({ key: call.key, role: call.role, iteration: call.iteration, index: call.index, startedAt: call.timings.startedAt, tokens: call.usage ? call.usage.promptTokens + call.usage.completionTokens : null });
  }
  return { calls, truncated: false };
}

async function sideOf(run: ViewedRun, key: string): Promise<RunSide> {
  const ordinal = await problemOrdinal(run.store, key);
  const detail = ordinal === undefined ? undefined : await problemDetail(run.store, ordinal);
  if (!detail) return { run, problem: null, records: [], calls: [], truncated: false };
  return { run, problem: detail.problem, records: detail.iterations, ...(await callsOf(run, detail.problem.id)) };
}


function byIteration(calls: CallRow[], candidates: CandidateRow[]): ComparedIteration[] {
  const iterations = [...new Set([...calls.map((row) => row.iteration), ...candidates.map((row) => row.iteration)])].sort((a, b) => a - b);
  return iterations.map((iteration) => ({ iteration, calls: calls.filter((row) => row.iteration === iteration), candidates: candidates.filter((row) => row.iteration === iteration) }));
}

/** Problem `key` (its id, or a position) in the catalog's runs `indexes`, side by side; undefined when no run has it. */
export async function compareProblem(catalog: RunCatalog, indexes: number[], key: string): Promise<ProblemComparison | undefined> {
  const sides = await Promise.all(indexes.map(async (index) => sideOf(await catalog.run(index), key)));
  const first = sides.find((side) => side.problem !== null);
  if (!first?.problem) return undefined;
  const shown = first.problem;
  const outline = outlineOf(first.run);
  const calls = alignCalls(
    sides.map((side) => side.calls),
    (role, index) => callSubject(outline, role, index).name,
  );
  const candidates = alignCandidates(sides.map((side) => side.records));
  const differing = calls.find((row) => !row.same);
  const parting = candidates.find((row) => row.parts);
  const runs = await Promise.all(
    sides.map(async (side, at) => {
      const index = indexes[at] ?? -1;
      const problemDiffers = side.problem === null ? [] : problemDifferences(shown, side.problem);
      const { name, manifest } = side.run;
      const settings = settingsLine(manifest.config, manifest.strategy);
      return { index, name, strategy: manifest.strategy, settings, present: side.problem !== null, fork: await forkParent(catalog, index, side.run), truncated: side.truncated, problemDiffers };
    }),
  );
  return {
    problem: { id: first.problem.id, question: first.problem.question, answer: first.problem.answer ?? null },
    runs,
    iterations: byIteration(calls, candidates),
    firstDifference: differing ? { slot: differing.slot, iteration: differing.iteration, role: differing.role, index: differing.index, name: differing.name } : null,
    firstParting: parting ? { iteration: parting.iteration, candidate: parting.candidate } : null,
  };
}
