/**
 * Call failures that stop the whole run rather than the call: every other
 * call to the same endpoint would fail the same way, so going on would only
 * spend the run's time on refusals (llm-call.ts asks after each failure).
 */
import { UserError } from '../../kernel/errors.ts';
import { slotAgent } from '../../kernel/slots.ts';
import type { EndpointSlot } from '../../kernel/protocol.ts';
import type { CallFailedError } from '../../gateway/gateway.ts';
import { keySource } from './api-keys.ts';

/**
 * The error that stops the whole run when a call failed this way, else null:
 * a refused key, or an endpoint that answers streamed requests with JSON that
 * is no completion; every other call to it would fail the same way.
 */
export function runStopping(error: CallFailedError, slot: EndpointSlot, outputDir: string): UserError | null {
  if (error.code === 'TMAS_AUTH') {
    return new UserError(
      'TMAS_AUTH',
      // The server's message may end with its own period ("…/api-keys."): one is said.
      `The endpoint of ${slotAgent(slot)} refused its API key: ${error.message.replace(/\.+$/, '')}. The run stopped at once; every completed call is kept. ` +
        `Give a valid key with ${keySource(slot)}, then continue with: tmas run --resume ${outputDir}`,
      { cause: error },
    );
  }
  if (error.code === 'TMAS_NOT_STREAMED') {
    return new UserError(
      'TMAS_NOT_STREAMED',
      `The endpoint of ${slotAgent(slot)} does not stream: ${error.message} The run stopped at once; every completed call is kept. ` +
        `Continue without streaming: tmas run --resume ${outputDir} --no-stream`,
      { cause: error },
    );
  }
  return null;
}
