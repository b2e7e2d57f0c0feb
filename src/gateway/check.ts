/**
 * Reachability check run before any problem starts: `GET /v1/models` on every
 * distinct endpoint, so a wrong URL or key fails in seconds with a clear
 * message instead of after the first call's retries.
 */
import OpenAI, { APIError } from 'openai';
import { UserError } from '../kernel/errors.ts';
import { redactKeys, type Endpoint } from './gateway.ts';
import { AnswerTooLargeError, createHttpTransport, HeadersTooLargeError } from './request/http-transport.ts';
import { describeFailure } from './request/retry.ts';
import { chatAnswersUnlisted } from './unlisted-models.ts';
import { answersModelList, likelyBaseUrl } from './base-url-hint.ts';

/** A model as `/v1/models` lists it. */
export interface ListedModel {
  id: string;
  ownedBy: string;
  /** The context window the server holds for it (vLLM's and SGLang's `max_model_len`), when listed. */
  window: number | null;
}

/** A listed `max_model_len`, when it is a window (a positive whole number of tokens). */
function listedWindow(model: object): number | null {
  const value = (model as { max_model_len?: unknown }).max_model_len;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** What a message may say of the key an endpoint is called with: whose it is, whether one was set, and what sets it. Never the key. */
export interface KeyOrigin {
  /** The role that uses it: `the solution agent`. */
  agent: string;
  /** False when none was given and the placeholder went instead. */
  set: boolean;
  /** The flags and variables that set it, the one that wins first. */
  setBy: string;
}

/** An endpoint to check: the flag that names it, the flag that names its model, and where its key comes from (a generic hint without). */
export interface EndpointToCheck {
  endpoint: Endpoint;
  flag: string;
  /** `--model-name` or the role's own; that name when absent. */
  modelFlag?: string;
  key?: KeyOrigin;
}

/** `owned_by` of the simulated model, so a run against `tmas sim-server` is marked simulated too. */
export const SIMULATED_OWNER = 'tmas-sim';

/**
 * Throws a UserError (TMAS_ENDPOINT) naming the flag to fix when an endpoint
 * does not answer, or (TMAS_AUTH) when it refuses the key; returns the model
 * ids each base URL lists. A replica of a pool (`endpoint.replicas`) may be
 * unreachable as long as another answers: `onUnreachable` hears of it, and
 * the gateway drains it if it stays so. A refused key is refused by all.
 */
export async function checkEndpoints(
  endpoints: EndpointToCheck[],
  options: { timeoutMs?: number; onUnreachable?: (url: string, error: UserError) => void; onUnlisted?: (url: string, model: string) => void } = {},
): Promise<Map<string, ListedModel[]>> {
  const models = new Map<string, ListedModel[]>();
  const unreachable = new Map<string, UserError>();
  for (const { endpoint, flag, modelFlag, key } of endpoints) {
    for (const url of endpoint.replicas ?? [endpoint.baseUrl]) {
      if (models.has(url) || unreachable.has(url)) continue;
      try {
        const listed = await listModels({ ...endpoint, baseUrl: url }, { flag, modelFlag: modelFlag ?? '--model-name', key }, options.timeoutMs ?? 10_000);
        if (listed === UNLISTED) options.onUnlisted?.(url, endpoint.model);
        models.set(url, listed);
      } catch (error) {
        if (!(error instanceof UserError) || error.code !== 'TMAS_ENDPOINT' || !endpoint.replicas) throw error;
        unreachable.set(url, error);
      }
    }
    const pool = endpoint.replicas ?? [];
    if (pool.length > 0 && pool.every((url) => unreachable.has(url))) throw noReplicaAnswers(pool, unreachable);
  }
  for (const [url, error] of unreachable) options.onUnreachable?.(url, error);
  return models;
}

/** The models one base URL lists; a UserError naming the flag when it does not answer (TMAS_ENDPOINT) or refuses the key (TMAS_AUTH). */
/** The error of a pool none of whose replicas answers: the first one's, naming the others too. */
function noReplicaAnswers(pool: readonly string[], unreachable: Map<string, UserError>): UserError {
  const first = unreachable.get(pool[0] as string) as UserError;
  if (pool.length === 1) return first;
  return new UserError('TMAS_ENDPOINT', `${first.message} The pool's other replicas do not answer either: ${pool.slice(1).join(', ')}.`, { cause: first });
}

/** What a server without a model list (a 404 on GET /models) that completes the model named is taken to list: nothing, so the model named is called as it is (resolveModel). */
const UNLISTED: ListedModel[] = [];

/** The flags a message about an endpoint names: its base URL's and its model's, and where its key comes from. */
interface EndpointFlags {
  flag: string;
  modelFlag: string;
  key: KeyOrigin | undefined;
}

async function listModels(endpoint: Endpoint, { flag, modelFlag, key }: EndpointFlags, timeoutMs: number): Promise<ListedModel[]> {
  // The gateway's transport (http-transport.ts), so that a run never loads fetch for this one request.
  const transport = createHttpTransport();
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: timeoutMs, fetch: transport.fetch });
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const ids: ListedModel[] = [];
    // The client's timeout ends at the headers: the signal bounds the body too.
    const { data: page, response } = await client.models.list({ signal: deadline }).withResponse();
    // The body as parsed (JSON, or a string when the answer was not JSON): the page keeps it without typing it.
    const body: unknown = (page as unknown as { body: unknown }).body;
    if (!Array.isArray((body as { data?: unknown } | null)?.data)) throw notAModelList(endpoint, flag, response.headers.get('content-type'), body);
    // Entries without an id name nothing a request could ask for.
    for await (const model of page) if (typeof model.id === 'string' && model.id !== '') ids.push({ id: model.id, ownedBy: model.owned_by, window: listedWindow(model) });
    return ids;
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (error instanceof AnswerTooLargeError) throw notAModelList(endpoint, flag, `a body of more than ${error.limit / 2 ** 20} MiB`, '');
    // Reached, and answered: what to check is the proxy's headers, not whether the server runs.
    if (error instanceof Error && error.cause instanceof HeadersTooLargeError) throw new UserError('TMAS_ENDPOINT', `The endpoint ${endpoint.baseUrl} (from ${flag}) answered GET /models, but ${error.cause.message}.`, { cause: error });
    if (error instanceof APIError && (error.status === 401 || error.status === 403)) throw refusedKey(endpoint, flag, key, error);
    if (error instanceof APIError && error.status === 404 && !deadline.aborted) {
      const likely = () => likelyBaseUrl(endpoint.baseUrl, (base) => answersModelList(client, base, deadline));
      if (endpoint.model === '') throw noModelList(endpoint, flag, modelFlag, await likely());
      const refused = await chatAnswersUnlisted(client, endpoint.model, deadline);
      if (refused === null) return UNLISTED;
      throw noModelList(endpoint, flag, modelFlag, await likely(), redactKeys(refused, [endpoint.apiKey]));
    }
    throw new UserError(
      'TMAS_ENDPOINT',
      `Cannot reach the model endpoint ${endpoint.baseUrl} (from ${flag}): ${deadline.aborted ? `no whole answer to GET /models within ${timeoutMs / 1000} s` : redactKeys(describeFailure(error), [endpoint.apiKey])}. ` +
        `Check that the server is running and that ${flag} points at its OpenAI-compatible base URL (ending in /v1), ` +
        'and that the API key (OPENAI_API_KEY or API_KEY) is right. Leave out --base-url to use the embedded simulated model.',
      { cause: error },
    );
  } finally {
    transport.close();
  }
}

