/**
 * The runtime: puts the parts together for one run, stage by stage. It
 * starts up (the pool, the endpoints, the simulated model when no endpoint is
 * given, the checks that stop a run before anything is written), opens the
 * store (run-store-open.ts), the gateway (run-gateway.ts) and the bus with its
 * observers (run-observers.ts), runs the run actor (run-machine.ts) to its
 * end or a stop, and writes the outputs.
 */
import { preloadMathjs } from '../../grader/index.ts';
import type { Observable } from 'rxjs';
import { toPromise, type AnyActorRef } from 'xstate';
import { createCallFailures, type StoppedIteration } from '../calls/call-failures.ts';
import { deliver, postTo } from '../delivery.ts';
import { expectedCallsByProblem } from '../problem-inputs.ts';
import type { Strategy } from '../../../machines/strategies/index.ts';
import { strategyNamed } from '../../../machines/strategies/index.ts';
import { applyPromptTemplates } from '../strategy/prompt-templates.ts';
import { moduleMachineRoles, watchModuleMachines } from '../strategy/module-machine-watch.ts';
import type { RunConfig, Secrets } from '../../settings/config.ts';
import { isUserError, TmasError, UserError, type ErrorCode } from '../../kernel/errors.ts';
import type { Gateway } from '../../gateway/gateway.ts';
import { createBus } from '../../kernel/bus.ts';
import { prepareEndpoints, type PreparedEndpoints } from '../calls/endpoints.ts';
import { createLlmCall, type CallCounts } from '../calls/llm-call.ts';
import { endpointFor, promptBudget } from '../calls/call-key.ts';
import { createCallRanks } from '../calls/call-ranks.ts';
import type { IterationMetrics } from '../../observers/metrics.ts';
import { tokenizerLoadError, type Pool } from '../../pool/pool.ts';
import { lendPool } from '../../pool/shared-pool.ts';
import { forcedChangeWarning } from './forced-changes.ts';
import { isHfTokenizerName } from '../../../workers/hf-tokenizer.ts';
import type { Problem } from '../../input/problems.ts';
import { resumedMetricsCollector, runMetricsFromLog } from '../../observers/log-metrics.ts';
import { countUnsentCalls, unsentCallWarnings } from '../../observers/unsent-calls.ts';
import { ENDPOINT_SLOTS, type Envelope } from '../../kernel/protocol.ts';
import { checkOutputsWritable, writeOutputs } from '../outputs/outputs.ts';
import { beforeStore, eitherSignal, whenStopped } from './run-stop.ts';
import { stopOnceJournaled, whenDrained, type RunDrain } from './run-drain.ts';
import { createCallsInFlight } from '../calls/calls-in-flight.ts';
import type { ForkedFrom, Store } from '../../store/store.ts';
import type { JournalSource } from '../calls/journal-source.ts';
import type { RunManifest } from './run-manifest.ts';
import { ensureFreshOutputDir } from '../outputs/output-dir.ts';
import { createGatewayOnPool } from './run-gateway.ts';
import { createRunActor } from './run-machine.ts';
import { lostAnnouncements } from './lost-announcements.ts';
import { observeRun } from './run-observers.ts';
import { openRunStore } from './run-store-open.ts';
import type { SharedRunParts } from './shared-run-parts.ts';
import { writeFailureFix } from '../../store/write-failure.ts';

/** Where the runtime writes what the user reads. */
export interface RunIO {
  stdout(line: string): void;
  stderr(line: string): void;
  /** A terminal for the live progress display; plain progress lines on `stderr` when absent. */
  terminal?: NodeJS.WriteStream | undefined;
}

/** What a benchmark or a monitor may watch while a run goes: the gateway's counters and the bus. */
export interface RunObservables {
  gateway: Pick<Gateway, 'stats'>;
  envelopes$: Observable<Envelope>;
}

