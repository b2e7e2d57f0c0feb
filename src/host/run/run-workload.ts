/**
 * Several runs started together as one workload (`tmas table1`'s methods):
 * one gateway for them all, so that each replica has one in-flight limit and
 * one knee whoever's calls it serves, `--concurrency` bounds the calls of
 * every run together, and the held calls of every run wait in one line, the
 * call whose problem has the longest chain left first, whichever run it is
 * in (their ranks share one scale: call-ranks.ts). What one run leaves idle
 * near its end (its last problems' dependent chains) the others fill, so
 * the workload pays one tail instead of one per run.
 *
 * Each run keeps what is its own: its store (resumed or new, as today), its
 * bus, actors, progress and outputs, and the gateway's counts of its calls
 * (a view of the gateway: Gateway.forRun), which its metrics.json gives;
 * routing and scheduling change only when and where its calls go, not what
 * they send, so a run's results are those it has alone. A run that fails
 * ends alone and the others go on; the drain (the first Ctrl-C) stops all of
 * them once their calls in flight are journaled, and the signal (the second,
 * or SIGTERM) at once, each writing its outputs.
 */
import type { Problem } from '../../input/problems.ts';
import { UserError } from '../../kernel/errors.ts';
import { lendPool } from '../../pool/shared-pool.ts';
import { usesSimulator, type RunConfig, type Secrets } from '../../settings/config.ts';
import type { SimServer } from '../../sim/server.ts';
import { createRankScale } from '../calls/call-ranks.ts';
import { startEmbeddedSim } from '../calls/endpoints.ts';
import { runEvaluation, type RunIO, type RunOptions, type RunOutcome } from './run-evaluation.ts';
import { createGatewayOnPool } from './run-gateway.ts';
import { beforeStore, eitherSignal } from './run-stop.ts';
import type { RunDrain } from './run-drain.ts';
import type { SharedRunParts } from './shared-run-parts.ts';
import { createSharedStop } from './shared-stop.ts';

/** One run of a workload. */
export interface WorkloadRun {
  /** Names the run on every line it writes while others run beside it (`[tmas] …`). */
  label: string;
  config: RunConfig;
  secrets: Secrets;
  problems: Problem[];
  options?: Omit<RunOptions, 'signal' | 'drain' | 'shared'>;
}

/** Lines of one run among several: each says which run it is about. On a terminal, plain lines: several live displays would draw over each other. */
export function labelledIO(io: RunIO, label: string): RunIO {
  return { stdout: (line) => io.stdout(`[${label}] ${line}`), stderr: (line) => io.stderr(`[${label}] ${line}`) };
}

/**
 * What runs must agree on to share a pool and a simulated model: the tokenizer (the pool fits every
 * prompt with it) and, among runs on the embedded simulated model, what shapes its replies and the
 * seed (it answers with them); its latency is the first run's. Gateway settings that differ (a run
 * made by an older tmas) are the first run's for all: they change when and where calls go, not what
 * they send. Settings are compared field by field: a manifest upgraded from an older tmas lists its
 * fields in another order.
 */
function checkShareable(runs: readonly WorkloadRun[], io: RunIO): void {
  const first = runs[0] as WorkloadRun;
  const simulated = runs.find((run) => usesSimulator(run.config));
  // Every simulator setting but its latency shapes replies, including ones added later.
  const replies = ({ config }: WorkloadRun) => {
    const { latencyMedianMs: _median, latencyP99Ms: _p99, ...shaping } = config.sim;
    return { ...shaping, seed: config.loop.seed };
  };
  for (const run of runs) {
    const differs =
      run.config.context.tokenizer !== first.config.context.tokenizer ? 'tokenizer' : simulated !== undefined && usesSimulator(run.config) && !sameFields(replies(run), replies(simulated)) ? 'simulated model or seed' : null;
    if (differs !== null) {
      const other = differs === 'tokenizer' ? first : (simulated as WorkloadRun);
      throw new UserError('TMAS_USAGE', `${run.label} and ${other.label} cannot run together: their ${differs} differ, which runs started together share. Give them the same flags; a method stored with other flags can finish alone (tmas run --resume ${run.config.outputs.dir}), or the table start afresh in another --output-file.`);
    }
    if (!sameFields(run.config.gateway, first.config.gateway)) {
      io.stderr(`tmas: warning: ${run.label}'s gateway settings differ from ${first.label}'s; its calls go through the one gateway the runs share, with ${first.label}'s.`);
    }
  }
}