/**
 * A 404 on `GET /models`: no model list, or a base URL without its `/v1`.
 * `likely` is the base URL it most likely meant (base-url-hint.ts), when one
 * is likelier; `completion` is what a one-token completion of the model
 * named answered, when one was named (chatAnswersUnlisted).
 */
function noModelList(endpoint: Endpoint, flag: string, modelFlag: string, likely: string | null, completion?: string): UserError {
  const where = `The endpoint ${endpoint.baseUrl} (from ${flag}) answered GET /models with HTTP 404.`;
  if (likely !== null) {
    return new UserError('TMAS_ENDPOINT', `${where} Its OpenAI-compatible base URL is likely ${likely}: give ${flag} ${likely}.`);
  }
  const tried = completion === undefined ? `If the server lists no models, name the model to call with ${modelFlag}; otherwise check` : `A one-token completion of "${endpoint.model}" failed too (${completion}): check`;
  return new UserError(
    'TMAS_ENDPOINT',
    `${where} ${tried} that ${flag} is the server's OpenAI-compatible base URL (ending in /v1)` +
      `${completion === undefined ? '' : ` and that it serves the model ${modelFlag} names`}.`,
  );
}

/** A `GET /models` answered with something other than OpenAI's `{"data": [...]}`: a web page, a proxy's notice, the base URL of something else. */
function notAModelList(endpoint: Endpoint, flag: string, contentType: string | null, body: unknown): UserError {
  const text = typeof body === 'string' ? body : JSON.stringify(body) ?? '';
  const shown = text.replace(/\s+/g, ' ').trim().slice(0, 120);
  return new UserError(
    'TMAS_ENDPOINT',
    `The endpoint ${endpoint.baseUrl} (from ${flag}) answered GET /models with ${contentType ?? 'a body'} that is not a list of models${shown === '' ? '' : ` ("${shown}")`}. ` +
      `Check that ${flag} is the server's OpenAI-compatible base URL (ending in /v1).`,
  );
}

