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
