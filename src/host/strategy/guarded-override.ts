/**
 * A plugin's prompt and reply functions, called as the run calls them, with
 * their failures told as the plugin's: a function that throws, or returns
 * something the runtime cannot use, stops the run with TMAS_AGENTS naming the
 * module, the role and what to fix (exit 2), rather than as an internal error
 * of tmas with a stack trace, or a message routed nowhere.
 */
import type { RoleDefinition } from '../../../machines/role.machine.ts';
import { UserError } from '../../kernel/errors.ts';
import type { Message } from '../../kernel/protocol.ts';

/** How a returned value reads in a message: its type, and its keys for an object. */
function described(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  return Array.isArray(value) ? 'an array' : `an object with keys ${Object.keys(value).join(', ') || '(none)'}`;
}

/** Whether `value` is a prompt: a system message (text or template) and a list of parts. */
function isPrompt(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const { system, parts } = value as { system?: unknown; parts?: unknown };
  return (typeof system === 'string' || (typeof system === 'object' && system !== null)) && Array.isArray(parts);
}

/** What is wrong with a reply to `request` from `role`'s reply function, or null. */
function replyProblem(role: string, request: Message, reply: unknown): string | null {
  if (typeof reply !== 'object' || reply === null) return `returned ${described(reply)}, not a message`;
  const message = reply as Partial<Message>;
  if (message.type !== `${role}.completed`) return `returned a message of type ${JSON.stringify(message.type)}, not '${role}.completed'`;
  const base = ['run', 'problem', 'iteration', 'correlation'] as const;
  if (base.some((key) => message[key] !== request[key])) return "returned a message without the request's run, problem, iteration and correlation: start it with ...replyBase(request)";
  return null;
}

/** The error of a plugin's function for `role`. */
function pluginError(where: string, role: string, part: 'prompt' | 'reply', what: string, cause?: unknown): UserError {
  return new UserError('TMAS_AGENTS', `${where}: the ${role} ${part} ${what}. Fix the module, or run without --agents.`, cause === undefined ? undefined : { cause });
}

/** `prompt`, its throws and its returns that are not prompts told as the plugin's. */
export function guardedPrompt(where: string, role: string, prompt: RoleDefinition['prompt']): RoleDefinition['prompt'] {
  return (request, options) => {
    let spec: unknown;
    try {
      spec = prompt(request, options);
    } catch (error) {
      throw pluginError(where, role, 'prompt', `threw: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    if (!isPrompt(spec)) throw pluginError(where, role, 'prompt', `returned ${described(spec)}, not a prompt ({ system, parts: [{ id, text }] })`);
    return spec as ReturnType<RoleDefinition['prompt']>;
  };
}

/** `reply`, its throws and its returns that are not its role's reply to the request told as the plugin's. */
export function guardedReply(where: string, role: string, reply: RoleDefinition['reply']): RoleDefinition['reply'] {
  return (request, output, options) => {
    let message: unknown;
    try {
      message = reply(request, output, options);
    } catch (error) {
      throw pluginError(where, role, 'reply', `threw: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    const problem = replyProblem(role, request, message);
    if (problem !== null) throw pluginError(where, role, 'reply', problem);
    return message as Message;
  };
}
