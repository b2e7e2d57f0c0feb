/**
 * `tmas sim-server`: runs the simulated model on its own, so another tool (or
 * another tmas run, with --base-url) can talk to it.
 */
import { loadProblems } from '../../input/problems.ts';
import { listenError } from '../../kernel/listen-error.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';
import { SIM_ROLES } from '../../../machines/strategies/sim-roles.ts';
import type { Flags } from '../../settings/setting.ts';
import type { SimServerCapacity } from '../../settings/sim-server.config.ts';
import { toSimServerConfig } from '../../settings/configure/to-sim-server-config.ts';
import type { CapacitySettings } from '../../sim/capacity/options.ts';

/** The capacity model's own settings, without the switch and the stream's usage. */
function modelOf({ on: _on, continuousUsage: _continuousUsage, ...model }: SimServerCapacity): CapacitySettings {
  return model;
}

/**
 * Loads the problems, starts the simulated model and prints where it listens.
 * `flags` are the command's, by option name (a flag left out takes its
 * declared default). Resolves with the running server; the caller closes it
 * (e.g. on Ctrl-C). Throws UserError for a bad problem file (`TMAS_INPUT`),
 * fault spec or flags that contradict each other (`TMAS_USAGE`).
 */
export async function runSimServerCommand(flags: Flags, io: { stdout(line: string): void }): Promise<SimServer> {
  const { server: listening, replies, pace, capacity } = toSimServerConfig(flags);
  const problems = await loadProblems(listening.problems, listening);
  const where = { host: listening.host, port: listening.port, portFlag: '--port', hostFlag: '--host' };
  const server = await startSimServer({
    problems,
    roles: SIM_ROLES,
    seed: replies.seed,
    host: listening.host,
    port: listening.port,
    latency: pace.latencyMedianMs > 0 ? { medianMs: pace.latencyMedianMs, p99Ms: pace.latencyP99Ms } : 0,
    outputTokens: replies.outputTokens,
    distillTokens: replies.distillTokens,
    breakFormats: replies.breakFormats,
    faults: replies.faults,
    reasoning: replies.reasoning,
    stream: { tokensPerSecond: pace.streamTokensPerSecond, chunkTokens: pace.streamChunkTokens },
    openaiReasoning: replies.openaiReasoning,
    ...(listening.models === null ? {} : { models: listening.models }),
    ...(listening.requestLog === null ? {} : { requestLog: listening.requestLog }),
    ...(capacity.on ? { capacity: modelOf(capacity) } : {}),
    metrics: listening.metrics,
    continuousUsage: capacity.continuousUsage,
  }).catch((error: unknown) => Promise.reject(listenError(error, where)));
  const model = capacity.on ? `; capacity model on (simulated, time scale ${capacity.timeScale})` : '';
  io.stdout(`tmas sim-server listening on ${server.url} (simulated model, not a real LLM): ${problems.length} problems, seed ${replies.seed}${model}`);
  return server;
}

/** Serves the simulated model until SIGINT or SIGTERM, then closes it. */
export async function serveSimServer(flags: Flags, io: { stdout(line: string): void }): Promise<void> {
  const server = await runSimServerCommand(flags, io);
  await new Promise<void>((resolve) => {
    const stop = () => void server.close().then(resolve);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
