/**
 * The servers `tmas plan` forecasts on, from its flags: replicas of the
 * capacity model (as many as --replicas, --replica-speeds or the run's own
 * pool of --base-url URLs say, each at its speed), read from a live server's
 * metrics with --metrics-from, or a metered API; and the gateway's settings
 * that send calls to them (--concurrency, --routing, --replica-max-in-flight).
 */
import type { GatewayConfig, RunConfig } from '../../settings/config.ts';
import { UserError } from '../../kernel/errors.ts';
import type { Billing } from '../../plan/forecast.ts';
import { measureCapacity } from '../../plan/metrics-reading.ts';
import type { Servers } from '../../plan/simulate.ts';
import { resolveCapacity } from '../../sim/capacity/options.ts';
import type { CliIo } from '../common/cli-io.ts';

/** The flags of `tmas plan` that describe the servers. */
export interface ServerFlags {
  replicas?: number;
  replicaSpeeds?: number[];
  gpusPerReplica: number;
  decodeTokensPerSecond: number;
  sequenceTokensPerSecond: number;
  kvTokens: number;
  prefillTokensPerSecond: number;
  metricsFrom?: string;
  metricsSeconds: number;
  pricePerMillion?: { input: number; output: number };
  timeScale: number;
}

/** What sends the calls: the run's gateway settings, and the URLs of its solution slot (its replica pool). */
export type RunGateway = Pick<GatewayConfig, 'concurrency' | 'routing' | 'replicaMaxInFlight'> & { pool: number; window: number };

/** The gateway settings and pool of a run's configuration. */
export function runGatewayOf(config: RunConfig): RunGateway {
  const { concurrency, routing, replicaMaxInFlight } = config.gateway;
  return { concurrency, routing, replicaMaxInFlight, pool: config.roles.endpoints.solution.baseUrl?.length ?? 1, window: config.context.window };
}

/** Each replica's speed factor: --replica-speeds, else --replicas of speed 1, else the run's own pool. */
function replicaSpeeds(flags: ServerFlags, pool: number): number[] {
  const { replicas, replicaSpeeds: speeds } = flags;
  if (speeds === undefined) return Array.from({ length: replicas ?? pool }, () => 1);
  if (replicas !== undefined && replicas !== speeds.length) {
    throw new UserError('TMAS_USAGE', `--replicas ${replicas} and --replica-speeds ${speeds.join(',')} (${speeds.length} factors) disagree: give one factor per replica, or leave --replicas out.`);
  }
  return speeds;
}

/** The servers the flags describe for a run sent by `gateway`, and how they are paid for. */
export async function serversOf(flags: ServerFlags, gateway: RunGateway, io: CliIo): Promise<{ servers: Servers; billing: Billing }> {
  let decode = flags.decodeTokensPerSecond;
  let sequence = flags.sequenceTokensPerSecond;
  if (flags.metricsFrom !== undefined) {
    const measured = await measureCapacity(flags.metricsFrom, flags.metricsSeconds);
    // A sped-up simulator decodes time-scale times faster per real second than in its own seconds.
    decode = Math.max(1, Math.round(measured.decodeTokensPerSecond / flags.timeScale));
    sequence = Math.max(1, Math.round(measured.sequenceTokensPerSecond / flags.timeScale));
    io.stderr(`tmas plan: ${flags.metricsFrom} decoded ${decode} tokens/s with ${measured.running.toFixed(1)} sequences running (${sequence} tokens/s each), over ${measured.seconds.toFixed(1)} s`);
  }
  const base = { decodeTokensPerSecond: decode, sequenceTokensPerSecond: sequence, kvTokens: flags.kvTokens, prefillTokensPerSecond: flags.prefillTokensPerSecond };
  const { concurrency, routing, replicaMaxInFlight } = gateway;
  if (flags.pricePerMillion !== undefined) {
    // A metered API: every call in flight decodes at the per-sequence rate, and nothing else binds.
    const api = resolveCapacity({ ...base, decodeTokensPerSecond: sequence * concurrency, kvTokens: Number.MAX_SAFE_INTEGER });
    return { servers: { replicas: [api], concurrency, routing, replicaMaxInFlight: null }, billing: { pricePerMillion: flags.pricePerMillion } };
  }
  // A server whose KV cache cannot hold one sequence of the window is one vLLM refuses to start: the forecast would be of nothing real.
  if (flags.kvTokens < gateway.window) {
    throw new UserError('TMAS_USAGE', `--kv-tokens ${flags.kvTokens} cannot hold one sequence of the run's context window (${gateway.window} tokens, --max-tokens): give the replica's KV cache in tokens (vLLM logs it at start as "GPU KV cache size"), or a smaller window.`);
  }
  const replicas = replicaSpeeds(flags, gateway.pool).map((speed) =>
    resolveCapacity({ ...base, decodeTokensPerSecond: base.decodeTokensPerSecond * speed, sequenceTokensPerSecond: base.sequenceTokensPerSecond * speed }),
  );
  return { servers: { replicas, concurrency, routing, replicaMaxInFlight }, billing: { gpusPerReplica: flags.gpusPerReplica } };
}