/** What a viewer of the running run reads: its store, manifest, live metrics and bus. */
export interface LiveRunParts {
  store: Store;
  manifest: RunManifest;
  metrics: () => IterationMetrics[];
  envelopes$: Observable<Envelope>;
}

/** What a finished run reports. */
export interface RunOutcome {
  outputDir: string;
  simulated: boolean;
  iterations: IterationMetrics[];
  calls: CallCounts;
  wallSeconds: number;
  /** Problems stopped at an iteration with calls that failed for good (not marked; a resume issues them again). */
  stopped: StoppedIteration[];
}

/** Errors that stop a run as Ctrl-C does, then report themselves: an endpoint down, a refused key, a spent quota, a model no longer served, a chat route no longer there, a base URL that redirects, an endpoint that answers streams with JSON that is no completion, a field a flag sets that the endpoint refuses. */
const STOPPING_CODES: ReadonlySet<string> = new Set(['TMAS_ENDPOINT_DOWN', 'TMAS_AUTH', 'TMAS_PROXY', 'TMAS_QUOTA', 'TMAS_RATE_LIMITED', 'TMAS_MODEL_NOT_SERVED', 'TMAS_ENDPOINT', 'TMAS_REDIRECTED', 'TMAS_NOT_STREAMED', 'TMAS_WEB_PAGE', 'TMAS_FIELD_REFUSED'] satisfies ErrorCode[]);

/** The questions that alone exceed the prompt budget (`counting`: their tokens), as `id (n tokens)`, and the budget. */
async function unfitQuestions(counting: Promise<number[]>, problems: Problem[], config: RunConfig): Promise<{ budget: number; unfit: string[] }> {
  const budget = promptBudget(config.context.window);
  const counts = await counting;
  return { budget, unfit: problems.flatMap((problem, i) => ((counts[i] ?? 0) > budget ? [`${problem.id} (${counts[i]} tokens)`] : [])) };
}

/** Warns before anything is sent about questions that alone exceed the prompt budget: their calls will not be sent. */
async function warnUnfit(counting: Promise<number[]>, problems: Problem[], config: RunConfig, io: RunIO): Promise<void> {
  const { budget, unfit } = await unfitQuestions(counting, problems, config);
  if (unfit.length === 0) return;
  io.stderr(
    `tmas: warning: ${unfit.length} question(s) cannot fit the prompt budget of ${budget} tokens (--max-tokens ${config.context.window}) even alone: ${unfit.slice(0, 10).join(', ')}${unfit.length > 10 ? ', …' : ''}. ` +
      'Their calls are not sent; each candidate records TMAS_CONTEXT_LENGTH. Raise --max-tokens if the model\'s window allows.',
  );
}

/**
 * Warns before anything is sent of the problems a --no-proof run cannot grade, for want of a reference answer
 * (a blank or null one, or none): they were only counted out of the table's "graded" at the end.
 */
function warnUngraded(problems: Problem[], config: RunConfig, io: RunIO): void {
  if (config.loop.proof) return;
  const ungraded = problems.filter((problem) => problem.answer === undefined || problem.answer.trim() === '').map((problem) => problem.id);
  if (ungraded.length === 0) return;
  io.stderr(
    `tmas: warning: ${ungraded.length} of the ${problems.length} problems have no reference answer (${ungraded.slice(0, 10).join(', ')}${ungraded.length > 10 ? ', …' : ''}): ` +
      'they run ungraded, left out of Pass@1 and every other grade. Give each its answer (an "answer" field, or the column --answer-column names).',
  );
}

/** Throws TMAS_CONTEXT_LENGTH when every question alone exceeds the prompt budget: such a run would send nothing and score 0. */
async function refuseAllUnfit(counting: Promise<number[]>, problems: Problem[], config: RunConfig): Promise<void> {
  const { budget, unfit } = await unfitQuestions(counting, problems, config);
  if (problems.length === 0 || unfit.length < problems.length) return;
  throw new UserError(
    'TMAS_CONTEXT_LENGTH',
    `None of the ${problems.length} questions fits the prompt budget of ${budget} tokens (--max-tokens ${config.context.window}) even alone ` +
      `(${unfit.slice(0, 3).join(', ')}${unfit.length > 3 ? ', …' : ''}): the run could send no call. Raise --max-tokens if the model's window allows.`,
  );
}

