/**
 * The plugin API: a user's module replaces the actor definition of any role
 * of the chosen strategy, or only its prompt and/or its reply parser.
 *
 * ```ts
 * // my-agents.ts, run with: tmas run --agents ./my-agents.ts …
 * import { defineAgents } from 'tmas';
 * export default defineAgents({
 *   verification: { prompt: (request, options) => ({ system: 'You are the Verification agent. …', parts: [] }) },
 * });
 * ```
 *
 * Programmatically: `applyAgents(STRATEGIES.tmas, agents)` returns a new
 * strategy to pass to `runEvaluation(…, { strategy })`. A replaced role still
 * talks only through the message protocol and the runtime's `llm` and `post`,
 * so journal, metrics and report work unchanged.
 */
import type { AnyStateMachine } from 'xstate';
import { createMultiCallRoleMachine, type MultiCallRoleDefinition } from '../../../machines/multi-call.role.ts';
import { createRoleMachine, type RoleDefinition } from '../../../machines/role.machine.ts';
import { strategyNamed, type Strategy } from '../../../machines/strategies/index.ts';
import type { LoopConfig } from '../../settings/config.ts';
import { loadAgentsModule } from './agents-load.ts';
import { agentsProblem, checkAgentsObject, checkDefinitionCalls, checkReplaceableRole } from './agents-check.ts';
import { guardedDefinition, guardedPrompt, guardedReply } from './guarded-override.ts';
import { markModuleMachine } from './module-machine-watch.ts';
import { applyPromptTemplates } from './prompt-templates.ts';
import type { MessageType } from '../../kernel/protocol.ts';

/** The name of every role with a request message in the protocol (`solution`, `verification`, `ceo`, …). */
export type RoleName = Extract<MessageType, `${string}.requested`> extends `${infer R}.requested` ? R : never;

/** The request type of a role. */
export type RequestOf<R extends RoleName> = Extract<MessageType, `${R}.requested`>;

/** What a plugin may replace for one role: the whole actor, or its prompt and/or reply parser. */
export interface RoleOverride<R extends RoleName = RoleName> {
  /** A whole actor definition: a `RoleDefinition` (one call per request), a `MultiCallRoleDefinition` (several), or a machine. */
  actor?: RoleDefinition<RequestOf<R>> | MultiCallRoleDefinition<RequestOf<R>> | AnyStateMachine;
  /** Only the prompt; the strategy's definition keeps the rest. */
  prompt?: RoleDefinition<RequestOf<R>>['prompt'];
  /** Only the output parser; the strategy's definition keeps the rest. */
  reply?: RoleDefinition<RequestOf<R>>['reply'];
}

/** A plugin: overrides by role name, for whichever strategy the run uses. */
export type Agents = { [R in RoleName]?: RoleOverride<R> };

/** Declares a plugin's overrides, typed by role. Returns its argument. */
export function defineAgents<const A extends Agents>(agents: A): A {
  return agents;
}

/** Declares a one-call role definition, typed by its request (an identity, for type inference). */
export function defineRole<T extends MessageType>(definition: RoleDefinition<T>): RoleDefinition<T> {
  return definition;
}

/** Declares a role that makes several calls per request, typed by its request (an identity, for type inference). */
export function defineMultiCallRole<T extends MessageType>(definition: MultiCallRoleDefinition<T>): MultiCallRoleDefinition<T> {
  return definition;
}

function isMachine(value: unknown): value is AnyStateMachine {
  return typeof value === 'object' && value !== null && typeof (value as { provide?: unknown }).provide === 'function' && 'config' in value;
}

function isMultiCall(value: object): value is MultiCallRoleDefinition {
  return Array.isArray((value as { calls?: unknown }).calls);
}

/** What an override may set. */
const OVERRIDE_KEYS = new Set(['actor', 'prompt', 'reply']);

/** Checks one role's override: known keys, something set, actor alone or prompt and reply. */
function checkOverride(role: string, override: unknown, where: string): asserts override is RoleOverride {
  const unknown = typeof override === 'object' && override !== null ? Object.keys(override).filter((key) => !OVERRIDE_KEYS.has(key)) : [];
  if (unknown.length > 0) throw agentsProblem(where, `the ${role} override has ${unknown.map((key) => JSON.stringify(key)).join(', ')}, which is none of actor, prompt and reply.`);
  const given = override as RoleOverride | null;
  if (typeof given !== 'object' || given === null || (given.actor === undefined && given.prompt === undefined && given.reply === undefined)) {
    throw agentsProblem(where, `the ${role} override must set actor, prompt or reply.`);
  }
  if (given.actor !== undefined && (given.prompt !== undefined || given.reply !== undefined)) {
    throw agentsProblem(where, `the ${role} override sets actor together with prompt or reply: put them in the actor definition instead.`);
  }
}

