/**
 * The roles the simulated model answers for tmas and the reply format of each,
 * read from every registered strategy's `sim` declaration: the table the host
 * hands the simulator when it starts one (`SimOptions.roles`), so that the
 * simulator knows its formats and never the strategies, and a new strategy
 * needs no edit in src/sim/.
 */
import type { SimFormat } from '../../src/kernel/sim-formats.ts';
import type { Strategy } from '../contract.ts';
import { STRATEGIES } from './index.ts';

/** Reply format by role name, over `strategies`; a role name has one format whichever strategy declares it. */
export function simRolesOf(strategies: readonly Strategy[]): ReadonlyMap<string, SimFormat> {
  const formats = new Map<string, SimFormat>();
  for (const strategy of strategies) {
    for (const [role, format] of Object.entries(strategy.sim)) {
      const known = formats.get(role);
      if (known !== undefined && known !== format) {
        throw new TypeError(`the ${strategy.name} strategy answers the ${role} role as ${format}, another strategy as ${known}: a role name has one format`);
      }
      formats.set(role, format);
    }
  }
  return formats;
}

/** Reply format by role name, for every built-in strategy. */
export const SIM_ROLES: ReadonlyMap<string, SimFormat> = simRolesOf(Object.values(STRATEGIES));
