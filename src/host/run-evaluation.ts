/**
 * The runtime: puts the parts together for one run. It starts the simulated
 * model when no endpoint is given, opens the store, the worker pool, the
 * gateway and the bus, subscribes the message log, the metrics and the
 * progress display, provides the side-effect actors to the machines, runs the
 * run actor to completion and writes the outputs.
 */
import { preloadMathjs } from '../grader/index.ts';
import type { Observable } from 'rxjs';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { DedupBanksInput, DedupBanksOutput, SaveIterationInput, SaveIterationOutput } from '../../machines/contract.ts';
import { createCallFailures, type StoppedIteration } from './call-failures.ts';
import { deliver, postTo } from './delivery.ts';
import { expectedCallsOf, toProblemInputs } from './problem-inputs.ts';
import { dedupBanks } from './banks.ts';
import { runMachine } from '../../machines/run.machine.ts';
import { callLlmWith } from '../../machines/start-call.ts';
import { judgeMachine } from '../../machines/roles/judge.role.ts';
import type { Strategy } from '../../machines/strategies/index.ts';
import { strategyNamed } from './plugins.ts';
import { applyPromptTemplates } from './prompt-templates.ts';
import type { RunConfig, Secrets } from './config.ts';
import { replicaFigures, streamRateOf } from './gateway-probe.ts';
import { isUserError, TmasError, UserError } from '../kernel/errors.ts';
import { DEFAULT_PARSE_RETRIES } from '../../machines/role.machine.ts';
import { createGateway, DEFAULT_BACKOFF, type Gateway } from '../gateway/gateway.ts';
import { createBus } from '../kernel/bus.ts';
import { prepareEndpoints } from './endpoints.ts';
import { createLlmCall, promptBudget } from './llm-call.ts';
import { createCallRanks } from './call-ranks.ts';
import { createMetricsCollector, type IterationMetrics } from '../observers/metrics.ts';
import { createPool, tokenizerLoadError } from '../pool/pool.ts';
import { isHfTokenizerName } from '../../workers/hf-tokenizer.ts';
import type { Problem } from '../input/problems.ts';
import { showProgress } from '../observers/progress.ts';
import { hashOf } from '../kernel/prng.ts';
import { loadStarts } from './resume.ts';
import { metricsFromLog } from '../observers/log-metrics.ts';
import { PROTOCOL_VERSION, type Envelope } from '../kernel/protocol.ts';
import { writeOutputs } from './outputs.ts';
import { writeMessageLog } from '../store/message-log.ts';
import { Store } from '../store/store.ts';
import type { RunManifest } from './run-manifest.ts';
import { createRunStore, ensureFreshOutputDir } from './output-dir.ts';
import { VERSION } from '../kernel/version.ts';

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
  calls: { issued: number; reused: number };
  wallSeconds: number;
  /** Problems stopped at an iteration with calls that failed for good (not marked; a resume issues them again). */
  stopped: StoppedIteration[];
}


/** Warns before anything is sent about questions that alone exceed the prompt budget (`counting`: their tokens): their calls will not be sent. */
async function warnUnfit(counting: Promise<number[]>, problems: Problem[], config: RunConfig, io: RunIO): Promise<void> {
  const budget = promptBudget(config.maxTokens);
  const counts = await counting;
  const unfit = problems.flatMap((problem, i) => ((counts[i] ?? 0) > budget ? [`${problem.id} (${counts[i]} tokens)`] : []));
  if (unfit.length === 0) return;
  io.stderr(
    `tmas: warning: ${unfit.length} question(s) cannot fit the prompt budget of ${budget} tokens (--max-tokens ${config.maxTokens}) even alone: ${unfit.slice(0, 10).join(', ')}${unfit.length > 10 ? ', …' : ''}. ` +
      'Their calls are not sent; each candidate records TMAS_CONTEXT_LENGTH. Raise --max-tokens if the model\'s window allows.',
  );
}

