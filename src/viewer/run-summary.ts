/**
 * What the viewer says about a run at the top of its page: the strategy, its
 * settings and roles as the strategy declares them (a `majority` run shows
 * its samples and T, no M, ε or verifier), the models per role, the sampling
 * settings and whether it is live.
 */
import type { RunConfig } from '../settings/config.ts';
import { settingsLine } from '../settings/settings-line.ts';
import { strategyOutline, type StrategyOutline } from '../host/strategy/strategy-outline.ts';
import type { ForkLink } from './fork-link.ts';
import type { ViewedRun } from './viewed-run.ts';
import { describeForcedChange } from '../store/store.ts';

/** A run's description for the page. */
export interface RunSummary {
  index: number;
  name: string;
  dir: string;
  strategy: string;
  simulated: boolean;
  live: boolean;
  proof: boolean;
  /** The settings the strategy reads: `N=8 M=4 T=4 ε=0.2 θ=0.7 judge×2`, `samples=64 T=4`. */
  settings: string;
  /** The roles that made calls, the judge only when the run has one. */
  roles: string[];
  /** `model (simulated): role, role…`, one entry per distinct endpoint. */
  models: string[];
  /** Sampling as sent: temperature and the seed. */
  sampling: string;
  createdAt: string;
  /** Whether the strategy has verifiers: only then are scores, best-verified and banks shown. */
  hasVerifier: boolean;
  /** The run of the viewer's this one was forked from (its manifest names it), or null. */
  fork: ForkLink | null;
  /** Each `--resume --force` that changed call-shaping settings after iterations were done: `settings` and `sampling` are the last ones, not those of its first iterations. */
  forcedChanges: string[];
}

/** `model at URL: role, role`, one line per endpoint the run's roles went to. */
function modelLines(config: RunConfig, outline: StrategyOutline): string[] {
  const byEndpoint = new Map<string, string[]>();
  for (const { role, slot } of outline.roles) {
    const endpoint = config.roles.endpoints[slot];
    const label = `${endpoint.model}${endpoint.baseUrl === null ? ' (simulated)' : ` at ${endpoint.baseUrl}`}`;
    byEndpoint.set(label, [...(byEndpoint.get(label) ?? []), role]);
  }
  return [...byEndpoint].map(([label, roles]) => `${label}: ${roles.join(', ')}`);
}

/** Describes a run; `fork`: the run it was made from (fork-link.ts). */
export async function runSummary(run: ViewedRun, index: number, fork: ForkLink | null): Promise<RunSummary> {
  const { config } = run.manifest;
  const outline = strategyOutline(run.manifest.strategy, config.judge.passes);
  // Scored candidates, whatever the verifier role is called (TMAS's `verification`, V-R's `rater`, a plugin's).
  const hasVerifier = (await run.curves()).some((it) => it.meanScore !== null);
  return {
    index,
    name: run.name,
    dir: run.dir,
    strategy: run.manifest.strategy,
    simulated: run.manifest.simulated,
    live: run.live(),
    proof: config.loop.proof,
    settings: settingsLine(config, run.manifest.strategy),
    roles: outline.roles.map((r) => r.role),
    models: modelLines(config, outline),
    sampling: `temperature ${config.roles.temperature}, seed ${config.loop.seed}, context ${config.context.window} tokens`,
    createdAt: run.manifest.createdAt,
    hasVerifier,
    fork,
    forcedChanges: (run.manifest.forcedChanges ?? []).map(describeForcedChange),
  };
}