/** Warns of the journaled answers a resume sent again because they break the bounds replies are held to now. */
function warnOutOfBounds(count: number, io: RunIO): void {
  if (count === 0) return;
  io.stderr(
    `tmas: warning: ${count} journaled ${count === 1 ? 'reply breaks' : 'replies break'} the bounds this tmas holds replies to (a usage that cannot hold its text, ` +
      `or more text or tokens than its completion limit allows: journaled by a tmas that believed any usage); ${count === 1 ? 'it was' : 'they were'} sent again.`,
  );
}

/** What runEvaluation may be asked besides the configuration. */
export interface RunOptions {
  /** Aborts the run's calls in flight and stops it (the second Ctrl-C, SIGTERM). */
  signal?: AbortSignal;
  /** The first Ctrl-C: no new call is sent, the calls in flight finish and are journaled, then the run stops as on `signal` (run-drain.ts). */
  drain?: RunDrain;
  strategy?: Strategy;
  /** Continue the run stored in `config.outputs.dir` instead of starting a new one. */
  resume?: boolean;
  /** Replay: answer every call from the journal and contact no endpoint; a miss becomes `llm.failed` (TMAS_REPLAY_MISS). */
  offline?: boolean;
  /** Replay: a problem's own T where it is not the configuration's (the target it first reached: replay-phases.ts). */
  iterationsOf?: ReadonlyMap<string, number>;
  /** false: neither results.jsonl nor metrics.json is written, and the outcome has no iterations (a replay, whose store is a copy thrown away, reads neither). */
  outputs?: boolean;
  /** Called once the gateway and bus exist, for benchmarks and monitors. */
  observe?: (parts: RunObservables) => void;
  /** A new run made by `tmas fork`: where it came from, for its manifest (a resume keeps the manifest's). */
  forkedFrom?: ForkedFrom;
  /** The journal of the run this one was forked from: it answers the calls this run's own journal lacks. */
  source?: JournalSource | null;
  /** Serves the run while it goes (`tmas run --view`); the returned stop runs before the store closes. */
  view?: (run: LiveRunParts) => Promise<() => Promise<void>>;
  /** The pool, gateway, simulated model and rank scale of runs started together (run-workload.ts): used, not closed, by this run. */
  shared?: SharedRunParts;
  /**
   * Told as a stop goes on: each call that leaves the drain and text streamed meanwhile, then as the outputs are
   * written (each message of the log read back, each line of results.jsonl), which takes time in proportion to the
   * run; the CLI's stop deadline counts the time a stop goes without it (src/cli/common/signals.ts).
   */
  onOutputProgress?: () => void;
}

/** Things to close when the run ends, in the reverse order of their making. */
type Cleanups = Array<() => Promise<void> | void>;

/** Warns when the judge is the model under test grading itself. */
function warnSelfJudging(config: RunConfig, simulated: boolean, io: RunIO): void {
  const { judge, solution } = config.roles.endpoints;
  if (config.judge.passes > 0 && !simulated && JSON.stringify(judge.baseUrl) === JSON.stringify(solution.baseUrl) && judge.model === solution.model) {
    io.stderr(
      `tmas: warning: the LLM judge is the model under test (${solution.model}) grading itself; ` +
        'give --judge-base-url and --judge-model-name for an independent judge, or --judge-passes 0 for the rule-based grade.',
    );
  }
}

/**
 * The start-up before the run has a store: the pool (first, so that its thread loads the tokenizer,
 * about 0.45 s, while mathjs and the endpoints get ready), the endpoints' check, and the checks that
 * stop a run before anything is written. A stop meanwhile ends the start with nothing written.
 */