/** Runs one evaluation to completion. `problems` must already be validated. */
export async function runEvaluation(
  config: RunConfig,
  secrets: Secrets,
  problems: Problem[],
  io: RunIO,
  options: {
    signal?: AbortSignal;
    strategy?: Strategy;
    /** Continue the run stored in `config.outputDir` instead of starting a new one. */
    resume?: boolean;
    /** Replay: answer every call from the journal and contact no endpoint; a miss becomes `llm.failed` (TMAS_REPLAY_MISS). */
    offline?: boolean;
    /** Called once the gateway and bus exist, for benchmarks and monitors. */
    observe?: (parts: RunObservables) => void;
    /** Serves the run while it goes (`tmas run --view`); the returned stop runs before the store closes. */
    view?: (run: LiveRunParts) => Promise<() => Promise<void>>;
  } = {},
): Promise<RunOutcome> {
  // A strategy given is taken as resolved (resolveStrategy applies --agents and --prompt); else the named one, with the run's templates.
  const strategy = options.strategy ?? applyPromptTemplates(strategyNamed(config.strategy), config.prompts);
  const started = performance.now();
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    // First, so that its thread starts and loads the tokenizer (about 0.45 s) while mathjs, the
    // endpoints and the store get ready, rather than after them, before the first call.
    const pool = createPool({ encoding: config.tokenizer });
    cleanups.push(() => pool.close());
    const questionTokens = pool.countTokens(problems.map((problem) => problem.question));
    // Awaited below, after the checks that come first; a failure is reported there.
    questionTokens.catch(() => {});
    const checkingEndpoints = prepareEndpoints(config, secrets, problems, { offline: options.offline === true, say: io.stderr });
    // Before any call is in flight (the first grade would otherwise load mathjs mid-traffic), while the endpoints answer.
    preloadMathjs();
    const endpoints = await checkingEndpoints;
    cleanups.push(() => endpoints.sim?.close());
    const deps = { config, secrets, simulatorUrl: endpoints.simulatorUrl };
    let simulated = endpoints.simulated;

    const { judge, solution } = config.endpoints;
    if ((config.judgePasses ?? 0) > 0 && !simulated && JSON.stringify(judge.baseUrl) === JSON.stringify(solution.baseUrl) && judge.model === solution.model) {
      io.stderr(
        `tmas: warning: the LLM judge is the model under test (${solution.model}) grading itself; ` +
          'give --judge-base-url and --judge-model-name for an independent judge, or --judge-passes 0 for the rule-based grade.',
      );
    }
    // The model's tokenizer (--tokenizer-path) is loaded first by the pool's thread, for this count:
    // a file that is not one stops the run here, before anything is written.
    if (isHfTokenizerName(config.tokenizer)) await questionTokens.catch((error: unknown) => Promise.reject(tokenizerLoadError(config.tokenizer, error)));
    if (!options.resume) await ensureFreshOutputDir(config.outputDir);
    // Serialises large store values and request bodies: a thread of its own, so that neither
    // waits behind token counting; closed after the store and the gateway.
    const jsonEncoder = createPool({ threads: 1 });
    cleanups.push(() => jsonEncoder.close());
    const encodeJson = (value: unknown) => jsonEncoder.encodeJson(value);
    // A resumed run's store must exist (never created over a damaged one); a new run's is created whole, manifest included.
    const resumed = options.resume ? await Store.open(config.outputDir) : null;
    if (resumed) cleanups.push(() => resumed.close());
    const previous = await resumed?.getManifest();
    // Offline, no endpoint was listed: the run is as simulated as it was.
    if (options.offline && previous) simulated = previous.simulated;
    const runId = previous?.run ?? hashOf({ config, at: Date.now() }, 12);
    const manifest = {
      run: runId,
      config,
      configHash: hashOf(config),
      tmasVersion: VERSION,
      protocolVersion: PROTOCOL_VERSION,
      simulated,
      strategy: strategy.name,
      createdAt: previous?.createdAt ?? new Date().toISOString(),
    };
    const store = resumed ?? (await createRunStore(config.outputDir, manifest, problems));
    if (!resumed) cleanups.push(() => store.close());
    store.encodeWith(encodeJson);
    if (resumed) await store.manifest().put('manifest', manifest);
    const starts = options.resume ? await loadStarts(store, problems.length) : null;
    const inputs = toProblemInputs(runId, config, problems, starts);

    await warnUnfit(questionTokens, problems, config, io);
    const gateway = createGateway({
      concurrency: config.concurrency,
      timeoutMs: config.timeoutSeconds * 1000,
      totalTimeoutMs: config.totalTimeoutSeconds === undefined ? null : config.totalTimeoutSeconds * 1000,
      stream: config.stream ?? true,
      ...(config.replicaMaxInFlight === undefined ? {} : { replicaMaxInFlight: config.replicaMaxInFlight }),
      dialect: config.dialect ?? 'chat',
      onDialect: (endpoint, dialect, reason) => io.stderr(`tmas: ${endpoint} refused a field of the chat dialect (${reason}); its calls use the ${dialect} dialect from now on.`),
      maxRetries: config.maxRetries,
      ...(config.retryBaseMs === undefined ? {} : { backoff: { ...DEFAULT_BACKOFF, baseMs: config.retryBaseMs } }),
      encodeJson,
      ...(config.serverQueue === undefined ? {} : { serverQueue: config.serverQueue }),
      ...(config.dispatchOrder === undefined ? {} : { dispatchOrder: config.dispatchOrder }),
      ...(config.batchCap === undefined ? {} : { batchCap: config.batchCap }),
      ...(config.loadPollMs === undefined ? {} : { loadPollMs: config.loadPollMs }),
    });
    cleanups.push(() => gateway.close());
    const counters = { reused: 0, issued: 0 };
    const bus = createBus({ firstSeq: await store.nextSeq() });
    const log = writeMessageLog(bus.envelopes$, store);
    const metrics = createMetricsCollector();
    bus.envelopes$.subscribe((envelope) => metrics.observe(envelope));
    const progress = showProgress(bus.envelopes$, {
      totalProblems: problems.length,
      totalIterations: config.maxIterations,
      write: io.stderr,
      terminal: io.terminal,
      simulated,
      expectedCalls: expectedCallsOf(strategy, inputs, config.proof),
      probe: {
        retriesByCause: () => gateway.stats.retriesByCause,
        inFlight: () => gateway.stats.inFlight,
        queued: () => gateway.stats.queued,
        retries: () => gateway.stats.retries,
        streamRate: streamRateOf(gateway),
        replicas: () => replicaFigures(gateway, config),
        // The adaptive limits below --concurrency, with the server's own queue when its load is known
        // and its throughput knee once found.
        limits: () =>
          gateway.stats.endpoints
            .filter((e) => e.limit < config.concurrency)
            .map((e) => `${new URL(e.baseUrl).host} ${e.limit}${e.server === null ? '' : ` (server: ${e.server.running} running, ${e.server.waiting} queued${e.knee === null ? '' : `, knee ${Math.round(e.knee)}`})`}`),
        pass1: () => {
          const done = metrics.iterations().filter((it) => it.problems === problems.length).at(-1);
          return done ? { iteration: done.iteration, value: done.pass1 } : null;
        },
      },
    });
    cleanups.push(() => progress.stop());
    options.observe?.({ gateway, envelopes$: bus.envelopes$ });
    if (options.view) cleanups.push(await options.view({ store, manifest, metrics: () => metrics.iterations(), envelopes$: bus.envelopes$ }));

    const post = postTo(bus);
    const failures = createCallFailures();
    let stopRun: (error: UserError) => void = () => {};
    const runStopped = new Promise<never>((_, reject) => {
      stopRun = reject;
    });
    runStopped.catch(() => {});
    const llm = createLlmCall({ ...deps, pool, gateway, store, counters, offline: options.offline === true, failures, stopRun, ranks: createCallRanks(config.maxIterations, strategy.stages) });
    const roleImplementations = { actors: { llm }, actions: { post, callLlm: callLlmWith(llm) } };
    // Grading is a stage every strategy's candidates pass through: the judge is a role of every run.
    const strategyRoles = { judge: judgeMachine, ...strategy.roles };
    const roles = Object.fromEntries(Object.entries(strategyRoles).map(([name, role]) => [name, role.provide(roleImplementations as never)]));
    const machine = runMachine.provide({
      actions: { post },
      actors: {
        ...roles,
        problem: strategy.problem.provide({
          actions: { post },
          actors: {
            dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(({ input, signal }) => dedupBanks(pool, input, { shingle: config.jaccardShingle ?? 3, maxRecords: config.bankMaxRecords ?? 0 }, signal)),
            saveIteration: fromPromise<SaveIterationOutput, SaveIterationInput>(async ({ input }) => {
              // The journal holds successes only, and so do the iteration marks: a resume does this iteration again.
              if (failures.isStopped(input.problem, input.iteration)) return { saved: false };
              await store.saveIteration(
                { problem: input.problem, ordinal: input.ordinal, iteration: input.iteration, candidates: input.candidates, rollouts: input.rollouts },
                { experience: input.experience, guidelines: input.guidelines },
              );
              return { saved: true };
            }),
          },
          // A strategy's problem machine is typed loosely (AnyStateMachine); the run machine checks nothing more of it.
        }) as never,
      },
    });

    const actor = createActor(machine, {
      input: {
        run: runId,
        roles: Object.keys(strategyRoles),
        simulated,
        maxActive: config.activeProblems,
        roleOptions: { proof: config.proof, temperature: config.temperature, parseRetries: config.parseRetries ?? DEFAULT_PARSE_RETRIES },
        problems: inputs,
      },
    });
    const routingFailure = deliver(bus, actor);
    const aborted = new Promise<never>((_, reject) => {
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
    });
    actor.start();
    let interrupted: unknown = null;
    try {
      await Promise.race([toPromise(actor), routingFailure, aborted, gateway.down, runStopped, store.failed]);
    } catch (raced) {
      // A failed store write (a full disk) may surface first as an actor error: the store's reason wins.
      const storeError = store.writeError;
      if (storeError !== null) {
        actor.stop();
        progress.stop();
        throw new UserError(
          'TMAS_STORE_WRITE',
          `Cannot write to the run's store in ${config.outputDir}: ${(storeError as Error).message}. Every call journaled before this point is kept: ` +
            `free some space (or fix the mount), then continue with: tmas run --resume ${config.outputDir}`,
          { cause: storeError },
        );
      }
      const error = raced;
      // An endpoint that stays down stops the run as Ctrl-C does, then reports itself (TMAS_ENDPOINT_DOWN).
      if (!options.signal?.aborted && !(isUserError(error) && (error.code === 'TMAS_ENDPOINT_DOWN' || error.code === 'TMAS_AUTH'))) throw error;
      interrupted = error;
      // Stopping the run actor stops every child: in-flight calls are aborted and never journaled.
      actor.stop();
    }

    progress.stop();
    bus.complete();
    await log.flush();
    const iterations = await metricsFromLog(store);
    const wallSeconds = (performance.now() - started) / 1000;
    await writeOutputs({ store, outputDir: config.outputDir, simulated, iterations, calls: counters, wallSeconds, config, retries: gateway.stats.retries, gateway: gateway.stats, stopped: failures.stopped() });
    if (isUserError(interrupted)) throw interrupted;
    if (interrupted !== null) {
      throw new TmasError(
        'TMAS_INTERRUPTED',
        `Interrupted: ${counters.issued} calls issued and journaled so far (${counters.reused} answered from the journal); the run is resumable with: tmas run --resume ${config.outputDir}`,
        { cause: interrupted },
      );
    }
    return { outputDir: config.outputDir, simulated, iterations, calls: counters, wallSeconds, stopped: failures.stopped() };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
