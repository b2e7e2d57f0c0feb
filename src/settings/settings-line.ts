/**
 * A run's settings in one line as its strategy reads them: its own flags, the
 * shared loop settings it declares (a `majority` run shows its samples and T,
 * no N, M, ε or θ), the judge and proof mode. The viewer's page head and the
 * report's runs table say the same.
 */
import path from 'node:path';
import { loopSettingsRead, type SharedLoopSetting } from '../../machines/contract.ts';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { RunConfig } from './config.ts';

const SHOWN: Record<SharedLoopSetting, (config: RunConfig) => string> = {
  nCandidates: (c) => `N=${c.loop.nCandidates}`,
  nVerifications: (c) => `M=${c.loop.nVerifications}`,
  maxIterations: (c) => `T=${c.loop.maxIterations}`,
  epsilon: (c) => `ε=${c.loop.epsilon}`,
  jaccardThreshold: (c) => `θ=${c.loop.jaccardThreshold}`,
};

/** `N=8 M=4 T=4 ε=0.2 θ=0.7 judge×2`, `samples=64 vote-pool=0 T=4`: the settings `strategy` reads in `config`. */
export function settingsLine(config: RunConfig, strategy: string): string {
  // A strategy the registry does not know (a plugin's, an older run's without a name) shows every shared setting.
  const shared = loopSettingsRead(STRATEGIES[strategy], config.loop.strategyOptions).map((name) => SHOWN[name](config));
  // The strategy's own flags as the command line spells them: `round-widths=4,1`.
  const own = Object.entries(config.loop.strategyOptions).map(([name, value]) => `${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}=${value === '' ? '(empty)' : value}`);
  const judge = config.judge.passes > 0 ? [`judge×${config.judge.passes}${config.judge.when === 'unsure' ? ' when unsure' : ''}`] : [];
  return [...own, ...shared, ...judge, ...(config.loop.proof ? ['proof'] : []), ...swapped(config)].join(' ');
}

/** A file by its name and, where recorded, the start of its digest, as messages show it (files/digest.ts, a room above): `brief.mjs (sha256:1a2b3c4d5e6f)`. */
function named(file: string, digest: string | null): string {
  return `${path.basename(file)}${digest === null ? '' : ` (${digest.slice(0, 'sha256:'.length + 12)})`}`;
}

/**
 * What replaces the strategy's own roles: an agents module and prompt templates, by file name and
 * digest, so that two sides of an ablation read apart, and so do two runs of one file edited between
 * them (by name alone, `agents=brief.mjs` read the same for both).
 */
function swapped(config: RunConfig): string[] {
  const agents = config.loop.agents === null ? [] : [`agents=${named(config.loop.agents, config.loop.agentsDigest)}`];
  const prompts = Object.entries(config.loop.prompts).map(([role, file]) => `prompt:${role}=${named(file.file, file.sha256)}`);
  return [...agents, ...prompts];
}
