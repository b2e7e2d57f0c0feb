/**
 * An endpoint that refuses the first calls of the run and has answered
 * none: a 4xx that no retry passes (TMAS_CALL_REJECTED), the same for every
 * request the run makes. vLLM serving a base model without a chat template
 * ("default chat template is no longer allowed, so you must provide a chat
 * template"), a proxy's or a gateway's schema that refuses tmas's requests
 * (a message shape, a field's type), a route that takes other requests.
 * Read one call at a time, every call of the run was sent and refused,
 * every problem stopped, exit 3, in as many requests as the run had calls.
 * After `downAfter` calls refused in a row before any answer, the endpoint
 * is taken as down (TMAS_ENDPOINT_DOWN, the run stopped, resumable), the
 * server's words in the message. A call refused after one answered is that
 * call's refusal alone (a prompt the API's policy refuses), as before; so is
 * a 413, which only the larger requests meet.
 */
import { APIError } from 'openai';
import { UserError } from '../../kernel/errors.ts';
import type { CompletionRequest } from '../reply/completion.ts';
import type { EndpointState } from './endpoint-state.ts';

/** Whether a call that failed for good as refused (TMAS_CALL_REJECTED) counts toward the endpoint's refusing every call: a 413 refuses a request's size, not every request. */
export function refusesAlike(error: unknown): boolean {
  return !(error instanceof APIError && error.status === 413);
}

/** The error of an endpoint whose first `refused` calls were each refused, none answered. */
export function refusesEveryCallError(request: CompletionRequest, refused: number, describe: (error: unknown) => string, error: unknown): UserError {
  return new UserError(
    'TMAS_ENDPOINT_DOWN',
    `The model endpoint ${request.endpoint.baseUrl} (${request.endpoint.model}) refused each of the first ${refused} calls sent to it, and answered none: ` +
      `${describe(error).replace(/\.+$/, '')}. Every call of the run would likely be refused alike (a chat template the server lacks, a request shape a proxy or gateway refuses), ` +
      'so the run stopped; every completed call is kept in the store. Fix what the server says, then resume the run with --resume on its output directory.',
    { cause: error },
  );
}

/** Counts a call refused on `state`; returns the error that stops the run once `downAfter` were refused before any answer, else null. */
export function refusedBeforeAnswer(state: EndpointState, request: CompletionRequest, downAfter: number, describe: (error: unknown) => string, error: unknown): UserError | null {
  if (state.answered || !refusesAlike(error)) return null;
  state.refusedUnanswered++;
  return state.refusedUnanswered < downAfter ? null : refusesEveryCallError(request, state.refusedUnanswered, describe, error);
}
