/**
 * The context windows servers list for their models (vLLM's and SGLang's
 * `GET /models` give each model's `max_model_len`, OpenRouter's and
 * Together's its `context_length`), against the run's window
 * (--max-tokens). A new run whose loop would call a model in a smaller
 * window is refused before anything is written: each of its calls would be
 * refused as too long first and then fitted into the server's window, so the
 * run would not run the window its manifest and its table name. On a resume,
 * whose window is the run's own, and for the judge, whose window does not
 * shape the run, the calls are fitted into the listed window from the first
 * (server-windows.ts), and a warning says so.
 */
import { namesModel } from '../../gateway/endpoints/listed-model.ts';
import type { Endpoint } from '../../gateway/gateway.ts';
import type { ListedModel } from '../../gateway/check.ts';
import { UserError } from '../../kernel/errors.ts';
import type { EndpointSlot } from '../../kernel/protocol.ts';
import { slotAgent } from '../../kernel/slots.ts';
import type { ServerWindows } from './server-windows.ts';

/** A slot's endpoint and what each of its answering replicas lists. */
export interface ServedSlot {
  slot: EndpointSlot;
  endpoint: Endpoint;
  replicas: ReadonlyArray<{ url: string; models: readonly ListedModel[] }>;
}

/** The smallest window a replica lists for the endpoint's model, with that replica; null when none lists one. */
function smallestListed({ endpoint, replicas }: ServedSlot): { url: string; window: number; field: string } | null {
  let smallest: { url: string; window: number; field: string } | null = null;
  for (const { url, models } of replicas) {
    const model = models.find((listed) => namesModel(listed.id, endpoint.model));
    const window = model?.window ?? null;
    if (window !== null && (smallest === null || window < smallest.window)) smallest = { url, window, field: model?.windowField ?? 'max_model_len' };
  }
  return smallest;
}

/**
 * Refuses a new run whose loop's model is listed with a window under `window`
 * (TMAS_USAGE); otherwise keeps each such listed window in `windows` and
 * says so through `say`, once per endpoint and model.
 */
export function applyListedWindows(served: readonly ServedSlot[], window: number, windows: ServerWindows, options: { resume: boolean; say: (line: string) => void }): void {
  const told = new Set<string>();
  for (const slot of served) {
    const listed = smallestListed(slot);
    if (listed === null || listed.window >= window) continue;
    const what = `${listed.url} serves ${slot.endpoint.model} with a context window of ${listed.window} tokens (its ${listed.field}), under the run's --max-tokens ${window}`;
    if (!options.resume && slot.slot !== 'judge') {
      throw new UserError(
        'TMAS_USAGE',
        `${what}: each call of ${slotAgent(slot.slot)} would be refused as too long before it was fitted into the server's window, and the run would not run the window it names. ` +
          `Give --max-tokens ${listed.window} (or less), or ${listed.field === 'max_model_len' ? 'serve the model with a longer window (vLLM: --max-model-len)' : 'choose a model with a longer window'}.`,
      );
    }
    windows.stated(slot.endpoint, listed.window);
    const key = `${listed.url} ${slot.endpoint.model}`;
    if (told.has(key)) continue;
    told.add(key);
    options.say(`tmas: warning: ${what}: its calls are fitted into ${listed.window} tokens from the first.`);
  }
}
