/**
 * A role that makes several LLM calls per request and replies once they are
 * all in: e.g. a verification that asks two models and keeps the stricter
 * score. It is the multi-call sibling of `createRoleMachine`, with the same
 * contract: the `llm` actor and the `post` action, provided by the runtime.
 *
 * Call 0 is made exactly as the one-call role would make it (same role name,
 * index, endpoint and temperature), so it is the same journal entry; call
 * k ≥ 1 is journaled under the role name `<role>#k`, which also gives it a
 * sampling seed of its own.
 */
import { enqueueActions, setup } from 'xstate';
import { TmasError } from '../src/kernel/errors.ts';
import type { EndpointSlot, Message, MessageType } from '../src/kernel/protocol.ts';
import { llmNotProvided, type LlmInput, type LlmOutput, type LlmResult } from './llm.ts';
import { postNotProvided, type PostParams } from './post.ts';
import { endpointSlotOf, type RoleDefinition, type RoleOptions } from './role.machine.ts';
import { callLlmNotProvided, failOnCallError, type CallDoneEvent, type CallErrorEvent } from './start-call.ts';

/** One of the calls a multi-call role makes per request. */
export interface CallSpec {
  /** The endpoint slot (so the model) of this call; the role's own slot when absent. */
  endpoint?: EndpointSlot;
  /** Sampling temperature of this call; the run's `--temperature` when absent. */
  temperature?: number;
}

/** A role that makes `calls.length` calls per request and replies from all of their outputs. */
export interface MultiCallRoleDefinition<T extends MessageType = MessageType> extends Omit<RoleDefinition<T>, 'reply'> {
  calls: CallSpec[];
  /** Turns the completions, in the order of `calls`, into the reply message. Pure. */
  reply(request: Extract<Message, { type: T }>, outputs: LlmOutput[], options: RoleOptions): Message;
}

interface MultiCallContext extends RoleOptions {
  /** Outputs so far per request correlation, by call number. */
  results: Record<string, Array<LlmResult | null>>;
}

type MultiCallEvent = Message | CallDoneEvent | CallErrorEvent;

function base(request: Message) {
  return { run: request.run, problem: request.problem, iteration: request.iteration, correlation: request.correlation };
}

/** Builds the actor definition of a multi-call role. */
export function createMultiCallRoleMachine<T extends MessageType>(definition: MultiCallRoleDefinition<T>) {
  type Request = Extract<Message, { type: T }>;
  if (definition.calls.length === 0) throw new TypeError(`the ${definition.role} role makes no calls: give at least one in \`calls\``);
  return setup({
    types: { context: {} as MultiCallContext, input: {} as RoleOptions, events: {} as MultiCallEvent },
    actors: { llm: llmNotProvided },
    actions: { post: postNotProvided as (_: unknown, params: PostParams) => void, callLlm: callLlmNotProvided },
  }).createMachine({
    id: definition.role,
    context: ({ input }) => ({ ...input, results: {} }),
    on: {
      'llm.error': failOnCallError,
      'llm.done': {
        actions: enqueueActions(({ context, event, enqueue }) => {
          const request = event.output.request as Request;
          const call = Number(event.id.slice(event.id.lastIndexOf('#') + 1));
          const results = [...(context.results[request.correlation] ?? definition.calls.map(() => null))];
          results[call] = event.output;
          const { [request.correlation]: _, ...others } = context.results;
          if (results.some((result) => result === null)) {
            enqueue.assign({ results: { ...others, [request.correlation]: results } });
            return;
          }
          enqueue.assign({ results: others });
          const index = definition.index(request);
          const failed = results.find((result): result is Extract<LlmResult, { ok: false }> => result !== null && !result.ok);
          if (failed) {
            enqueue({ type: 'post', params: { message: { type: 'llm.failed', ...base(request), role: definition.role, index, code: failed.code, error: failed.error } } });
            return;
          }
          const outputs = results.filter((result): result is LlmOutput => result !== null && result.ok);
          const dropped = [...new Set(outputs.flatMap((output) => output.dropped))];
          const first = outputs[0];
          if (first && dropped.length > 0) {
            enqueue({ type: 'post', params: { message: { type: 'context.trimmed', ...base(request), role: definition.role, index, dropped, promptTokens: first.promptTokens, budget: first.budget } } });
          }
          enqueue({ type: 'post', params: { message: definition.reply(request, outputs, context) } });
        }),
      },
      '*': {
        actions: enqueueActions(({ context, event, enqueue }) => {
          if (event.type !== definition.request) {
            throw new TmasError('TMAS_MISROUTED', `the ${definition.role} role received ${event.type}`);
          }
          const request = event as Request;
          const prompt = definition.prompt(request, context);
          definition.calls.forEach((spec, call) => {
            const temperature = spec.temperature ?? context.temperature;
            const input: LlmInput = {
              role: call === 0 ? definition.role : `${definition.role}#${call}`,
              endpoint: spec.endpoint ?? endpointSlotOf(definition),
              problem: request.problem,
              iteration: request.iteration,
              index: definition.index(request),
              prompt,
              ...(temperature === undefined ? {} : { temperature }),
              request,
            };
            enqueue({ type: 'callLlm', params: { id: `${request.correlation}#${call}`, input } });
          });
        }),
      },
    },
  });
}
