/**
 * The viewer's JSON answers, one type per address: what the server sends
 * (server.ts, folder-api.ts) and what the page's script (browser/) reads.
 * Types only, taken from the functions that make each answer so that the two
 * sides cannot drift apart: the browser's bundle imports nothing else of the
 * server, and these imports vanish from it.
 */
import type { Envelope } from '../kernel/protocol.ts';
import type { IterationMetrics } from '../observers/metrics.ts';
import type { BankRecord } from '../store/store.ts';
import type { listRuns } from './folder-api.ts';
import type { problemList } from './problem-stats.ts';
import type { problemDetail, problemPage } from './queries.ts';
import type { NamedCall } from './transcript.ts';

export type { RunListing } from './run-listing.ts';
export type { Overlay } from './run-compare.ts';
export type { ProblemListRow, RunProblemStats } from './problem-stats.ts';
export type { ProblemRow } from './queries.ts';
export type { RunSummary } from './run-summary.ts';
export type { NamedCall, Transcript } from './transcript.ts';
export type { CandidateResult } from '../kernel/protocol.ts';
export type { ProblemComparison, ComparedIteration, ComparedRun } from './problem-compare.ts';
export type { CallRow, CandidateRow } from './call-alignment.ts';
export type { ForkLink } from './fork-link.ts';

/** `/api/runs`: every run's row. */
export type RunsAnswer = Awaited<ReturnType<typeof listRuns>>;
/** `/api/problem-list?runs=…`: one page of the problem list across runs. */
export type ProblemListAnswer = { runs: number[] } & ReturnType<typeof problemList>;
/** `/api/runs/R/curves`. */
export interface CurvesAnswer {
  live: boolean;
  iterations: IterationMetrics[];
}
/** `/api/runs/R/problems`: one page of the run's problem table. */
export type ProblemPageAnswer = Awaited<ReturnType<typeof problemPage>>;
/** `/api/runs/R/problems/P`: the problem and its completed iterations. */
export type ProblemDetailAnswer = NonNullable<Awaited<ReturnType<typeof problemDetail>>>;
/** `/api/runs/R/problems/P/banks/T`. */
export type BanksAnswer = BankRecord;
/** `/api/runs/R/calls`: one page of journaled calls, named. */
export interface CallPageAnswer {
  calls: NamedCall[];
  next: string | null;
}
/** `/api/runs/R/messages`: one page of the message log, with sequence keys. */
export interface MessagePageAnswer {
  messages: Envelope[];
  next: string | null;
}
/** `/download/R/call?key=K`: one journaled call with what it is about. */
export interface CallDownload {
  run: string;
  strategy: string;
  simulated: boolean;
  call: NamedCall;
}
