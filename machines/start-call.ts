/**
 * How a role actor runs its LLM calls: each call is an actor of the `llm`
 * logic the role machine was provided with, started on its own rather than
 * spawned as a child.
 *
 * Why not `spawnChild`: XState copies a machine's whole child map on every
 * spawn and every stop, and a role actor starts and stops a child per call. At
 * 16,400 calls that copying was 7% of the main thread and 11% of everything
 * allocated. A call started here reports back with a `llm.done` event instead
 * of `xstate.done.actor.*`, and is still stopped (its request aborted) when the
 * role actor stops, as a child would be.
 */
import { createActor, type AnyActor, type AnyActorLogic, type AnyActorRef } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { LlmInput, LlmResult } from './llm.ts';

/** What a finished call sends to the role actor that started it. */
export interface CallDoneEvent {
  type: 'llm.done';
  /** The id the role gave the call. */
  id: string;
  output: LlmResult;
}

/** What a call that threw (a bug, not a failed request: those are results) sends to its role actor. */
export interface CallErrorEvent {
  type: 'llm.error';
  id: string;
  error: unknown;
}

/**
 * The transition every role machine takes on `llm.error`. A call that threw is
 * a bug, not a failed request: fail the role actor, and with it the run, with
 * that error.
 */
export const failOnCallError = {
  actions: ({ event }: { event: CallErrorEvent }): void => {
    throw event.error;
  },
};

// The calls in progress per role actor, stopped together when the role stops.
const running = new WeakMap<AnyActorRef, Set<AnyActor>>();

function llmLogicOf(role: AnyActorRef): AnyActorLogic {
  const implementations = (role as unknown as { logic?: { implementations?: { actors?: Record<string, unknown> } } }).logic?.implementations;
  const logic = implementations?.actors?.llm;
  if (logic === undefined) throw new TmasError('TMAS_NOT_PROVIDED', `the role actor ${role.id} has no \`llm\` actor logic`);
  return logic as AnyActorLogic;
}

function callsOf(role: AnyActorRef): Set<AnyActor> {
  let calls = running.get(role);
  if (calls === undefined) {
    const started = new Set<AnyActor>();
    const stopAll = () => {
      for (const call of started) call.stop();
      started.clear();
    };
    role.subscribe({ complete: stopAll, error: stopAll });
    running.set(role, started);
    calls = started;
  }
  return calls;
}

/** Starts a call of `role`'s `llm` logic; its result comes back to `role` as `llm.done` (or `llm.error`). */
export function startCall(role: AnyActorRef, id: string, input: LlmInput): void {
  const calls = callsOf(role);
  const call = createActor(llmLogicOf(role), { id, input });
  calls.add(call);
  call.subscribe({
    complete: () => {
      // A call stopped with its role completes too: only a finished one has a result to send.
      if (!calls.delete(call) || call.getSnapshot().status !== 'done') return;
      role.send({ type: 'llm.done', id, output: call.getSnapshot().output as LlmResult } satisfies CallDoneEvent);
    },
    error: (error: unknown) => {
      if (calls.delete(call)) role.send({ type: 'llm.error', id, error } satisfies CallErrorEvent);
    },
  });
  call.start();
}