async function startUp(config: RunConfig, secrets: Secrets, problems: Problem[], io: RunIO, options: RunOptions, cleanups: Cleanups) {
  // A resume whose outputs could not be written at its end stops before its first call, not after its last.
  if (options.resume === true) await checkOutputsWritable(config.outputs.dir);
  // Before the run has a store no call of its own is in flight: the first Ctrl-C stops the start at once.
  const stop = eitherSignal(options.signal, options.drain?.signal);
  const pool = options.shared?.pool ?? lendPool({ encoding: config.context.tokenizer, digest: config.context.tokenizerDigest });
  if (options.shared === undefined) cleanups.push(() => pool.close());
  const questionTokens = pool.countTokens(problems.map((problem) => problem.question));
  // Awaited below, after the checks that come first; a failure is reported there.
  questionTokens.catch(() => {});
  const checkingEndpoints = prepareEndpoints(config, secrets, problems, { offline: options.offline === true, resume: options.resume === true, say: io.stderr, sim: options.shared?.sim });
  // Before any call is in flight (the first grade would otherwise load mathjs mid-traffic), while the endpoints answer.
  preloadMathjs();
  const endpoints = await beforeStore(checkingEndpoints, stop, (ready) => ready.sim?.close());
  cleanups.push(() => endpoints.sim?.close());
  warnSelfJudging(config, endpoints.simulated, io);
  // The model's tokenizer (--tokenizer-path) is loaded first by the pool's thread, for this count:
  // a file that is not one stops the run here, before anything is written.
  if (isHfTokenizerName(config.context.tokenizer)) await beforeStore(questionTokens.catch((error: unknown) => Promise.reject(tokenizerLoadError(config.context.tokenizer, error))), stop);
  if (!options.resume) {
    // A new run none of whose questions could be sent is refused before its directory is made.
    await beforeStore(refuseAllUnfit(questionTokens, problems, config), stop);
    await ensureFreshOutputDir(config.outputs.dir);
  }
  return { pool, questionTokens, endpoints };
}

/** The replicas that did not answer at start, suspected by the gateway: each takes one trial call at a time. */
function suspectUnanswered(gateway: Gateway, config: RunConfig, secrets: Secrets, endpoints: PreparedEndpoints): void {
  if (endpoints.unanswered.length === 0) return;
  for (const role of ENDPOINT_SLOTS) {
    const endpoint = endpointFor(role, { config, secrets, simulatorUrl: endpoints.simulatorUrl });
    for (const url of endpoint.replicas ?? []) if (endpoints.unanswered.includes(url)) gateway.suspect(url, endpoint);
  }
}

/** The gateway of a run on its own, closed with it. */
function ownGateway(config: RunConfig, pool: Pool, io: RunIO, cleanups: Cleanups): Gateway {
  const gateway = createGatewayOnPool(config.gateway, pool, io.stderr);
  cleanups.push(() => gateway.close());
  return gateway;
}

/** The error a failed store write (a full disk) becomes: the store's reason wins over what surfaced first. */
function storeWriteError(config: RunConfig, storeError: unknown): UserError {
  return new UserError(
    'TMAS_STORE_WRITE',
    `Cannot write to the run's store in ${config.outputs.dir}: ${(storeError as Error).message}. Every call journaled before this point is kept: ` +
      `${writeFailureFix(storeError)}, then continue with: tmas run --resume ${config.outputs.dir}`,
    { cause: storeError },
  );
}

/**
 * Runs the actor until it ends, a stop, a routing failure, an endpoint down or a failed store
 * write. Returns what interrupted it (null when it ended); rethrows what is a bug.
 */
