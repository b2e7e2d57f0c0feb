/**
 * Delivery: how a message on the bus reaches its actor. Posting defers the
 * publish to a microtask (an action must not run another actor's transition
 * inside its own; microtasks run in order, so the log order is the order in
 * which actors posted), and each envelope is sent to the actor its address
 * names, found through the actor system.
 */
import type { AnyActorRef } from 'xstate';
import type { Bus } from '../kernel/bus.ts';
import { TmasError } from '../kernel/errors.ts';
import type { Message } from '../kernel/protocol.ts';
import { deliveryId } from '../kernel/routes.ts';

/** The `post` action every machine is provided with: puts its message on the bus. */
export function postTo(bus: Bus): (_: unknown, params: { message: Message }) => void {
  return (_, params) => queueMicrotask(() => void bus.publish(params.message));
}

/**
 * Sends every envelope addressed to an actor to that actor. The promise
 * rejects (TMAS_MISROUTED) when an address names no actor: a message is never
 * dropped silently, nor bounced back to its sender as XState's `sendTo` would.
 */
export function deliver(bus: Bus, root: AnyActorRef & { system: { get(id: string): AnyActorRef | undefined } }): Promise<never> {
  return new Promise<never>((_, reject) => {
    bus.envelopes$.subscribe((envelope) => {
      if (envelope.to === 'log') return;
      const target = envelope.to === 'run' ? root : root.system.get(deliveryId(envelope.to, envelope.message.correlation));
      if (!target) {
        reject(new TmasError('TMAS_MISROUTED', `no actor at ${envelope.to} for ${envelope.message.type} (seq ${envelope.seq})`));
        return;
      }
      target.send(envelope.message as never);
    });
  });
}
