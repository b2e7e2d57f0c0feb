/**
 * What an agents module must be, checked when it is applied to a strategy,
 * before any call: an object naming at least one role the strategy has (its
 * own roles, not the judge's, which is the shared grading), and definitions
 * whose calls can be made (a multi-call role's `calls`, their endpoint slots
 * and temperatures). Each mistake is TMAS_AGENTS naming the module and what
 * to write; before, a module exporting `[]` or `{}` ran as the plain strategy
 * labelled with the module, `constructor` passed for a role (every object has
 * one), and a multi-call role with no calls or a misspelt slot stopped the
 * run midway with an internal error.
 */
import type { Strategy } from '../../../machines/strategies/index.ts';
import { UserError } from '../../kernel/errors.ts';
import { ENDPOINT_SLOTS } from '../../kernel/slots.ts';
import { described } from './prompt-shape.ts';

/** The role whose calls grade every method alike: a module that replaced it would grade its own run otherwise than the runs it is compared with. */
const JUDGE_ROLE = 'judge';

/** The error of a module at `where`. */
export function agentsProblem(where: string, what: string): UserError {
  return new UserError('TMAS_AGENTS', `${where}: ${what}`);
}

/** The roles a module may replace in `strategy`. */
function replaceableRoles(strategy: Strategy): string[] {
  return Object.keys(strategy.roles).filter((role) => role !== JUDGE_ROLE);
}

/** Checks a module's export as a whole: an object of overrides by role, at least one of them set. */
export function checkAgentsObject(agents: unknown, strategy: Strategy, where: string): asserts agents is Record<string, unknown> {
  if (typeof agents !== 'object' || agents === null || Array.isArray(agents)) {
    throw agentsProblem(where, `it exports ${described(agents)}: export an object made with defineAgents({...}), whose keys are roles of the strategy.`);
  }
  if (Object.values(agents).every((override) => override === undefined)) {
    throw agentsProblem(where, `it replaces no role: the run would be the plain ${strategy.name} strategy under the module's name. Name a role of ${strategy.name} in defineAgents({...}) (${replaceableRoles(strategy).join(', ')}), or run without --agents.`);
  }
}

/** Checks that `role` is one the module may replace in `strategy`. */
export function checkReplaceableRole(role: string, strategy: Strategy, where: string): void {
  if (role === JUDGE_ROLE) {
    throw agentsProblem(where, `it replaces the judge, whose calls are the shared grading, the same for every method (--prompt refuses it too): a run graded by a judge of its own does not compare with the others. Remove the judge key; to grade with another model, give --judge-base-url and --judge-model-name.`);
  }
  if (!Object.hasOwn(strategy.roles, role)) {
    throw agentsProblem(where, `the ${strategy.name} strategy has no ${role} role. Its roles are: ${replaceableRoles(strategy).join(', ')}. Choose another --strategy or another role.`);
  }
}

/** What is wrong with an endpoint slot a definition names (`where` says which field), or null. */
function slotProblem(slot: unknown, where: string): string | null {
  if (slot === undefined || (typeof slot === 'string' && (ENDPOINT_SLOTS as readonly string[]).includes(slot))) return null;
  return `${where} is ${JSON.stringify(slot) ?? described(slot)}, not an endpoint slot (${ENDPOINT_SLOTS.join(', ')})`;
}

/** What is wrong with one of a multi-call role's calls, or null. */
function callProblem(call: unknown, index: number): string | null {
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return `calls[${index}] is ${described(call)}, not { endpoint?, temperature? }`;
  const { endpoint, temperature } = call as { endpoint?: unknown; temperature?: unknown };
  const slot = slotProblem(endpoint, `calls[${index}].endpoint`);
  if (slot !== null) return slot;
  if (temperature !== undefined && !(typeof temperature === 'number' && Number.isFinite(temperature) && temperature >= 0)) {
    return `calls[${index}].temperature is ${JSON.stringify(temperature) ?? described(temperature)}, not a number of at least 0`;
  }
  return null;
}

/** Checks the calls a role definition (one-call, or multi-call when it has `calls`) would make. */
export function checkDefinitionCalls(definition: { endpoint?: unknown; index?: unknown; calls?: unknown }, role: string, where: string): void {
  const fail = (what: string) => agentsProblem(where, `the ${role} actor's ${what}. Fix the module, or run without --agents.`);
  if (typeof definition.index !== 'function') throw fail(`index is ${described(definition.index)}, not a function (spread the built-in definition: ...${role}Role)`);
  const slot = slotProblem(definition.endpoint, 'endpoint');
  if (slot !== null) throw fail(slot);
  if (!('calls' in definition)) return;
  const { calls } = definition;
  if (!Array.isArray(calls) || calls.length === 0) throw fail(`calls is ${Array.isArray(calls) ? 'empty' : described(calls)}: give a list of at least one call ({} is the role's own call)`);
  for (const [index, call] of calls.entries()) {
    const problem = callProblem(call, index);
    if (problem !== null) throw fail(problem);
  }
}