/** Every run's problems, each id once: the shared simulated model answers all of them. */
function allProblems(runs: readonly WorkloadRun[]): Problem[] {
  const byId = new Map<string, Problem>();
  for (const run of runs) for (const problem of run.problems) if (!byId.has(problem.id)) byId.set(problem.id, problem);
  return [...byId.values()];
}

/** Starts the parts the runs share (see shared-run-parts.ts) from the first run's settings: the gateway itself, of which each run gets a view (sharedBy). */
async function startShared(runs: readonly WorkloadRun[], io: RunIO, stop: WorkloadStop): Promise<Omit<SharedRunParts, 'sharedWith'>> {
  const { config } = runs[0] as WorkloadRun;
  const simulated = runs.find((run) => usesSimulator(run.config) && run.options?.offline !== true);
  const sim: SimServer | null = simulated === undefined ? null : await beforeStore(startEmbeddedSim(simulated.config, allProblems(runs), io.stderr), eitherSignal(stop.signal, stop.drain?.signal), (started) => started.close());
  const pool = lendPool({ encoding: config.context.tokenizer, digest: config.context.tokenizerDigest });
  const gateway = createGatewayOnPool(config.gateway, pool, io.stderr);
  return { pool, gateway, sim, rankScale: createRankScale(), stop: createSharedStop() };
}

/**
 * A signal of one run that aborts with `signal`: each run adds its own listeners to its own, so that
 * six runs on one Ctrl-C do not pass Node's ten listeners a signal may have before it warns.
 */
function ownSignal(signal: AbortSignal | undefined): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const own = new AbortController();
  if (signal.aborted) own.abort(signal.reason);
  else signal.addEventListener('abort', () => own.abort(signal.reason), { once: true });
  return own.signal;
}

/** What stops a workload: its signal (abort at once) and its drain (the first Ctrl-C: calls in flight finish first). */
export interface WorkloadStop {
  signal?: AbortSignal | undefined;
  drain?: RunDrain | undefined;
}

/** The drain of one run: its own signal (ownSignal), the workload's watch. */
function ownDrain(drain: RunDrain | undefined): RunDrain | undefined {
  return drain === undefined ? undefined : { signal: ownSignal(drain.signal) as AbortSignal, watch: drain.watch };
}

/**
 * Runs `runs` together through one gateway until each has ended; resolves
 * with each run's outcome or error, in their order. A single run runs as
 * `tmas run` runs it (its own gateway, its live display).
 */
export async function runWorkload(runs: readonly WorkloadRun[], io: RunIO, stop: WorkloadStop = {}): Promise<Array<PromiseSettledResult<RunOutcome>>> {
  const { signal, drain } = stop;
  const run = (one: WorkloadRun, runIo: RunIO, shared?: SharedRunParts) =>
    runEvaluation(one.config, one.secrets, one.problems, runIo, {
      ...one.options,
      ...(signal === undefined ? {} : { signal: ownSignal(signal) }),
      ...(drain === undefined ? {} : { drain: ownDrain(drain) }),
      ...(shared === undefined ? {} : { shared }),
    });
  if (runs.length <= 1) return Promise.allSettled(runs.map((one) => run(one, io)));
  checkShareable(runs, io);
  const shared = await startShared(runs, io, stop);
  try {
    return await Promise.allSettled(runs.map((one) => run(one, labelledIO(io, one.label), sharedBy(one, runs, shared))));
  } finally {
    shared.gateway.close();
    await shared.sim?.close();
    await shared.pool.close();
  }
}

/** What `one` of `runs` is given of the parts they share: its own view of the gateway, and the others' labels. */
function sharedBy(one: WorkloadRun, runs: readonly WorkloadRun[], shared: Omit<SharedRunParts, 'sharedWith'>): SharedRunParts {
  return { ...shared, gateway: shared.gateway.forRun(), sharedWith: runs.filter((other) => other !== one).map((other) => other.label) };
}

/** Whether two settings objects hold the same fields with the same values, in whatever order. */
function sameFields(a: object, b: object): boolean {
  const [x, y] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  return [...keys].every((key) => JSON.stringify(x[key]) === JSON.stringify(y[key]));
}
