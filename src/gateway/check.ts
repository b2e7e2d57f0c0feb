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
import { schemeAdvice, tlsAdvice } from './request/tls-trust.ts';
import { unresolvedHostAdvice } from './request/host-unresolved.ts';
import { stalledHandshakeAdvice, tlsPortAdvice } from './request/speaks-tls.ts';
import { forwardedRefusalNote, proxyFailure } from './request/proxy/proxy-failure.ts';
import { proxyRoute, throughProxy } from './request/proxy/proxy-env.ts';
import { namesModel } from './endpoints/listed-model.ts';
import { listedModels, listingBody, modelEntries, type ListedModel } from './model-list.ts';

export type { ListedModel } from './model-list.ts';
import { chatAnswersUnlisted } from './unlisted-models.ts';
import { answersModelList, likelyBaseUrl } from './base-url-hint.ts';
import { followPages } from './model-pages.ts';
import { START_POLL_MS, START_TELL_MS, startingFailure, waitedSentence, type StartWait } from './server-start.ts';
import { clippedText } from '../kernel/clipped-text.ts';

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

/** What checkEndpoints is told and tells. */
export interface CheckOptions {
  /** The limit on one `GET /models`; 10 s when absent. */
  timeoutMs?: number;
  /** How long an endpoint still starting (server-start.ts) is waited for; not at all when absent. */
  waitMs?: number;
  /** Told when a wait for a starting server begins, goes on (every half minute) and ends with an answer. */
  onWait?: (wait: StartWait) => void;
  onUnreachable?: (url: string, error: UserError) => void;
  /** Told of an endpoint called unchecked: `why` it lists no models (no GET /models; one refused to this key), while it completes `model`. */
  onUnlisted?: (url: string, model: string, why: string) => void;
  /** Told when a model list in pages (`has_more`) could not be read to its end: what was read is what the run knows of. */
  onPagesCutShort?: (url: string, reason: string) => void;
}

/**
 * Throws a UserError (TMAS_ENDPOINT) naming the flag to fix when an endpoint
 * does not answer, or (TMAS_AUTH) when it refuses the key; returns the model
 * ids each base URL lists. An endpoint still starting is waited for, up to
 * `waitMs` (server-start.ts). A replica of a pool (`endpoint.replicas`) may
 * be unreachable as long as another answers: `onUnreachable` hears of it,
 * and the gateway drains it if it stays so. A refused key is refused by all.
 */
export async function checkEndpoints(endpoints: EndpointToCheck[], options: CheckOptions = {}): Promise<Map<string, ListedModel[]>> {
  const models = new Map<string, ListedModel[]>();
  const unreachable = new Map<string, UserError>();
  for (const toCheck of endpoints) {
    const { endpoint, flag } = toCheck;
    const urls = endpoint.replicas ?? [endpoint.baseUrl];
    const pending = urls.filter((url) => !models.has(url) && !unreachable.has(url));
    if (pending.length === 0) continue;
    const failed = await untilAnswered(pending, (url) => listOne(toCheck, url, models, options), { ...options, flag });
    if (urls.some((url) => models.has(url))) {
      for (const [url, error] of failed) {
        // A replica that answered, wrongly, stays so: the run would go on short of it, each trial call wasted there.
        if (answeredWrongly.has(error)) throw wrongReplica(url, urls, flag, error);
        unreachable.set(url, error);
      }
      continue;
    }
    const first = failed.get(pending[0] as string) as UserError;
    if (!endpoint.replicas) throw first;
    for (const [url, error] of failed) unreachable.set(url, error);
    if (urls.every((url) => unreachable.has(url))) throw noReplicaAnswers(urls, unreachable);
  }
  for (const [url, error] of unreachable) options.onUnreachable?.(url, error);
  return models;
}