async function runToEnd(actor: AnyActorRef, waits: { stopped: Promise<never>; others: Array<Promise<unknown>>; store: Store; config: RunConfig; stopping: () => boolean; onStoreError: () => void }): Promise<unknown> {
  try {
    await Promise.race([toPromise(actor), waits.stopped, ...waits.others]);
    return null;
  } catch (error) {
    if (waits.store.writeError !== null) {
      actor.stop();
      waits.onStoreError();
      throw storeWriteError(waits.config, waits.store.writeError);
    }
    // Stopping the run actor stops every child: in-flight calls are aborted and never journaled. An error
    // rethrown must stop it too: with runs started together the process goes on, and an actor left
    // running would keep sending calls through the shared gateway and write to its closed store.
    actor.stop();
    if (!waits.stopping() && !(isUserError(error) && STOPPING_CODES.has(error.code))) throw error;
    return error;
  }
}

/** The error of an interrupted run once its outputs are written: its own (an endpoint down, a refused key), or TMAS_INTERRUPTED. */
function interruptionError(interrupted: unknown, counters: CallCounts, outputDir: string): unknown {
  if (isUserError(interrupted)) return interrupted;
  return new TmasError(
    'TMAS_INTERRUPTED',
    `Interrupted: ${counters.issued} calls issued and journaled so far (${counters.reused} answered from the journal); the run is resumable with: tmas run --resume ${outputDir}`,
    { cause: interrupted },
  );
}

