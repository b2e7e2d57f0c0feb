/**
 * What the viewer says about a run at the top of its page: the strategy, the
 * models per endpoint slot, the sampling settings and whether it is live.
 */
import type { ViewedRun } from './viewed-run.ts';

/** A run's description for the page. */
export interface RunSummary {
  index: number;
  name: string;
  dir: string;
  strategy: string;
  simulated: boolean;
  live: boolean;
  proof: boolean;
  /** `N=8 M=4 T=4 judge×2 ε=0.2 seed 0`. */
  settings: string;
  /** `model (slots…)`, one entry per distinct endpoint. */
  models: string[];
  /** Sampling as sent: temperature and the seed. */
  sampling: string;
  createdAt: string;
  /** Whether the strategy has verifiers: only then are scores, best-verified and banks shown. */
  hasVerifier: boolean;
}

/** Describes a run. */
export async function runSummary(run: ViewedRun, index: number): Promise<RunSummary> {
  const { config } = run.manifest;
  const byEndpoint = new Map<string, string[]>();
  for (const [slot, endpoint] of Object.entries(config.endpoints)) {
    const label = `${endpoint.model}${endpoint.baseUrl === null ? ' (simulated)' : ` at ${endpoint.baseUrl}`}`;
    byEndpoint.set(label, [...(byEndpoint.get(label) ?? []), slot]);
  }
  // Scored candidates, whatever the verifier role is called (TMAS's `verification`, V-R's `rater`, a plugin's).
  const hasVerifier = (await run.curves()).some((it) => it.meanScore !== null);
  return {
    index,
    name: run.name,
    dir: run.dir,
    strategy: run.manifest.strategy,
    simulated: run.manifest.simulated,
    live: run.live(),
    proof: config.proof,
    settings:
      `N=${config.nCandidates} M=${config.nVerifications} T=${config.maxIterations}` +
      `${config.judgePasses ? ` judge×${config.judgePasses}` : ''} ε=${config.epsilon}${config.proof ? ' proof' : ''}`,
    models: [...byEndpoint].map(([label, slots]) => `${label}: ${slots.join(', ')}`),
    sampling: `temperature ${config.temperature}, seed ${config.seed}, context ${config.maxTokens} tokens`,
    createdAt: run.manifest.createdAt,
    hasVerifier,
  };
}
