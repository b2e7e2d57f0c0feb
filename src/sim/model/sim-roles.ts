/**
 * Which reply format answers which role. A request names its role in its
 * system message ("You are the X agent"); the simulator knows only the wire
 * and its own formats (src/kernel/sim-formats.ts), never tmas's strategies.
 * Whoever starts it hands it the role names it answers and each one's format
 * (`SimOptions.roles`: the host passes every registered strategy's `sim`
 * declaration, machines/strategies/sim-roles.ts); left out, each format
 * answers the role named after it.
 */
import { SIM_FORMATS, type SimFormat } from '../../kernel/sim-formats.ts';

/** Reply format by role name. */
export type SimRoles = ReadonlyMap<string, SimFormat>;

/** Each format answering the role of its own name: the roles a simulator started with no `roles` answers. */
export const FORMAT_ROLES: SimRoles = new Map(SIM_FORMATS.map((format) => [format, format]));

/** A role a request asks for and the format that answers it. */
export interface AskedRole {
  role: string;
  format: SimFormat;
}

/** How a request without a system message is answered (and counted): a bare prompt, as PaCoRe sends. */
export const BARE_PROMPT: AskedRole = { role: 'synthesis', format: 'synthesis' };
