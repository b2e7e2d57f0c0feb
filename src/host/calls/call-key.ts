/**
 * What a call is, apart from what it answers: the endpoint its role's calls
 * go to, the seed, sampling and completion limit of its request, and its
 * journal key in each window it is fitted into (made once each: the prompt's
 * part of a key is the dear part, fit-key.ts).
 */
import type { LlmInput } from '../../../machines/llm.ts';
import type { RunConfig, Secrets } from '../../settings/config.ts';
import { TmasError } from '../../kernel/errors.ts';
import type { Endpoint, Sampling } from '../../gateway/gateway.ts';
import { fitKey, promptIdentity } from '../../pool/fit-key.ts';
import { hashOf, seedFor } from '../../kernel/prng.ts';
import type { EndpointSlot } from '../../kernel/protocol.ts';
import { tokenizerIdentity } from '../../settings/files/tokenizer-file.ts';
import { CONTEXT_MARGIN } from './context-errors.ts';

/** What a call's request is made from: the run's settings, its keys, and the embedded simulated model's URL for roles without their own. */
export interface CallSettings {
  config: RunConfig;
  secrets: Secrets;
  simulatorUrl: string | null;
}

/** The endpoint a role's calls go to. */
export function endpointFor(role: EndpointSlot, deps: CallSettings): Endpoint {
  const { baseUrl, model } = deps.config.roles.endpoints[role];
  const urls = baseUrl ?? (deps.simulatorUrl === null ? [] : [deps.simulatorUrl]);
  const [first] = urls;
  if (first === undefined) throw new TmasError('TMAS_NO_ENDPOINT', `no endpoint for the ${role} role`);
  return { baseUrl: first, model, apiKey: deps.secrets[role], ...(urls.length > 1 ? { replicas: urls } : {}) };
}

/** The prompt budget: the window less a completion reserve (a quarter of the window, at most 16k) and the margin. */
export function promptBudget(window: number): number {
  return window - Math.min(16_384, Math.floor(window / 4)) - CONTEXT_MARGIN;
}

/** What shapes a call's request apart from its prompt, the same on every refit. */
export interface CallShape {
  /** The prompt's part of its keys (fit-key.ts), made once for the call: the dear part of each key. */
  prompt: string;
  /** The call's keys made so far, by window: a call is looked up and then sent under the same one. */
  keys: Map<number, Keyed>;
  endpoint: Endpoint;
  attempt: number;
  seed: number;
  temperature: number | null;
  sampling: Sampling | undefined;
  /** The completion limit, when the run or the role sets one. */
  cap: number | undefined;
}

/** The seed of a call asked at `iteration`: a retry after unusable output is another request (another seed), journaled under its own key. */
function seedOf(config: RunConfig, input: LlmInput, iteration: number, attempt: number): number {
  const { problem, role, index } = input;
  return attempt === 0 ? seedFor(config.loop.seed, problem, iteration, role, index) : seedFor(config.loop.seed, problem, iteration, role, index, attempt);
}

/** The seed, sampling and completion limit of a call. */
export function shapeOf(deps: CallSettings, input: LlmInput): CallShape {
  const { config } = deps;
  const endpoint = endpointFor(input.endpoint, deps);
  const attempt = input.attempt ?? 0;
  const seed = seedOf(config, input, input.iteration, attempt);
  const { temperature: slotTemperature, ...rest } = config.roles.endpoints[input.endpoint].sampling;
  // A slot's own --…-temperature wins over the role's; other sampling fields go to the request only when set.
  const temperature = slotTemperature ?? input.temperature ?? null;
  const set = Object.entries(rest).filter(([, value]) => value !== null);
  const sampling = set.length > 0 ? (Object.fromEntries(set) as Sampling) : undefined;
  // The judge has its own completion limit (a hosted judge rejects one near the whole window); the
  // other roles have the run's, when it has one (RSE's upstream budget), and a role may set a lower
  // one per call (MAS-TTS's CEO budget).
  const runCap = (input.endpoint === 'judge' ? config.judge.maxTokens : config.context.completionMaxTokens) ?? undefined;
  const cap = input.maxTokens === undefined ? runCap : Math.min(runCap ?? input.maxTokens, input.maxTokens);
  return { prompt: promptIdentity(input.prompt), keys: new Map(), endpoint, attempt, seed, temperature, sampling, cap };
}

/** A call's journal key when fitted into `window`, with the prompt budget and the fit's task there. */
export interface Keyed {
  window: number;
  key: string;
  budget: number;
  task: { encoding: RunConfig['context']['tokenizer']; system: LlmInput['prompt']['system']; parts: LlmInput['prompt']['parts']; budget: number };
}

/** The call's key at `window` (keyFor), made once. */
export function keyedAt(deps: Pick<CallSettings, 'config'>, input: LlmInput, shape: CallShape, window: number): Keyed {
  let keyed = shape.keys.get(window);
  if (keyed === undefined) shape.keys.set(window, (keyed = keyFor(deps, input, shape, window)));
  return keyed;
}

/**
 * The key names what the call is about and hashes everything that shapes its request: the prompt
 * before fitting, the budget and tokenizer that fit it (by content, not path: a moved run's journal
 * still answers), and the sampling parameters. Hashing the inputs of the fit rather than its output
 * lets a resume or a replay look the call up before tokenizing anything: a journaled call costs one
 * read, no pool task.
 */
function keyFor(deps: Pick<CallSettings, 'config'>, input: LlmInput, shape: CallShape, window: number): Keyed {
  const { config } = deps;
  const { endpoint, seed, temperature, sampling, cap } = shape;
  const budget = promptBudget(window);
  const task = { encoding: config.context.tokenizer, system: input.prompt.system, parts: input.prompt.parts, budget };
  const prefix = input.prefix === undefined ? {} : { prefix: input.prefix };
  const tokenizer = tokenizerIdentity(config.context);
  const prompt = fitKey({ ...task, encoding: tokenizer }, shape.prompt);
  const key = `${input.problem}/${input.iteration}/${input.role}/${input.index}/${hashOf({ model: endpoint.model, window, prompt, ...prefix, temperature, seed, ...(sampling === undefined ? {} : { sampling }), ...(cap === undefined ? {} : { cap }) })}`;
  return { window, key, budget, task };
}

/**
 * The key the same call would have had, fitted into `window`, had it been asked at `iteration`: its
 * request at that iteration differs only in the seed derived from it. A judge request is the same
 * question about the same response whichever iteration asks it (machines/judge-stage.ts), so a fork
 * looks it up under these keys too (journal-source.ts).
 */
export function keyAtIteration(deps: Pick<CallSettings, 'config'>, input: LlmInput, shape: CallShape, window: number, iteration: number): string {
  const there = { ...input, iteration };
  return keyFor(deps, there, { ...shape, keys: new Map(), seed: seedOf(deps.config, there, iteration, shape.attempt) }, window).key;
}
