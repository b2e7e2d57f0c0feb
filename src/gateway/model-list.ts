/**
 * The models a `GET /models` answer lists, read from its body: OpenAI's
 * `{"object": "list", "data": [...]}`, or the bare array of model objects
 * that Together's API answers with (each with its `context_length`). Read
 * as OpenAI's alone, Together's list was "not a list of models" and every
 * run against it was refused at start.
 */

/** A model as `/v1/models` lists it. */
export interface ListedModel {
  id: string;
  ownedBy: string;
  /** The context window the server holds for it (vLLM's and SGLang's `max_model_len`, hosted APIs' `context_length`), when listed. */
  window: number | null;
  /** The field the window was listed in, when it was. */
  windowField?: WindowField;
  /** What the model was loaded from, as vLLM and SGLang list it (`root`): ids of one root are names of one model (`--served-model-name a b`). */
  root?: string;
}

/**
 * The fields a model list states a model's window in: vLLM's and SGLang's
 * `max_model_len`; OpenRouter's, Together's and other hosted APIs'
 * `context_length`. Not llama.cpp's `meta.n_ctx_train`: the window the model
 * was trained for, not the one its server was started with (`--ctx-size`).
 */
const WINDOW_FIELDS = ['max_model_len', 'context_length'] as const;
type WindowField = (typeof WINDOW_FIELDS)[number];

/**
 * A window as a field holds it: a positive whole number, or one written as
 * decimal digits (`"32768"`, as gateways that pass every field on as text
 * write it; before, not read, so a run under a larger --max-tokens was not
 * refused and each of its calls was refused as too long first).
 */
function windowOf(value: unknown): number | null {
  const number = typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** A listed window, when one of WINDOW_FIELDS holds one, and its field. */
function listedWindow(model: Record<string, unknown>): Pick<ListedModel, 'window' | 'windowField'> {
  for (const field of WINDOW_FIELDS) {
    const window = windowOf(model[field]);
    if (window !== null) return { window, windowField: field };
  }
  return { window: null };
}

/** The root a model list names a model's weights by (vLLM's and SGLang's `root`), when it names one. */
function listedRoot(model: Record<string, unknown>): Pick<ListedModel, 'root'> {
  const root = model['root'];
  return typeof root === 'string' && root !== '' ? { root } : {};
}

/** A UTF-8 byte-order mark, decoded. */
const BYTE_ORDER_MARK = 0xfeff;

/**
 * A `GET /models` body's value: its JSON, whatever content type it came
 * under and with a byte-order mark before it (as some proxies and Windows
 * servers write); the text itself when it is not JSON. Parsed by the client,
 * a list under `text/plain` was "not a list of models" (shown whole in the
 * message), and one after a byte-order mark "Cannot reach the model
 * endpoint": either refused the run at start.
 */
export function listingBody(text: string): unknown {
  const json = text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text;
  try {
    return JSON.parse(json);
  } catch {
    return text;
  }
}

/** The model entries of a `GET /models` body: its `data`, or the body itself when it is an array; null when it is neither (no model list). */
export function modelEntries(body: unknown): unknown[] | null {
  if (Array.isArray(body)) return body;
  const data = (body as { data?: unknown } | null)?.data;
  return Array.isArray(data) ? data : null;
}

/** The models `entries` list; entries without an id name nothing a request could ask for, and are left out. */
export function listedModels(entries: readonly unknown[]): ListedModel[] {
  const models: ListedModel[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const model = entry as Record<string, unknown>;
    if (typeof model['id'] !== 'string' || model['id'] === '') continue;
    const ownedBy = typeof model['owned_by'] === 'string' ? model['owned_by'] : '';
    models.push({ id: model['id'], ownedBy, ...listedWindow(model), ...listedRoot(model) });
  }
  return models;
}
