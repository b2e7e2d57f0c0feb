/**
 * Who sends and who receives each message type. Actors post messages without
 * naming an address; the bus stamps `from` and `to` from here, so the routing
 * of the whole protocol reads in one place.
 *
 * The rule for role messages is by suffix, so a strategy's new roles route
 * without a change here: `<role>.requested` goes from the problem to
 * `role:<role>`, and `<role>.completed` back to the problem.
 */
import type { Address, Message } from './protocol.ts';

/** The sender and the recipient of a message. `log` receives what no actor consumes. */
export function routeOf(message: Message): { from: Address; to: Address } {
  const problem: Address = `problem:${message.problem}`;
  switch (message.type) {
    case 'run.started':
    case 'run.completed':
      return { from: 'run', to: 'log' };
    case 'problem.started':
    case 'bank.updated':
    case 'iteration.completed':
      return { from: problem, to: 'log' };
    case 'problem.completed':
      return { from: problem, to: 'run' };
    case 'context.trimmed':
    case 'output.invalid':
      return { from: `role:${message.role}`, to: 'log' };
    case 'llm.failed':
      return { from: `role:${message.role}`, to: problem };
    default: {
      const type: string = message.type;
      const dot = type.lastIndexOf('.');
      const role = type.slice(0, dot);
      const verb = type.slice(dot + 1);
      if (verb === 'requested') return { from: problem, to: `role:${role}` };
      if (verb === 'completed') return { from: `role:${role}`, to: problem };
      throw new TypeError(`no route for message type ${type}`);
    }
  }
}

/**
 * Role actors per role. A role actor that keeps state per request (a
 * multi-call role keeps each request's results until all its calls are in)
 * copies that state on every event, so one actor serving thousands of queued
 * requests (100 problems × 64 verifications) costs quadratic time. Shards keep
 * each one small; a request's calls all reach the same shard (by correlation),
 * so which shard serves a request changes no result. (Calls themselves are not
 * children of the role actor: see machines/start-call.ts.)
 */
export const ROLE_SHARDS = 32;

/** The system id of shard `shard` of a role address; shard 0 is the address itself. */
export function roleShardId(address: string, shard: number): string {
  return shard === 0 ? address : `${address}#${shard}`;
}

/** The actor that serves a message sent to `address`: for a role, the shard chosen by the message's correlation id (FNV-1a). */
export function deliveryId(address: Address, correlation: string): string {
  if (!address.startsWith('role:')) return address;
  let hash = 0x811c9dc5;
  for (let i = 0; i < correlation.length; i++) hash = Math.imul(hash ^ correlation.charCodeAt(i), 0x01000193);
  return roleShardId(address, (hash >>> 0) % ROLE_SHARDS);
}
