/**
 * A problem's iteration as transcripts: per candidate, every call the
 * strategy made about it (its solution, verifications, summary, judge passes,
 * critiques…) in the order they started, and the calls about the problem as a
 * whole (experience, guideline, a CEO's plan) in a timeline of their own.
 * What a call is about comes from its role's declaration (strategy-outline.ts),
 * so the page never decodes call indices.
 */
import type { Problem } from '../input/problems.ts';
import type { CallRecord, Store } from '../store/store.ts';
import { strategyOutline, type CallSubject, type StrategyOutline } from '../host/strategy/strategy-outline.ts';
import { ordinalKey, problemCallsUnder } from './queries.ts';
import type { ViewedRun } from './viewed-run.ts';

/** Most calls one iteration's transcript reads (TMAS at N = M = 8 with 4 judge passes makes 114). */
export const TRANSCRIPT_CALLS = 2000;

/** What a page knows of a call's texts until it fetches them (held-texts.ts). */
export interface HeldTexts {
  /** Characters of the prompt's messages, together. */
  prompt: number;
  response: number;
  reasoning: number;
  /** The response's start, on one line. */
  preview: string;
}

/** A journaled call with what it is about. */
export type NamedCall = CallRecord & {
  subject: CallSubject | null;
  /** `candidate 3 · judge pass 2`, or the role for a call about the problem. */
  name: string;
  /** Set when the call was made in an earlier iteration than the one shown (majority requests every sample in iteration 0). */
  fromIteration?: number;
  /** Set when its texts are held back (held-texts.ts): its prompt's, response's and reasoning's are empty here. */
  held?: HeldTexts;
};

/** One iteration's transcripts. */
export interface Transcript {
  problem: string;
  iteration: number;
  /** Per candidate that has calls, by candidate number. */
  candidates: Array<{ candidate: number; calls: NamedCall[] }>;
  /** Calls about the problem, not one candidate. */
  problemCalls: NamedCall[];
  /** The iteration had more calls than one transcript reads. */
  truncated: boolean;
}

/** The outline of a viewed run's strategy. */
export function outlineOf(run: ViewedRun): StrategyOutline {
  return strategyOutline(run.manifest.strategy, run.manifest.config.judge.passes);
}

/** What the call of a role at an index is about, and its name: `candidate 3 · judge pass 2`, or the role for a call about the problem. */
export function callSubject(outline: StrategyOutline, role: string, index: number): { subject: CallSubject | null; name: string } {
  const subject = outline.subjectOf(role, index);
  return { subject, name: subject === null ? role : `candidate ${subject.candidate} · ${subject.label}` };
}

/** A call with its subject and name. */
export function nameCall(outline: StrategyOutline, call: CallRecord): NamedCall {
  return { ...call, ...callSubject(outline, call.role, call.index) };
}

/** The problem's calls whose keys go on with `below` (`ITERATION/` or `ITERATION/ROLE/`), at most `limit`. */
async function callsUnder(store: Store, problem: string, below: string, limit: number): Promise<CallRecord[]> {
  const calls: CallRecord[] = [];
  for await (const call of problemCallsUnder(store, problem, below, limit)) calls.push(call);
  return calls;
}

/** Oldest first; calls that started together in key order, so a page is the same at every load. */
function byStart(a: CallRecord, b: CallRecord): number {
  return a.timings.startedAt - b.timings.startedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * The calls of a per-candidate role that made none in `iteration`, from the
 * latest earlier iteration where it made some: majority asks for every sample
 * in iteration 0, self-refine writes its first solutions there. The judge is
 * left out here: a verdict is reused by identical request, not by candidate
 * (earlierJudgeCalls).
 */
async function earlierCalls(store: Store, outline: StrategyOutline, problem: string, iteration: number, present: Set<string>): Promise<NamedCall[]> {
  const found: NamedCall[] = [];
  for (const { role } of outline.roles) {
    if (role === 'judge' || present.has(role) || outline.subjectOf(role, 0) === null) continue;
    for (let earlier = iteration - 1; earlier >= 0; earlier--) {
      const calls = await callsUnder(store, problem, `${earlier}/${role}/`, TRANSCRIPT_CALLS);
      if (calls.length === 0) continue;
      found.push(...calls.map((call) => ({ ...nameCall(outline, call), fromIteration: earlier })));
      break;
    }
  }
  return found;
}

/**
 * The judge calls of candidates written in an earlier iteration and not judged
 * in this one: their verdicts were reused from the identical request of the
 * latest earlier iteration that judged them (majority's samples, a chain that
 * did not change). A candidate written in this iteration is never given an
 * earlier judge call: that one judged another text.
 */
async function earlierJudgeCalls(store: Store, outline: StrategyOutline, problem: string, iteration: number, needing: Set<number>): Promise<NamedCall[]> {
  const found: NamedCall[] = [];
  for (let earlier = iteration - 1; earlier >= 0 && needing.size > 0; earlier--) {
    const judged = new Set<number>();
    for (const call of await callsUnder(store, problem, `${earlier}/judge/`, TRANSCRIPT_CALLS)) {
      const named = nameCall(outline, call);
      if (named.subject === null || !needing.has(named.subject.candidate)) continue;
      found.push({ ...named, fromIteration: earlier });
      judged.add(named.subject.candidate);
    }
    for (const candidate of judged) needing.delete(candidate);
  }
  return found;
}

function byCandidate(calls: NamedCall[]): Map<number, NamedCall[]> {
  const perCandidate = new Map<number, NamedCall[]>();
  for (const call of calls) {
    if (call.subject === null) continue;
    const list = perCandidate.get(call.subject.candidate) ?? [];
    if (list.length === 0) perCandidate.set(call.subject.candidate, list);
    list.push(call);
  }
  return perCandidate;
}

/** The transcripts of `problem` (an id) at `iteration`. */
export async function transcriptOf(run: ViewedRun, problem: string, iteration: number): Promise<Transcript> {
  const outline = outlineOf(run);
  const read = await callsUnder(run.store, problem, `${iteration}/`, TRANSCRIPT_CALLS + 1);
  const truncated = read.length > TRANSCRIPT_CALLS;
  const calls = read.slice(0, TRANSCRIPT_CALLS).map((call) => nameCall(outline, call));
  const present = new Set(calls.map((call) => call.role));
  calls.push(...(await earlierCalls(run.store, outline, problem, iteration, present)));
  if (outline.roles.some((r) => r.role === 'judge')) {
    const needing = new Set<number>();
    for (const [candidate, list] of byCandidate(calls)) {
      if (list.some((call) => call.fromIteration !== undefined) && !list.some((call) => call.role === 'judge')) needing.add(candidate);
    }
    calls.push(...(await earlierJudgeCalls(run.store, outline, problem, iteration, needing)));
  }
  calls.sort(byStart);
  const candidates = [...byCandidate(calls)].sort(([a], [b]) => a - b).map(([candidate, list]) => ({ candidate, calls: list }));
  return { problem, iteration, candidates, problemCalls: calls.filter((call) => call.subject === null), truncated };
}

/** The transcripts of the problem at input position `ordinal`, or undefined when there is no such problem. */
export async function transcriptAt(run: ViewedRun, ordinal: number, iteration: number): Promise<Transcript | undefined> {
  const problem = (await run.store.problems().get(ordinalKey(ordinal))) as Problem | undefined;
  return problem && transcriptOf(run, problem.id, iteration);
}
