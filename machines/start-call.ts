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
 *
 * The runtime's own call (`llmLogic`) is not even an actor: its function is
 * run and its result sent back as the actor's would be, with the same abort on
 * stop. An actor per call (and, being nobody's child, an actor system of its
 * own: maps, a scheduler, observers, its snapshots) cost the main thread
 * several percent again, for a promise; a logic given otherwise (a test's, a
 * replay's) still runs as an actor.
 */
import { createActor, fromPromise, type AnyActorLogic, type AnyActorRef, type PromiseActorLogic } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { LlmInput, LlmResult } from './llm.ts';

/** One LLM call as a function: the promise its actor would run. */
export type LlmFunction = (input: LlmInput, signal: AbortSignal) => Promise<LlmResult>;

/** Where `llmLogic` keeps its function on the logic it makes. */
const FUNCTION = Symbol('tmas.llm.function');

/** The `llm` logic of a function: an actor where a role invokes it, the function itself where a role's `callLlm` starts it. */
export function llmLogic(run: LlmFunction): PromiseActorLogic<LlmResult, LlmInput> {
  return Object.assign(
    fromPromise<LlmResult, LlmInput>(({ input, signal }) => run(input, signal)),
    { [FUNCTION]: run },
  );
}

/** A call in progress, as its role stops it. */
interface Running {
  stop(): void;
}

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
const running = new WeakMap<AnyActorRef, Set<Running>>();

function callsOf(role: AnyActorRef): Set<Running> {
  let calls = running.get(role);
  if (calls === undefined) {
    const started = new Set<Running>();
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
  const run = (logic as { [FUNCTION]?: LlmFunction })[FUNCTION];
  if (run !== undefined) return ({ self }, { id, input }) => runCall(self, id, input, run);
  return ({ self }, { id, input }) => startCall(self, id, input, logic);
}

/**
 * A call of the runtime's own logic: its function run at once, as its actor
 * would have run it on start, its result sent once it settles unless its
 * role stopped meanwhile (which aborted its signal).
 */
function runCall(role: AnyActorRef, id: string, input: LlmInput, run: LlmFunction): void {
  const calls = callsOf(role);
  const controller = new AbortController();
  const call: Running = { stop: () => controller.abort() };
  calls.add(call);
  run(input, controller.signal).then(
    (output) => {
      if (calls.delete(call)) role.send({ type: 'llm.done', id, output } satisfies CallDoneEvent);
    },
    (error: unknown) => {
      if (calls.delete(call)) role.send({ type: 'llm.error', id, error } satisfies CallErrorEvent);
    },
  );
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
