/**
 * How a role actor runs its LLM calls: each call is an actor of the `llm`
 * logic, started on its own rather than spawned as a child, by the `callLlm`
 * action that the host provides (`callLlmWith(llm)`) to every role machine.
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

/** Parameters of the `callLlm` action: the id the role gives the call, and its input. */
export interface CallLlmParams {
  id: string;
  input: LlmInput;
}

/** Placeholder registered in `setup({ actions })`; fails loudly if the host did not provide the LLM. */
export function callLlmNotProvided(_: unknown, params: CallLlmParams): void {
  throw new TmasError('TMAS_NOT_PROVIDED', `cannot start call ${params.id}: the \`callLlm\` action was not provided`);
}

/** The `callLlm` action for calls of `logic`: each result comes back to the role that asked as `llm.done` (or `llm.error`). */
export function callLlmWith(logic: AnyActorLogic): (args: { self: AnyActorRef }, params: CallLlmParams) => void {
  return ({ self }, { id, input }) => startCall(self, id, input, logic);
}

function startCall(role: AnyActorRef, id: string, input: LlmInput, logic: AnyActorLogic): void {
  const calls = callsOf(role);
  const call = createActor(logic, { id, input });
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