/** Lists the models of one base URL into `models`; returns the UserError (TMAS_ENDPOINT) of one that does not answer, throws any other. */
async function listOne({ endpoint, flag, modelFlag, key }: EndpointToCheck, url: string, models: Map<string, ListedModel[]>, options: CheckOptions): Promise<UserError | null> {
  try {
    const onCutShort = (reason: string) => options.onPagesCutShort?.(url, reason);
    const listed = await listModels({ ...endpoint, baseUrl: url }, { flag, modelFlag: modelFlag ?? '--model-name', key, onCutShort }, options.timeoutMs ?? 10_000);
    if (listed === UNLISTED) options.onUnlisted?.(url, endpoint.model, 'has no GET /models (HTTP 404)');
    if (listed === LIST_REFUSED) options.onUnlisted?.(url, endpoint.model, 'refuses GET /models to this key (a key without the scope to list models, as OpenAI\'s restricted keys are)');
    models.set(url, listed);
    return null;
  } catch (error) {
    // A proxy that refused this URL's call or could not carry it fails this URL alone, as a server that does not answer
    // does: waited for while it starts (server-start.ts), a replica left out. A variable naming no proxy (no cause:
    // nothing was called) is the whole run's.
    const failedHere = error instanceof UserError && (error.code === 'TMAS_ENDPOINT' || (error.code === 'TMAS_PROXY' && error.cause !== undefined));
    if (!failedHere) throw error;
    return error;
  }
}

/**
 * Asks each of `urls` (one endpoint, or the replicas of a pool) with `ask`
 * until one answers; while none does and some say they are starting, asks
 * those again every START_POLL_MS, up to `waitMs`. Returns the failures of
 * the last asks, each with the wait in its message when one ran out.
 */
async function untilAnswered(urls: readonly string[], ask: (url: string) => Promise<UserError | null>, options: CheckOptions & { flag: string }): Promise<Map<string, UserError>> {
  const boundMs = options.waitMs ?? 0;
  const started = performance.now();
  let toldAt: number | null = null;
  let pending = urls;
  const failed = new Map<string, UserError>();
  for (;;) {
    let answered = false;
    for (const url of pending) {
      const error = await ask(url);
      if (error !== null) failed.set(url, error);
      else {
        answered = true;
        failed.delete(url);
      }
    }
    const starting = [...failed].flatMap(([url, error]) => {
      const what = startingFailure(error.cause);
      return what === null ? [] : [{ url, what }];
    });
    const waitedMs = performance.now() - started;
    const tell = (stage: StartWait['stage'], what: string) => options.onWait?.({ urls: starting.length > 0 ? starting.map((one) => one.url) : urls, flag: options.flag, what, waitedMs, boundMs, stage });
    if (answered || starting.length === 0 || waitedMs >= boundMs) {
      if (answered && toldAt !== null) tell('ready', '');
      if (!answered && toldAt !== null) for (const [url, error] of failed) failed.set(url, new UserError(error.code, error.message + waitedSentence(boundMs), { cause: error.cause }));
      return failed;
    }
    if (toldAt === null || waitedMs - toldAt >= START_TELL_MS) {
      tell(toldAt === null ? 'waiting' : 'still', (starting[0] as { what: string }).what);
      toldAt = waitedMs;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(START_POLL_MS, boundMs - waitedMs)));
    pending = starting.map((one) => one.url);
  }
}

/**
 * Errors of an endpoint that answered GET /models, but not as an
 * OpenAI-compatible base URL does (a 404: a route missing, as a URL without
 * its /v1; an answer that is no model list; headers too large): no wait
 * mends them, where a server that does not answer yet may start.
 */
const answeredWrongly = new WeakSet<UserError>();

/** Marks `error` as an answer no wait mends (answeredWrongly). */
function wrongAnswer(error: UserError): UserError {
  answeredWrongly.add(error);
  return error;
}

/** A replica of a pool that answered wrongly: its own error, as a replica's. */
function wrongReplica(url: string, pool: readonly string[], flag: string, error: UserError): UserError {
  const others = pool.filter((other) => other !== url).join(', ');
  return new UserError(
    error.code,
    `${error.message} It is one replica of the pool ${flag} names (the others: ${others}): fix its URL, or leave it out of ${flag}; a run does not start with a replica that cannot answer its calls.`,
    { cause: error },
  );
}

