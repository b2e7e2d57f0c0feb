/**
 * The roles the simulated model answers, by the name a prompt gives them
 * ("You are the X agent"), and the reply format of each: read from every
 * registered strategy's `sim` declaration, so a new strategy needs no edit here.
 */
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { SimFormat } from '../kernel/sim-formats.ts';

function collect(): Map<string, SimFormat> {
  const formats = new Map<string, SimFormat>();
  for (const strategy of Object.values(STRATEGIES)) {
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

/** Reply format by role name. */
export const SIM_ROLE_FORMATS: ReadonlyMap<string, SimFormat> = collect();

/** The role a request without a system message is answered as: a bare prompt, as PaCoRe sends. */
export const BARE_PROMPT_ROLE = 'synthesis';

/** Every role name the simulator answers. */
export const SIM_ROLES: readonly string[] = [...SIM_ROLE_FORMATS.keys()];
