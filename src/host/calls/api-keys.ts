/**
 * What messages say about a role's API key: whether one was set, and the
 * flags and variables that set it, first the one that wins. Never the key.
 */
import type { KeyOrigin } from '../../gateway/check.ts';
import { slotAgent, slotFlag, type EndpointSlot } from '../../kernel/slots.ts';

/** The key sent when none is set: the placeholder servers without keys (vLLM, SGLang) take. */
export const NO_API_KEY = 'EMPTY';

/** The flag or variable that sets a slot's key, for messages. */
export function keySource(slot: EndpointSlot): string {
  return slot === 'solution'
    ? '--api-key or the OPENAI_API_KEY (or API_KEY) environment variable'
    : `${slotFlag(slot, 'api-key')} (default: the solution agent's --api-key, OPENAI_API_KEY or API_KEY)`;
}

/** A slot's key as the endpoint check's messages describe it. */
export function keyOriginOf(slot: EndpointSlot, key: string): KeyOrigin {
  return { agent: slotAgent(slot), set: key !== NO_API_KEY, setBy: keySource(slot) };
}
