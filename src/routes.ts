/**
 * Who sends and who receives each message type. Actors post messages without
 * naming an address; the bus stamps `from` and `to` from here, so the routing
 * of the whole protocol reads in one place.
 */
import { ROLES, type Address, type Message, type Role } from './protocol.ts';

const roles = new Set<string>(ROLES);

function roleOf(type: string): Role | null {
  const owner = type.slice(0, type.indexOf('.'));
  return roles.has(owner) ? (owner as Role) : null;
}

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
      return { from: `role:${message.role}`, to: 'log' };
    case 'llm.failed':
      return { from: `role:${message.role}`, to: problem };
    default: {
      const role = roleOf(message.type);
      if (role === null) throw new TypeError(`no route for message type ${(message as Message).type}`);
      return message.type.endsWith('.requested')
        ? { from: problem, to: `role:${role}` }
        : { from: `role:${role}`, to: problem };
    }
  }
}