/** The error of a pool none of whose replicas answers: the first one's, naming the others too. */
function noReplicaAnswers(pool: readonly string[], unreachable: Map<string, UserError>): UserError {
  const first = unreachable.get(pool[0] as string) as UserError;
  if (pool.length === 1) return first;
  return new UserError(first.code, `${first.message} The pool's other replicas do not answer either: ${pool.slice(1).join(', ')}.`, { cause: first });
}

/** What a server without a model list (a 404 on GET /models) that completes the model named is taken to list: nothing, so the model named is called as it is (resolveModel). */
const UNLISTED: ListedModel[] = [];

/** What an endpoint that refuses its model list to the key, and completes the model named with it, is taken to list: nothing, as UNLISTED. */
const LIST_REFUSED: ListedModel[] = [];

/** The flags a message about an endpoint names: its base URL's and its model's, and where its key comes from. */
interface EndpointFlags {
  flag: string;
  modelFlag: string;
  key: KeyOrigin | undefined;
  /** Told why a list in pages was not read to its end (model-pages.ts). */
  onCutShort?: (reason: string) => void;
}

/** The models one base URL lists; a UserError naming the flag when it does not answer (TMAS_ENDPOINT) or refuses the key (TMAS_AUTH). */
async function listModels(endpoint: Endpoint, { flag, modelFlag, key, onCutShort }: EndpointFlags, timeoutMs: number): Promise<ListedModel[]> {
  // A proxy variable that names no proxy refuses the run here, naming it (TMAS_PROXY), not as a connection failure.
  if (URL.canParse(endpoint.baseUrl)) proxyRoute(new URL(endpoint.baseUrl));
  // The gateway's transport (http-transport.ts), so that a run never loads fetch for this one request.
  const transport = createHttpTransport();
  const client = new OpenAI({ baseURL: endpoint.baseUrl, apiKey: endpoint.apiKey, maxRetries: 0, timeout: timeoutMs, fetch: transport.fetch });
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    // The client's timeout ends at the headers: the signal bounds the body too.
    const response = await client.models.list({ signal: deadline }).asResponse();
    // Parsed here, not by the client, which parses by the content type alone (model-list.ts).
    const body = listingBody(await response.text());
    const entries = modelEntries(body);
    if (entries === null) throw wrongAnswer(notAModelList(endpoint, flag, response.headers.get('content-type'), body));
    // A list in pages (Anthropic's, OpenAI's cursor shape) is read to its last page: a model named may be on any.
    const paged = await followPages(client, body, entries, deadline);
    if (paged.cutShort !== undefined) onCutShort?.(paged.cutShort);
    return listedModels(paged.entries);
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (error instanceof AnswerTooLargeError) throw wrongAnswer(notAModelList(endpoint, flag, `a body of more than ${error.limit / 2 ** 20} MiB`, ''));
    // Reached, and answered: what to check is the proxy's headers, not whether the server runs.
    if (error instanceof Error && error.cause instanceof HeadersTooLargeError) throw wrongAnswer(new UserError('TMAS_ENDPOINT', `The endpoint ${endpoint.baseUrl} (from ${flag}) answered GET /models, but ${error.cause.message}.`, { cause: error }));
    if (error instanceof APIError && (error.status === 401 || error.status === 403)) {
      // A key may complete and not list (OpenAI's restricted keys without api.model.read; a proxy that guards /models alone): the model named tells.
      const completes = endpoint.model !== '' && lacksListScope(error) && (await chatAnswersUnlisted(client, endpoint.model, deadline, { keyChecked: true })) === null;
      if (completes) return LIST_REFUSED;
      throw refusedKey(endpoint, { flag, modelFlag, key }, error);
    }
    if (error instanceof APIError && error.status === 404 && !deadline.aborted) {
      const likely = () => likelyBaseUrl(endpoint.baseUrl, (base) => answersModelList(client, base, deadline));
      if (endpoint.model === '') throw wrongAnswer(noModelList(endpoint, flag, modelFlag, await likely()));
      const refused = await chatAnswersUnlisted(client, endpoint.model, deadline);
      if (refused === null) return UNLISTED;
      throw wrongAnswer(noModelList(endpoint, flag, modelFlag, await likely(), redactKeys(refused, [endpoint.apiKey])));
    }
    // The proxy's failure first: its certificate's, or its connection's, is no fault of the endpoint's.
    const proxy = deadline.aborted ? null : proxyFailure(error, endpoint.baseUrl);
    if (proxy !== null) throw new UserError('TMAS_PROXY', `The endpoint ${endpoint.baseUrl} (from ${flag}) was not called: ${proxy}.`, { cause: error });
    const tls = tlsAdvice(error, endpoint.baseUrl) ?? schemeAdvice(error, endpoint.baseUrl);
    if (tls !== null) throw new UserError('TMAS_ENDPOINT', `The endpoint ${endpoint.baseUrl} (from ${flag}) was not called${throughProxy(endpoint.baseUrl)}: ${tls}.`, { cause: error });
    const through = throughProxy(endpoint.baseUrl);
    // No server was reached: the name is what to fix, not whether a server runs.
    const unresolved = deadline.aborted || through !== '' ? null : unresolvedHostAdvice(error, endpoint.baseUrl, flag);
    if (unresolved !== null) throw new UserError('TMAS_ENDPOINT', `The endpoint ${endpoint.baseUrl} (from ${flag}) was not called: ${unresolved}.`, { cause: error });
    // Reached directly, and closed without HTTP: a TLS port given an http:// URL says so, not that the server may not run.
    const tlsPort = through !== '' ? null : deadline.aborted ? await stalledHandshakeAdvice(endpoint.baseUrl) : await tlsPortAdvice(error, endpoint.baseUrl);
    if (tlsPort !== null) throw new UserError('TMAS_ENDPOINT', `The endpoint ${endpoint.baseUrl} (from ${flag}) was not called: ${tlsPort}.`, { cause: error });
    throw new UserError(
      'TMAS_ENDPOINT',
      `Cannot reach the model endpoint ${endpoint.baseUrl} (from ${flag})${through}: ${deadline.aborted ? `no whole answer to GET /models within ${timeoutMs / 1000} s` : redactKeys(describeFailure(error), [endpoint.apiKey])}. ` +
        `Check that the server is running and that ${flag} points at its OpenAI-compatible base URL (ending in /v1), ` +
        `and that the API key (OPENAI_API_KEY or API_KEY) is right${through === '' ? '' : '; if the server is reached without the proxy, add its host to NO_PROXY'}. Leave out --base-url to use the embedded simulated model.`,
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
  const shown = clippedText(text.replace(/\s+/g, ' ').trim(), 120);
  return new UserError(
    'TMAS_ENDPOINT',
    `The endpoint ${endpoint.baseUrl} (from ${flag}) answered GET /models with ${contentType ?? 'a body'} that is not a list of models${shown === '' ? '' : ` ("${shown}")`}. ` +
      `Check that ${flag} is the server's OpenAI-compatible base URL (ending in /v1).`,
  );
}

/** Words of a key known, but without the permission to list models (OpenAI's "insufficient permissions … Missing scopes: api.model.read"); a key refused outright is not sent on to a completion. */
function lacksListScope(error: APIError): boolean {
  return /insufficient permissions|missing scopes?\b|not (?:allowed|authorized|permitted) to (?:access|list|read)|does not have (?:the )?(?:permission|access)/i.test(error.message.slice(0, 2048));
}

/**
 * A 401 or 403 on `GET /models`: the key, not the address, is wrong. Says
 * whether a key was set at all (a server with keys refuses the placeholder
 * alike) and what sets it.
 */
function refusedKey(endpoint: Endpoint, { flag, modelFlag, key }: EndpointFlags, error: APIError): UserError {
  const answer = redactKeys(describeFailure(error), [endpoint.apiKey]).replace(/\.+$/, '');
  const what = lacksListScope(error)
    ? endpoint.model === ''
      ? `The key has no permission to list models (a restricted key): name the model to evaluate with ${modelFlag}, which a one-token completion then checks, or give a key with that permission.`
      : `The key has no permission to list models, nor to complete "${endpoint.model}": give a key with the permission to call it.`
    : key === undefined
      ? 'It refused the API key: give the one it expects with the OPENAI_API_KEY (or API_KEY) environment variable or --api-key.'
      : key.set
        ? `It refused the API key set for ${key.agent}, which comes from ${key.setBy}: give the key this server expects there.`
        : `No API key was set for ${key.agent} (a placeholder went instead), and this server wants one: set it with ${key.setBy}.`;
  return new UserError(
    'TMAS_AUTH',
    `The model endpoint ${endpoint.baseUrl} (from ${flag}) refused GET /models: ${answer}. ${what}${forwardedRefusalNote(endpoint.baseUrl, error.status)}`,
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
  if (named && listed !== undefined && listed.length > 0 && !listed.some((model) => namesModel(model.id, named))) {
    const served = servedModels(named, listed.map((model) => model.id));
    // Not given: the pool's first replica named it, and leaving the flag out cannot help.
    const alias = aliasOf(named, listed);
    const fix =
      firstReplica === null
        ? `"${named}" (from ${flag}); ${served}.${alias === null ? '' : ` It serves "${named}" under the name ${alias} (its root in GET /models: the server's --served-model-name), which a request must use.`} Give ${alias === null ? 'one of these' : alias} with ${flag}.`
        : `"${named}", which the pool's first replica ${firstReplica} serves (no ${flag} given); ${served}. Every replica of a pool must serve the model the run calls: give ${flag} with one they all serve, or point the pool at replicas of one model.`;
    throw new UserError('TMAS_MODEL_NOT_SERVED', `The endpoint ${baseUrl} does not serve the model ${fix}`);
  }
  if (named) return named;
  const first = listed?.[0]?.id;
  if (!first) throw new UserError('TMAS_ENDPOINT', `The endpoint ${baseUrl} lists no model at GET /models: name the model to call with ${flag}.`);
  if (servesSeveral(listed ?? [])) {
    const ids = [...new Set((listed ?? []).map((model) => model.id))];
    throw new UserError(
      'TMAS_USAGE',
      `The endpoint ${baseUrl} serves several models, and no ${flag} names the one to evaluate: ${servedModels('', ids)}. ` +
        `Give it with ${flag} (the run would have taken the first listed, ${first}, whichever that is).`,
    );
  }
  return first;
}

/**
 * Whether a model list names more than one model: a hosted API's (OpenAI
 * lists dozens, OpenRouter hundreds), a LiteLLM proxy's, Ollama's, a vLLM
 * serving LoRA adapters beside its base model. Taking the first of them
 * evaluated whichever model the server listed first (OpenAI's: any of its
 * models, an embedding model among them). Ids of one root are names of one
 * model (vLLM's `--served-model-name a b`), and so are entries of one id (a
 * proxy that lists a model once per deployment behind it).
 */
function servesSeveral(listed: readonly ListedModel[]): boolean {
  const first = listed[0];
  if (first === undefined) return false;
  const others = listed.filter((model) => model.id !== first.id);
  return others.length > 0 && (first.root === undefined || others.some((model) => model.root !== first.root));
}

/**
 * The id a listed model of root `named` is served under, when the name given
 * is the weights' (`Qwen/Qwen3-8B`) and the server lists them by another
 * (vLLM's and SGLang's `--served-model-name qwen`, `root` the weights'):
 * requests must name the id, and the message says which.
 */
function aliasOf(named: string, listed: readonly ListedModel[]): string | null {
  const wanted = named.replace(/\/+$/, '');
  const served = listed.find((model) => model.root !== undefined && (model.root === wanted || model.root.replace(/\/+$/, '').endsWith(`/${wanted}`)));
  return served?.id ?? null;
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
  const near = wanted === '' ? [] : ids.filter((id) => id.toLowerCase().includes(wanted));
  const shown = [...new Set([...near, ...ids])].slice(0, SHOWN_MODELS);
  const which = near.length === 0 ? 'the first' : 'those named like it first';
  return `it serves ${ids.length} models (GET /models lists them), ${which}: ${shown.join(', ')}, and ${ids.length - shown.length} more`;
}