/** The actor a module's `actor` makes of `role`, and its definition (none for a machine or a multi-call role). */
function actorOf(strategy: Strategy, role: string, actor: unknown, where: string): { machine: AnyStateMachine; definition: RoleDefinition | null } {
  if (isMachine(actor)) {
    // Code tmas cannot guard: each of its requests is bounded in time instead (module-machine-watch.ts).
    markModuleMachine(actor, where);
    return { machine: actor, definition: null };
  }
  if (typeof actor !== 'object' || actor === null || typeof (actor as RoleDefinition).prompt !== 'function' || typeof (actor as RoleDefinition).reply !== 'function') {
    throw agentsProblem(where, `the ${role} actor must be a role definition (role, request, index, prompt, reply) or a machine.`);
  }
  const definition = actor as RoleDefinition | MultiCallRoleDefinition;
  if (definition.role !== role || definition.request !== `${role}.requested`) {
    throw agentsProblem(where, `the ${role} actor must have role '${role}' and request '${role}.requested' (it has '${definition.role}' and '${definition.request}').`);
  }
  checkDefinitionCalls(definition, role, where);
  if (isMultiCall(definition)) return { machine: createMultiCallRoleMachine(guardedDefinition(where, role, definition)), definition: null };
  // A template stays replaceable (--prompt) only while the prompt is still the one made from it.
  const { template: _, ...withoutTemplate } = definition;
  const kept = definition.prompt === strategy.definitions?.[role]?.prompt ? definition : withoutTemplate;
  const guarded = guardedDefinition(where, role, kept);
  return { machine: createRoleMachine(guarded), definition: guarded };
}

/** The built-in definition of `role` with a module's prompt and/or reply in place of its own. */
function withOverrides(base: RoleDefinition, override: RoleOverride, role: string, where: string): RoleDefinition {
  for (const key of ['prompt', 'reply'] as const) {
    if (override[key] !== undefined && typeof override[key] !== 'function') throw agentsProblem(where, `the ${role} ${key} must be a function.`);
  }
  const { template: _, ...withoutTemplate } = base;
  return {
    // A prompt of the module's own is no longer the built-in template: --prompt cannot replace it.
    ...(override.prompt ? withoutTemplate : base),
    ...(override.prompt ? { prompt: guardedPrompt(where, role, override.prompt as RoleDefinition['prompt']) } : {}),
    ...(override.reply ? { reply: guardedReply(where, role, override.reply as RoleDefinition['reply']) } : {}),
  };
}

/**
 * Applies a plugin's overrides to a strategy and returns the new strategy.
 * `where` names the plugin in error messages (its file, for `--agents`).
 */
export function applyAgents(strategy: Strategy, agents: Agents, where = 'the agents plugin'): Strategy {
  checkAgentsObject(agents, strategy, where);
  const roles = { ...strategy.roles };
  const definitions: Record<string, RoleDefinition> = { ...strategy.definitions };
  for (const [role, override] of Object.entries(agents)) {
    if (override === undefined) continue;
    checkReplaceableRole(role, strategy, where);
    checkOverride(role, override, where);
    if (override.actor !== undefined) {
      const { machine, definition } = actorOf(strategy, role, override.actor, where);
      roles[role] = machine;
      if (definition === null) delete definitions[role];
      else definitions[role] = definition;
      continue;
    }
    const base = definitions[role];
    if (!base) throw agentsProblem(where, `the ${role} role of ${strategy.name} is a custom machine: replace its whole actor instead of its prompt or reply.`);
    definitions[role] = withOverrides(base, override, role, where);
    roles[role] = createRoleMachine(definitions[role]);
  }
  return { ...strategy, roles, definitions };
}

/** Loads a plugin module (TypeScript or JavaScript): its default export, or its `agents` export (agents-load.ts). */
export async function loadAgents(file: string, options: { limitMs?: number } = {}): Promise<Agents> {
  return (await loadAgentsModule(file, options)) as Agents;
}

/** The strategy a run uses: `--strategy`, with the `--agents` module applied when there is one, then the `--prompt` templates. */
export async function resolveStrategy(config: Pick<LoopConfig, 'strategy' | 'agents' | 'prompts'>): Promise<Strategy> {
  const strategy = strategyNamed(config.strategy);
  const plugged = config.agents === null ? strategy : applyAgents(strategy, await loadAgents(config.agents), `The agents module ${config.agents} (--agents)`);
  return applyPromptTemplates(plugged, config.prompts);
}
