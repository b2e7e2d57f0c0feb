/**
 * The registry of built-in strategies: one line per strategy folder. Adding a
 * strategy is a folder under machines/strategies/ (its roles, its problem
 * machine or program, its flags, its expected calls, its simulator formats)
 * plus its line here; the CLI, config, resume, runtime, progress and
 * simulator read everything else from the `Strategy` it exports.
 */
import type { Strategy } from '../contract.ts';
import { UserError } from '../../src/kernel/errors.ts';
import type { GenerationKind } from '../role.machine.ts';
import { judgeRole } from '../roles/judge.role.ts';
import { majorityStrategy } from './majority/index.ts';
import { masCeoStrategy } from './mas-ceo/index.ts';
import { pacoreStrategy } from './pacore/index.ts';
import { rseStrategy } from './rse/index.ts';
import { selfRefineStrategy } from './self-refine/index.ts';
import { tmasStrategy } from './tmas/index.ts';
import { verifyRefineStrategy } from './verify-refine/index.ts';
import { verifyRefineChainsStrategy } from './verify-refine-chains/index.ts';

/** Every built-in strategy, by name; the first is the default. */
export const STRATEGIES: Record<string, Strategy> = Object.fromEntries(
  [tmasStrategy, majorityStrategy, selfRefineStrategy, verifyRefineStrategy, verifyRefineChainsStrategy, rseStrategy, masCeoStrategy, pacoreStrategy].map((strategy) => [strategy.name, strategy]),
);

/** The built-in strategy of a name, or a user error listing the names. */
export function strategyNamed(name: string | undefined): Strategy {
  const strategy = STRATEGIES[name ?? 'tmas'];
  if (!strategy) {
    throw new UserError('TMAS_USAGE', `Unknown --strategy ${name}. Choose one of: ${Object.keys(STRATEGIES).join(', ')}.`);
  }
  return strategy;
}

/**
 * What each role of a strategy's runs generates, by role name, in the
 * strategy's order: its own roles, then the judge, which grades every
 * strategy's candidates (src/host/run/run-machine.ts adds it). undefined for a
 * role whose definition declares no kind (a custom machine).
 */
export function roleKinds(strategy: Strategy): Record<string, GenerationKind | undefined> {
  const kinds: Record<string, GenerationKind | undefined> = {};
  for (const role of Object.keys(strategy.roles)) kinds[role] = strategy.definitions?.[role]?.kind;
  kinds.judge ??= judgeRole.kind;
  return kinds;
}

export type { Strategy } from '../contract.ts';
export { tmasStrategy };
