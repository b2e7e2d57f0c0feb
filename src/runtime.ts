/**
 * The runtime: puts the parts together for one run. It starts the simulated
 * model when no endpoint is given, opens the store, the worker pool, the
 * gateway and the bus, subscribes the message log, the metrics and the
 * progress display, provides the side-effect actors to the machines, runs the
 * run actor to completion and writes the outputs.
 */
import { mkdir, readdir } from 'node:fs/promises';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { DedupBanksInput, DedupBanksOutput, SaveIterationInput } from '../machines/problem.machine.ts';
import { dedupBanks } from './banks.ts';
import { runMachine } from '../machines/run.machine.ts';
import { tmasStrategy, type Strategy } from '../machines/strategy.ts';
import { usesSimulator, type RunConfig, type Secrets } from './config.ts';
import { UserError } from './errors.ts';
import { checkEndpoints, resolveModel, SIMULATED_OWNER } from './gateway/check.ts';
import { createGateway } from './gateway/gateway.ts';
import { createBus } from './bus.ts';
import { createLlmCall, endpointFor } from './llm-call.ts';
import { createMetricsCollector, type IterationMetrics } from './metrics.ts';
import { createPool } from './pool.ts';
import type { Problem } from './problems.ts';
import { showProgress } from './progress.ts';
import { hashOf } from './prng.ts';
import { PROTOCOL_VERSION, ROLES, type Envelope } from './protocol.ts';
import { writeOutputs } from './outputs.ts';
import { startSimServer, type SimServer } from './sim/server.ts';
import { writeMessageLog } from './store/message-log.ts';
import { Store } from './store/store.ts';
import { VERSION } from './version.ts';

/** Where the runtime writes what the user reads. */
export interface RunIO {
  stdout(line: string): void;
  stderr(line: string): void;
}

/** What a finished run reports. */
export interface RunOutcome {
  outputDir: string;
  simulated: boolean;
  iterations: IterationMetrics[];
  calls: { issued: number; reused: number };
  wallSeconds: number;
}

const FLAG_OF_ROLE = {
  solution: { url: '--base-url', model: '--model-name' },
  verification: { url: '--verify-base-url', model: '--verify-model-name' },
  summary: { url: '--summary-base-url', model: '--summary-model-name' },
  experience: { url: '--exp-base-url', model: '--exp-model-name' },
  guideline: { url: '--guide-base-url', model: '--guide-model-name' },
} as const;

async function ensureFreshOutputDir(dir: string): Promise<void> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw new UserError('TMAS_OUTPUT', `Cannot read the output directory ${dir}: ${error.message}. Choose another --output-file.`, { cause: error });
  });
  if (entries.length > 0) {
    throw new UserError('TMAS_OUTPUT', `The output directory ${dir} is not empty. Choose a new --output-file, or remove the directory to start over.`);
  }
  await mkdir(dir, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
    throw new UserError('TMAS_OUTPUT', `Cannot create the output directory ${dir}: ${error.message}. Choose a writable --output-file.`, { cause: error });
  });
}

