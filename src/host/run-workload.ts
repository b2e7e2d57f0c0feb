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
 * bus, actors, progress and outputs; routing and scheduling change only
 * when and where its calls go, not what they send, so a run's results are
 * those it has alone. A run that fails ends alone and the others go on;
 * the signal (Ctrl-C) stops all of them, each writing its outputs.
 */
import type { Problem } from '../input/problems.ts';
import { UserError } from '../kernel/errors.ts';
import { createPool } from '../pool/pool.ts';
import { usesSimulator, type RunConfig, type Secrets } from '../settings/config.ts';
import type { SimServer } from '../sim/server.ts';
import { createRankScale } from './call-ranks.ts';
import { startEmbeddedSim } from './endpoints.ts';
import { runEvaluation, type RunIO, type RunOptions, type RunOutcome } from './run-evaluation.ts';
import { createRunGateway } from './run-gateway.ts';
import { beforeStore } from './run-stop.ts';
import type { SharedRunParts } from './shared-run-parts.ts';

/** One run of a workload. */
export interface WorkloadRun {
  /** Names the run on every line it writes while others run beside it (`[tmas] …`). */
  label: string;
  config: RunConfig;
  secrets: Secrets;
  problems: Problem[];
  options?: Omit<RunOptions, 'signal' | 'shared'>;
}

/** Lines of one run among several: each says which run it is about. On a terminal, plain lines: several live displays would draw over each other. */
export function labelledIO(io: RunIO, label: string): RunIO {
  return { stdout: (line) => io.stdout(`[${label}] ${line}`), stderr: (line) => io.stderr(`[${label}] ${line}`) };
}

/** The settings runs must agree on to share a gateway and a pool: the first run's are used. */
function checkShareable(runs: readonly WorkloadRun[]): void {
  const first = runs[0] as WorkloadRun;
  const shared = (config: RunConfig) => ({ gateway: config.gateway, tokenizer: config.context.tokenizer, simulated: usesSimulator(config), sim: config.sim, seed: config.loop.seed });
  const expected = JSON.stringify(shared(first.config));
  const other = runs.find((run) => JSON.stringify(shared(run.config)) !== expected);
  if (other !== undefined) {
    throw new UserError(
      'TMAS_USAGE',
      `${other.label} and ${first.label} cannot run together: they differ in their gateway settings, tokenizer, simulated model or seed, which runs started together share. ` +
        'Give the same flags to both (or run them one at a time).',
    );
  }
}

/** Every run's problems, each id once: the shared simulated model answers all of them. */
function allProblems(runs: readonly WorkloadRun[]): Problem[] {
  const byId = new Map<string, Problem>();
  for (const run of runs) for (const problem of run.problems) if (!byId.has(problem.id)) byId.set(problem.id, problem);
  return [...byId.values()];
}

/** Starts the parts the runs share (see shared-run-parts.ts) from the first run's settings. */
async function startShared(runs: readonly WorkloadRun[], io: RunIO, signal: AbortSignal | undefined): Promise<SharedRunParts> {
  const { config } = runs[0] as WorkloadRun;
  const offline = runs.every((run) => run.options?.offline === true);
  const sim: SimServer | null = usesSimulator(config) && !offline ? await beforeStore(startEmbeddedSim(config, allProblems(runs), io.stderr), signal, (started) => started.close()) : null;
  const pool = createPool({ encoding: config.context.tokenizer });
  const gateway = createRunGateway(config.gateway, {
    encodeJson: (value) => pool.encodeJson(value),
    say: io.stderr,
    countTokens: (texts, aborted) => pool.countTokens(texts, aborted === undefined ? {} : { signal: aborted }),
  });
  return { pool, gateway, sim, rankScale: createRankScale() };
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

/**
 * Runs `runs` together through one gateway until each has ended; resolves
 * with each run's outcome or error, in their order. A single run runs as
 * `tmas run` runs it (its own gateway, its live display).
 */
export async function runWorkload(runs: readonly WorkloadRun[], io: RunIO, signal?: AbortSignal): Promise<Array<PromiseSettledResult<RunOutcome>>> {
  const run = (one: WorkloadRun, runIo: RunIO, shared?: SharedRunParts) =>
    runEvaluation(one.config, one.secrets, one.problems, runIo, { ...one.options, ...(signal === undefined ? {} : { signal: ownSignal(signal) }), ...(shared === undefined ? {} : { shared }) });
  if (runs.length <= 1) return Promise.allSettled(runs.map((one) => run(one, io)));
  checkShareable(runs);
  const shared = await startShared(runs, io, signal);
  try {
    return await Promise.allSettled(runs.map((one) => run(one, labelledIO(io, one.label), shared)));
  } finally {
    shared.gateway.close();
    await shared.sim?.close();
    await shared.pool.close();
  }
}
