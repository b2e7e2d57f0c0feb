/**
 * A plugin's functions, called as the run calls them, with their failures
 * told as the plugin's: a function that throws, or returns something the
 * runtime cannot use, stops the run with TMAS_AGENTS naming the module, the
 * role and what to fix (exit 2), rather than as an internal error of tmas
 * with a stack trace, or a message routed nowhere. Every function of a
 * definition a module gives is guarded, a multi-call role's as a one-call
 * role's: its prompt, its reply, and `index`, `subject`, `maxTokens` and
 * `validate`, which the run calls too.
 */
import type { MultiCallRoleDefinition } from '../../../machines/multi-call.role.ts';
import type { RoleDefinition } from '../../../machines/role.machine.ts';
import { UserError } from '../../kernel/errors.ts';
import type { Message } from '../../kernel/protocol.ts';
import { described, promptProblem } from './prompt-shape.ts';
import { thrownAt } from './thrown-at.ts';
import { thrownText } from '../../kernel/thrown-text.ts';

/** What is wrong with a reply to `request` from `role`'s reply function, or null. */
function replyProblem(role: string, request: Message, reply: unknown): string | null {
  if (typeof reply !== 'object' || reply === null || typeof (reply as { then?: unknown }).then === 'function') return `returned ${described(reply)}, not a message`;
  const message = reply as Partial<Message>;
  if (message.type !== `${role}.completed`) return `returned a message of type ${typeof message.type === 'string' ? JSON.stringify(thrownText(message.type, 200)) : described(message.type)}, not '${role}.completed'`;
  const base = ['run', 'problem', 'iteration', 'correlation'] as const;
  if (base.some((key) => message[key] !== request[key])) return "returned a message without the request's run, problem, iteration and correlation: start it with ...replyBase(request)";
  return null;
}

/** The error of a plugin's function for `role`. */
function pluginError(where: string, role: string, part: string, what: string, cause?: unknown): UserError {
  return new UserError('TMAS_AGENTS', `${where}: the ${role} ${part} ${what}. Fix the module, or run without --agents.`, cause === undefined ? undefined : { cause });
}

/** Calls `fn`, telling a throw as the plugin's. */
function calling<A extends unknown[], R>(where: string, role: string, part: string, fn: (...args: A) => R, args: A): R {
  try {
    return fn(...args);
  } catch (error) {
    throw pluginError(where, role, part, `threw: ${thrownText(error)}${thrownAt(error)}`, error);
  }
}

/** What `problem` finds wrong with `value`; reading a value the plugin returned may throw too (a getter, a Proxy's trap): that is what is wrong. */
function problemOf<A extends unknown[]>(problem: (value: unknown, args: A) => string | null, value: unknown, args: A): string | null {
  try {
    return problem(value, args);
  } catch (error) {
    return `returned a value that could not be read (reading it threw: ${thrownText(error)})`;
  }
}

/** `fn`, its throws told as the plugin's, and what it returns checked by `problem` (null: fine). */
function guarded<A extends unknown[], R>(where: string, role: string, part: string, fn: (...args: A) => R, problem: (value: unknown, args: A) => string | null): (...args: A) => R {
  // A function, not an arrow: a module's method that reads `this` is called on the definition, as it was unguarded.
  return function (this: unknown, ...args: A): R {
    const value = calling(where, role, part, (...given: A) => fn.apply(this, given), args);
    const wrong = problemOf(problem, value, args);
    if (wrong !== null) throw pluginError(where, role, part, wrong);
    return value;
  };
}

const wholeNumber = (value: unknown): string | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? null : `returned ${JSON.stringify(value) ?? described(value)}, not a whole number`);
const tokenLimit = (value: unknown): string | null => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? null : `returned ${JSON.stringify(value) ?? described(value)}, not a whole number of tokens above 0`);
const verdict = (value: unknown): string | null => (value === null || typeof value === 'string' ? null : `returned ${described(value)}, not null or the text of what is wrong`);
const anything = (): null => null;

/** `prompt`, its throws and its returns that are not prompts told as the plugin's. */
export function guardedPrompt(where: string, role: string, prompt: RoleDefinition['prompt']): RoleDefinition['prompt'] {
  return guarded(where, role, 'prompt', prompt, promptProblem);
}

/** `reply` (one output, or a multi-call role's outputs), its throws and its returns that are not its role's reply to the request told as the plugin's. */
export function guardedReply<F extends (...args: never[]) => Message>(where: string, role: string, reply: F): F {
  const check = (message: unknown, args: unknown[]) => replyProblem(role, args[0] as Message, message);
  return guarded(where, role, 'reply', reply as unknown as (...args: unknown[]) => Message, check) as unknown as F;
}

/** A module's one-call or multi-call role definition, every function of it guarded. */
export function guardedDefinition<D extends RoleDefinition | MultiCallRoleDefinition>(where: string, role: string, definition: D): D {
  const { index, subject, maxTokens, validate } = definition;
  return {
    ...definition,
    prompt: guardedPrompt(where, role, definition.prompt as RoleDefinition['prompt']),
    reply: guardedReply(where, role, definition.reply as (...args: never[]) => Message),
    index: guarded(where, role, 'index', index, wholeNumber),
    ...(subject ? { subject: guarded(where, role, 'subject', subject, anything) } : {}),
    ...(maxTokens ? { maxTokens: guarded(where, role, 'maxTokens', maxTokens, tokenLimit) } : {}),
    ...(validate ? { validate: guarded(where, role, 'validate', validate, verdict) } : {}),
  };
}