/**
 * A 401 or 403 on `GET /models`: the key, not the address, is wrong. Says
 * whether a key was set at all (a server with keys refuses the placeholder
 * alike) and what sets it.
 */
function refusedKey(endpoint: Endpoint, flag: string, key: KeyOrigin | undefined, error: APIError): UserError {
  const answer = redactKeys(describeFailure(error), [endpoint.apiKey]);
  const what =
    key === undefined
      ? 'It refused the API key: give the one it expects with the OPENAI_API_KEY (or API_KEY) environment variable or --api-key.'
      : key.set
        ? `It refused the API key set for ${key.agent}, which comes from ${key.setBy}: give the key this server expects there.`
        : `No API key was set for ${key.agent} (a placeholder went instead), and this server wants one: set it with ${key.setBy}.`;
  return new UserError(
    'TMAS_AUTH',
    `The model endpoint ${endpoint.baseUrl} (from ${flag}) refused GET /models: ${answer}. ${what}`,
    { cause: error },
  );
}

/**
 * The model a role uses: the one named, else the first one its endpoint
 * lists. A named model the endpoint does not list stops the run before any
 * call (TMAS_MODEL_NOT_SERVED): every call would fail with a 404.
 */
export function resolveModel(named: string, listed: ListedModel[] | undefined, flag: string, baseUrl = '', firstReplica: string | null = null): string {
  // A server that lists no model cannot be checked against: the model named is taken as it is.
  if (named && listed !== undefined && listed.length > 0 && !listed.some((model) => model.id === named)) {
    const served = servedModels(named, listed.map((model) => model.id));
    // Not given: the pool's first replica named it, and leaving the flag out cannot help.
    const fix =
      firstReplica === null
        ? `"${named}" (from ${flag}); ${served}. Give one of these with ${flag}, or leave ${flag} out to use the first.`
        : `"${named}", which the pool's first replica ${firstReplica} serves (no ${flag} given); ${served}. Every replica of a pool must serve the model the run calls: give ${flag} with one they all serve, or point the pool at replicas of one model.`;
    throw new UserError('TMAS_MODEL_NOT_SERVED', `The endpoint ${baseUrl} does not serve the model ${fix}`);
  }
  if (named) return named;
  const first = listed?.[0]?.id;
  if (!first) throw new UserError('TMAS_ENDPOINT', `The endpoint ${baseUrl} lists no model at GET /models: name the model to call with ${flag}.`);
  return first;
}

/** Model ids a message names at most: a hosted API lists hundreds. */
const SHOWN_MODELS = 12;

/**
 * The models an endpoint serves, as a message about the model `named` lists
 * them: all of a short list; of a long one (OpenRouter's and Together's list
 * hundreds: the message ran to 11 KB, the model meant buried at its end),
 * first those whose id holds the last part of the name asked for, in any
 * case (`deepseek/deepseek-r1` for `deepseek-r1`), then the first others,
 * and how many more there are.
 */
function servedModels(named: string, ids: string[]): string {
  if (ids.length <= SHOWN_MODELS) return `it serves: ${ids.join(', ')}`;
  const wanted = (named.split('/').pop() ?? named).toLowerCase();
  const near = ids.filter((id) => id.toLowerCase().includes(wanted));
  const shown = [...new Set([...near, ...ids])].slice(0, SHOWN_MODELS);
  const which = near.length === 0 ? 'the first' : 'those named like it first';
  return `it serves ${ids.length} models (GET /models lists them), ${which}: ${shown.join(', ')}, and ${ids.length - shown.length} more`;
}