/** Runs one evaluation to completion. `problems` must already be validated. */
export async function runEvaluation(config: RunConfig, secrets: Secrets, problems: Problem[], io: RunIO, options: RunOptions = {}): Promise<RunOutcome> {
  // A strategy given is taken as resolved (resolveStrategy applies --agents and --prompt); else the named one, with the run's templates.
  const strategy = options.strategy ?? applyPromptTemplates(strategyNamed(config.loop.strategy), config.loop.prompts);
  const started = performance.now();
  const cleanups: Cleanups = [];
  try {
    const { pool, questionTokens, endpoints } = await startUp(config, secrets, problems, io, options, cleanups);
    // Serialises large store values and request bodies on the pool's threads, ahead of queued token
    // counting. A thread of its own would cost a V8 heap of its own, for the same results.
    const encodeJson = (value: unknown) => pool.encodeJson(value);
    const { store, manifest, simulated, inputs, forcedChange } = await openRunStore(config, problems, { strategy, forkedFrom: options.forkedFrom, resume: options.resume === true, offline: options.offline === true, simulated: endpoints.simulated, encodeJson, cleanups, iterationsOf: options.iterationsOf });
    if (forcedChange) io.stderr(forcedChangeWarning(forcedChange, config.outputs.dir));

    // From here a stop writes the outputs (below): a stop while the questions are counted goes there without waiting.
    const stopped = whenStopped(options.signal);
    if (options.resume !== true) warnUngraded(problems, config, io);
    await Promise.race([warnUnfit(questionTokens, problems, config, io), stopped.catch(() => {})]);
    const gateway = options.shared?.gateway ?? ownGateway(config, pool, io, cleanups);
    suspectUnanswered(gateway, config, secrets, endpoints);
    const counters: CallCounts = { reused: 0, issued: 0, failed: 0 };
    const firstSeq = await store.nextSeq();
    const bus = createBus({ firstSeq });
    // A resume's earlier log is folded in the background: the run's first calls do not wait for it.
    const liveMetrics = options.resume === true ? resumedMetricsCollector(store, firstSeq) : undefined;
    if (liveMetrics) cleanups.push(() => liveMetrics.ready);
    const { log, metrics, progress } = observeRun(bus, { store, gateway, config, problems: problems.length, simulated, expectedCalls: expectedCallsByProblem(strategy, inputs, config.loop.proof) }, io, liveMetrics);
    cleanups.push(() => progress.stop());
    const unsent = countUnsentCalls(bus.envelopes$);
    options.observe?.({ gateway, envelopes$: bus.envelopes$ });
    if (options.view) cleanups.push(await options.view({ store, manifest, metrics: () => metrics.iterations(), envelopes$: bus.envelopes$ }));
    // An iteration saved by the process before, which was stopped before it announced it, is announced now.
    if (options.resume === true) for (const message of await lostAnnouncements(store, inputs)) bus.publish(message);

    const post = postTo(bus);
    const failures = createCallFailures();
    const deps = { config, secrets, simulatorUrl: endpoints.simulatorUrl };
    let outOfBounds = 0;
    const inFlight = createCallsInFlight();
    const waiting = (error: UserError, calls: number) =>
      io.stderr(`tmas: stopping (${error.code}): no new call is sent; the ${calls} call(s) in flight finish and are journaled first, each given up after --timeout without a byte. Ctrl-C twice aborts them (a resume sends them again, billed again).`);
    const { stopRun, stopped: runStopped, dispose: leaveSharedStop } = stopOnceJournaled({ gateway, calls: inFlight, shared: options.shared?.stop, waiting });
    cleanups.push(leaveSharedStop);
    const drain = whenDrained(options.drain, { gateway, calls: inFlight, idleLimitMs: config.gateway.timeoutSeconds * 1000, progressed: options.onOutputProgress });
    cleanups.push(drain.dispose);
    const watch = watchModuleMachines({ roles: moduleMachineRoles(strategy.roles), boundMs: config.gateway.timeoutSeconds * 1000, envelopes$: bus.envelopes$, stop: stopRun });
    if (watch) cleanups.push(() => watch.dispose());
    const llm = createLlmCall({ ...deps, onCall: watch && ((input) => watch.callStarted(input)), inFlight, pool, gateway, store, counters, source: options.source ?? null, offline: options.offline === true, failures, stopRun, ranks: createCallRanks(strategy.upFront === true ? 1 : config.loop.maxIterations, strategy.stages, options.shared?.rankScale), onOutOfBounds: () => outOfBounds++, windows: endpoints.windows });
    const actor = createRunActor(config, strategy, { llm, post, pool, store, failures }, { run: manifest.run, simulated, problems: inputs });
    const routingFailure = deliver(bus, actor);
    // A run stopped while it started sends nothing: the race below sees the stop at once.
    const stopping = () => options.signal?.aborted === true || options.drain?.signal.aborted === true;
    if (!stopping()) actor.start();
    const interrupted = await runToEnd(actor, { stopped, others: [drain.drained, routingFailure, gateway.down, runStopped, store.failed], store, config, stopping, onStoreError: () => progress.stop() });

    progress.stop();
    warnOutOfBounds(outOfBounds, io);
    for (const warning of unsentCallWarnings(unsent, config.loop.agents)) io.stderr(warning);
    bus.complete();
    // The run may have ended before a write of its last records failed (a disk filled as it ended): told as the failure during it is.
    await log.flush().catch((error: unknown) => Promise.reject(store.writeError === null ? error : storeWriteError(config, store.writeError)));
    const outputs = options.outputs !== false;
    const { iterations, unfinishedFailures, failuresSince } = outputs ? await runMetricsFromLog(store, firstSeq, options.onOutputProgress) : { iterations: [], unfinishedFailures: 0, failuresSince: 0 };
    // A call whose failure stopped the run (an endpoint down) may have stopped it before its failure was logged: counted here.
    const unlogged = Math.max(0, counters.failed - failuresSince);
    const wallSeconds = (performance.now() - started) / 1000;
    if (outputs) await writeOutputs({ store, run: manifest.run, outputDir: config.outputs.dir, simulated, iterations, unfinishedFailures: unfinishedFailures + unlogged, calls: counters, wallSeconds, config, forkedFrom: manifest.forkedFrom, forcedChanges: manifest.forcedChanges, gateway: { stats: gateway.stats, firstSeq, sharedWith: options.shared?.sharedWith ?? [] }, stopped: failures.stopped(), onProgress: options.onOutputProgress });
    if (interrupted !== null) throw interruptionError(interrupted, counters, config.outputs.dir);
    return { outputDir: config.outputs.dir, simulated, iterations, calls: counters, wallSeconds, stopped: failures.stopped() };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
