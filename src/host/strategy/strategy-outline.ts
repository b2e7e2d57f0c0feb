/**
 * What a finished run's strategy declares, as the viewer reads it: the roles
 * that made calls (the judge only when the run was judged) and the endpoint
 * slot of each, the shared loop settings it reads, and what each call is
 * about (its candidate and pass, from the role's `subject`). The
 * viewer never decodes call indices itself: a strategy's roles say how.
 */
import { SHARED_LOOP_SETTINGS, type SharedLoopSetting } from '../../../machines/contract.ts';
import { judgeRole } from '../../../machines/roles/judge.role.ts';
import { endpointSlotOf, type CallSubject, type RoleDefinition } from '../../../machines/role.machine.ts';
import { STRATEGIES } from '../../../machines/strategies/index.ts';
import type { EndpointSlot } from '../../kernel/protocol.ts';

export type { CallSubject } from '../../../machines/role.machine.ts';
export type { SharedLoopSetting } from '../../../machines/contract.ts';

/** A strategy as a run's pages describe it. */
export interface StrategyOutline {
  /** The roles that make calls, in the strategy's order, the judge last when the run has one. */
  roles: Array<{ role: string; slot: EndpointSlot }>;
  loopSettings: readonly SharedLoopSetting[];
  /** Every sample is drawn in iteration 0 and each iteration holds the earlier ones' again (majority). */
  upFront: boolean;
  /** The completion limits some roles' calls are sent below the run's, in words (Strategy.roleLimits); null when none. */
  roleLimits: string | null;
  /** What a call is about; null when it is about the problem (or the role is not the strategy's own). */
  subjectOf(role: string, index: number): CallSubject | null;
}

/** The outline of `strategy` for a run with `judgePasses` judge passes per candidate (0: no judge). */
export function strategyOutline(strategy: string, judgePasses: number): StrategyOutline {
  // A strategy the registry does not know (a plugin's, or a later version's): roles are read from the calls alone.
  const declared = STRATEGIES[strategy];
  const definitions: Record<string, Pick<RoleDefinition, 'role' | 'endpoint' | 'subject'>> = { ...declared?.definitions };
  const names = Object.keys(declared?.roles ?? {}).filter((role) => role !== 'judge');
  if (judgePasses > 0) {
    definitions.judge = judgeRole;
    names.push('judge');
  }
  return {
    roles: names.map((role) => ({ role, slot: endpointSlotOf(definitions[role] ?? { role }) })),
    loopSettings: declared?.loopSettings ?? SHARED_LOOP_SETTINGS,
    upFront: declared?.upFront === true,
    roleLimits: declared?.roleLimits ?? null,
    subjectOf: (role, index) => definitions[role]?.subject?.(index) ?? null,
  };
}
