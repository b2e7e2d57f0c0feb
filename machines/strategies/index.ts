/**
 * The registry of built-in strategies: one line per strategy folder. Adding a
 * strategy is a folder under machines/strategies/ (its roles, its problem
 * machine or program, its flags, its expected calls, its simulator formats)
 * plus its line here; the CLI, config, resume, runtime, progress and
 * simulator read everything else from the `Strategy` it exports.
 */
import type { Strategy } from '../contract.ts';
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

export type { Strategy } from '../contract.ts';
export { tmasStrategy };