/** Runs one evaluation to completion. `problems` must already be validated. */
export async function runEvaluation(
  config: RunConfig,
  secrets: Secrets,
  problems: Problem[],
  io: RunIO,
  options: { signal?: AbortSignal; strategy?: Strategy } = {},
): Promise<RunOutcome> {
  const strategy = options.strategy ?? tmasStrategy;
  const started = performance.now();
  const cleanups: Array<() => Promise<void> | void> = [];
  try {
    let sim: SimServer | null = null;
    if (usesSimulator(config)) {
      sim = await startSimServer({
        problems,
        seed: config.seed,
        latency: config.sim.latencyMedianMs > 0 ? { medianMs: config.sim.latencyMedianMs, p99Ms: config.sim.latencyP99Ms } : 0,
        outputTokens: config.sim.outputTokens,
      });
      cleanups.push(() => sim?.close());
      io.stderr(`tmas: no --base-url given: using the embedded simulated model at ${sim.url} (not a real LLM)`);
    }
    const reachable = { config, secrets, simulatorUrl: sim?.url ?? null };
    const listed = await checkEndpoints(ROLES.map((role) => ({ endpoint: endpointFor(role, reachable), flag: FLAG_OF_ROLE[role].url })));
    // A role without --model-name uses the first model its endpoint serves (vLLM and SGLang serve one).
    for (const role of ROLES) {
      const endpoint = endpointFor(role, reachable);
      config.endpoints[role].model = resolveModel(config.endpoints[role].model, listed.get(endpoint.baseUrl), FLAG_OF_ROLE[role].model);
    }
    const deps = reachable;
    // Every result must say when it came from the simulator, also when that runs as `tmas sim-server`.
    const simulated =
      usesSimulator(config) ||
      ROLES.every((role) => listed.get(endpointFor(role, deps).baseUrl)?.some((model) => model.id === config.endpoints[role].model && model.ownedBy === SIMULATED_OWNER));

    await ensureFreshOutputDir(config.outputDir);
    const store = await Store.open(config.outputDir);
    cleanups.push(() => store.close());
    const runId = hashOf({ config, at: Date.now() }, 12);
    await store.manifest().put('manifest', { run: runId, config, configHash: hashOf(config), tmasVersion: VERSION, protocolVersion: PROTOCOL_VERSION, simulated, createdAt: new Date().toISOString() });

    const pool = createPool({ encoding: config.tokenizer });
    cleanups.push(() => pool.close());
    const gateway = createGateway({ concurrency: config.concurrency, timeoutMs: config.timeoutSeconds * 1000, maxRetries: config.maxRetries });
    cleanups.push(() => gateway.close());
    const counters = { reused: 0, issued: 0 };
    const bus = createBus();
    const log = writeMessageLog(bus.envelopes$, store);
    const metrics = createMetricsCollector();
    bus.envelopes$.subscribe((envelope) => metrics.observe(envelope));
    const progress = showProgress(bus.envelopes$, {
      totalProblems: problems.length,
      totalIterations: config.maxIterations,
      write: io.stderr,
      probe: {
        inFlight: () => gateway.stats.inFlight,
        queued: () => gateway.stats.queued,
        retries: () => gateway.stats.retries,
        pass1: () => {
          const done = metrics.iterations().filter((it) => it.problems === problems.length).at(-1);
          return done ? { iteration: done.iteration, value: done.pass1 } : null;
        },
      },
    });
    cleanups.push(() => progress.stop());

    // Delivery is deferred to a microtask: an action must not run another actor's transition inside its own.
    // Microtasks run in order, so the log order is still the order in which actors posted.
    const post = (_: unknown, params: { message: Parameters<typeof bus.publish>[0] }) => queueMicrotask(() => void bus.publish(params.message));
    const llm = createLlmCall({ ...deps, pool, gateway, store, counters });
    const roleImplementations = { actors: { llm }, actions: { post } };
    const roles = Object.fromEntries(Object.entries(strategy.roles).map(([name, role]) => [name, role.provide(roleImplementations as never)]));
    const machine = runMachine.provide({
      actions: { post },
      actors: {
        ...roles,
        problem: strategy.problem.provide({
          actions: { post },
          actors: {
            dedupBanks: fromPromise<DedupBanksOutput, DedupBanksInput>(({ input, signal }) => dedupBanks(pool, input, signal)),
            saveIteration: fromPromise<void, SaveIterationInput>(({ input }) =>
              store.saveIteration(
                { problem: input.problem, ordinal: input.ordinal, iteration: input.iteration, candidates: input.candidates, rollouts: input.rollouts },
                { experience: input.experience, guidelines: input.guidelines },
              ),
            ),
          },
        }),
      },
    });

    const actor = createActor(machine, {
      input: {
        run: runId,
        roles: Object.keys(strategy.roles),
        simulated,
        maxActive: config.activeProblems,
        roleOptions: { proof: config.proof, temperature: config.temperature },
        problems: problems.map((problem, ordinal) => ({
          run: runId,
          ordinal,
          problem: { id: problem.id, question: problem.question, ...(problem.answer === undefined ? {} : { answer: problem.answer }) },
          settings: {
            nCandidates: config.nCandidates,
            nVerifications: config.nVerifications,
            maxIterations: config.maxIterations,
            epsilon: config.epsilon,
            seed: config.seed,
            jaccardThreshold: config.jaccardThreshold,
          },
          start: { iteration: 0, experience: [], guidelines: [], rollouts: [] },
        })),
      },
    });
    const routingFailure = new Promise<never>((_, reject) => {
      bus.envelopes$.subscribe((envelope: Envelope) => {
        if (envelope.to === 'log') return;
        const target = envelope.to === 'run' ? actor : actor.system.get(envelope.to);
        if (!target) {
          reject(new Error(`no actor at ${envelope.to} for ${envelope.message.type} (seq ${envelope.seq})`));
          return;
        }
        target.send(envelope.message as never);
      });
    });
    const aborted = new Promise<never>((_, reject) => {
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
    });
    actor.start();
    await Promise.race([toPromise(actor), routingFailure, aborted]);

    progress.stop();
    bus.complete();
    await log.flush();
    const iterations = metrics.iterations();
    const wallSeconds = (performance.now() - started) / 1000;
    await writeOutputs({ store, outputDir: config.outputDir, simulated, iterations, calls: counters, wallSeconds, config });
    return { outputDir: config.outputDir, simulated, iterations, calls: counters, wallSeconds };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
