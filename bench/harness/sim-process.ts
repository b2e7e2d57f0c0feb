/**
 * The simulated model as a separate process (`tmas sim-server --port 0`), so
 * that a benchmark measures a real client and a real server on their own
 * event loops. The URL is read from the line the server prints on stdout.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { packagePath } from '../../src/kernel/package-root.ts';
import type { CapacityOptions } from '../../src/sim/capacity/options.ts';
import { capacityFlag } from '../../src/settings/sections/sim-server.settings.ts';
import type { SimMetrics } from '../../src/sim/server.ts';

/** The tmas executable. */
export const BIN = packagePath('src/bin.mjs');

/**
 * The command and arguments that start `tmas <args>` as a user's `npx tmas`
 * does: through sh, so that the executable's V8 flags (src/bin.mjs, line 2)
 * apply to what a benchmark measures.
 */
export function tmasCommand(args: string[], bin = BIN): [string, string[]] {
  return ['sh', [bin, ...args]];
}

/** A running sim-server child. */
export interface SimProcess {
  /** Base URL, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  pid: number;
  /** CPU seconds the child used so far is not visible from here; this stops it and waits for its exit. */
  stop(): Promise<void>;
}

/** Options of the simulated model (the `tmas sim-server` flags). */
export interface SimProcessOptions {
  problems: string;
  seed?: number;
  latencyMedianMs?: number;
  latencyP99Ms?: number;
  outputTokens?: number;
  /** Tokens of an rse distillation's records besides its marked one (`--distill-tokens`); 0 when absent. */
  distillTokens?: number;
  /** The capacity model (`--capacity` and its flags); off when absent. */
  capacity?: CapacityOptions;
  /** What its GET /metrics exposes (`--metrics`); vllm when absent. */
  metrics?: SimMetrics;
  /** False: streams ignore continuous_usage_stats (`--no-continuous-usage`). */
  continuousUsage?: boolean;
  /** Tokens per streamed event (`--stream-chunk-tokens`); the simulator's default when absent. */
  chunkTokens?: number;
  /** Pace of each stream (`--stream-tokens-per-second`); unpaced when absent. */
  tokensPerSecond?: number;
}

/** The `tmas sim-server` flags of the capacity model. */
function capacityArgs(capacity: CapacityOptions): string[] {
  const args = ['--capacity'];
  for (const [field, value] of Object.entries(capacity)) {
    if (value !== undefined) args.push(capacityFlag(field as keyof CapacityOptions), String(value));
  }
  return args;
}

/** Starts `tmas sim-server` and resolves once it listens. */
export async function startSimProcess(options: SimProcessOptions): Promise<SimProcess> {
  const args = [BIN, 'sim-server', '--problems', options.problems, '--port', '0', '--seed', String(options.seed ?? 0)];
  if (options.latencyMedianMs) args.push('--latency-median-ms', String(options.latencyMedianMs), '--latency-p99-ms', String(options.latencyP99Ms ?? options.latencyMedianMs));
  if (options.outputTokens) args.push('--output-tokens', String(options.outputTokens));
  if (options.distillTokens) args.push('--distill-tokens', String(options.distillTokens));
  if (options.capacity) args.push(...capacityArgs(options.capacity));
  if (options.metrics) args.push('--metrics', options.metrics);
  if (options.continuousUsage === false) args.push('--no-continuous-usage');
  if (options.chunkTokens) args.push('--stream-chunk-tokens', String(options.chunkTokens));
  if (options.tokensPerSecond) args.push('--stream-tokens-per-second', String(options.tokensPerSecond));
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (\S+)/.exec(stdout);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`sim-server exited with code ${code} before listening: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid ?? -1,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
