/**
 * The worker pool client: the only module that knows about Piscina
 * (docs/concepts/context-budget.md). Token counting, prompt fitting and bank deduplication run on
 * worker threads so that the event loop, which carries hundreds of in-flight
 * LLM calls, stays responsive.
 *
 * @example
 * ```ts
 * const pool = createPool({ encoding: 'o200k_base' });
 * const { user, promptTokens, dropped } = await pool.fit({ system, parts, budget: 30_000 });
 * await pool.close();
 * ```
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { TmasError, UserError } from '../kernel/errors.ts';
import { packagePath, threadModulePath } from '../kernel/package-root.ts';
import { fitKey } from './fit-key.ts';
import { SizedLru } from './sized-lru.ts';
import { AHEAD, TaskLanes } from './task-lanes.ts';
import { HF_PREFIX, isHfTokenizerName, tokenizerFileOf } from '../../workers/hf-tokenizer.ts';
import { GIVE_INSTEAD, tokenizerFileProblem, tokenizerInstead } from '../../workers/hf-tokenizer-file.ts';
import type {
  CountTask,
  DedupInput,
  DedupOutput,
  EncodingName,
  FitOutput,
  FitTask,
  TaskEnvelope,
} from '../../workers/tasks.ts';
import { thrownText } from '../kernel/thrown-text.ts';

export type { DedupInput, DedupOutput, EncodingName, FitOutput, FitPart, TemplateFitPart } from '../../workers/tasks.ts';

/** Input of `Pool.fit`: the `fit` task, whose encoding defaults to the pool's. */
export type FitInput = Omit<FitTask, 'encoding'> & { encoding?: string };

/** Options every pool call takes. */
export interface TaskOptions {
  /** Aborting rejects the call; a task already running is stopped with its thread. */
  signal?: AbortSignal;
  /** Queued ahead of the tasks without it (task-lanes.ts): a prompt whose texts its problem keeps only for it. */
  ahead?: boolean;
}

/** Options of `Pool.fit`. */
export interface FitOptions extends TaskOptions {
  /** The task's promptIdentity (fit-key.ts), when the caller made it already. */
  identity?: string;
}

/** CPU-bound tasks run off the main thread. */
export interface Pool {
  /** Fits a prompt into `budget` tokens, dropping parts by `drop` rank (see `workers/tokenize.worker.ts`). */
  fit(input: FitInput, options?: FitOptions): Promise<FitOutput>;
  /** Tokens of each text, in the pool's encoding unless `encoding` says otherwise. */
  countTokens(texts: string[], options?: TaskOptions & { encoding?: string }): Promise<number[]>;
  /** Which incoming bank records to keep (see `workers/jaccard.worker.ts`). */
  dedup(input: DedupInput, options?: TaskOptions): Promise<DedupOutput>;
  /** `value` as JSON in UTF-8 bytes (see `workers/json.worker.mjs`). */
  encodeJson(value: unknown): Promise<Uint8Array>;
  /** Tasks queued + running, for the progress display. */
  readonly pending: number;
  /** Waits for the tasks in progress (at most `closeTimeoutMs`), then stops the threads. Later calls reject. */
  close(): Promise<void>;
}

/** Options of `createPool`. */
export interface PoolOptions {
  /** Worker threads; see `defaultThreads`. */
  threads?: number;
  /** The tokenizer encoding (`--tokenizer`); `o200k_base` when absent. */
  encoding?: string;
  /** How long `close` waits for the tasks in progress before it stops their threads; Piscina's 30 s when absent. */
  closeTimeoutMs?: number;
}

/** Piscina's error when `close` waited longer than its `closeTimeout` for the tasks in progress. */
const CLOSE_TIMED_OUT = 'Close operation timed out';

/** The encoding used when none is given. */
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

/**
 * The tokenizer name of a `--tokenizer-path` (a directory with tokenizer.json,
 * or the file): `hf:` + the file's absolute path; a user error when there is
 * no such file, or when its kind, size or first bytes say it is no
 * tokenizer.json (a GGUF or SentencePiece model, a pipe: hf-tokenizer-file.ts).
 * Whether the file is a tokenizer is found where it is loaded,
 * in the pool's thread, by the run's first count (`tokenizerLoadError`), not
 * here: a model's tokenizer takes seconds of CPU and much memory to load,
 * which the main thread would pay for nothing.
 */
export function hfTokenizerName(given: string): string {
  const file = tokenizerFileOf(given);
  if (file === null) {
    throw new UserError('TMAS_TOKENIZER', `No tokenizer.json at ${given} (--tokenizer-path): give a Hugging Face model directory that holds tokenizer.json, or the file itself.${tokenizerInstead(given)}`);
  }
  // Told from the file's size and first bytes, before a thread (and the digest) reads it whole.
  const problem = tokenizerFileProblem(file);
  if (problem !== null) throw new UserError('TMAS_TOKENIZER', `Cannot load the tokenizer ${given} (--tokenizer-path): ${problem}. To go on, ${GIVE_INSTEAD}.`);
  return `${HF_PREFIX}${file}`;
}

/** The user error for a `--tokenizer-path` file (tokenizer `name`) that the pool's first task failed to load with `error`. */
export function tokenizerLoadError(name: string, error: unknown): UserError {
  const cause = error instanceof TmasError && error.cause !== undefined ? error.cause : error;
  const reason = thrownText(cause);
  return new UserError('TMAS_TOKENIZER', `Cannot load the tokenizer ${name.slice(HF_PREFIX.length)} (--tokenizer-path): ${reason}`, { cause: error });
}

// A record rather than a list so that the compiler notices a name added to `EncodingName`.
const ENCODINGS: Record<EncodingName, true> = { o200k_base: true, cl100k_base: true, p50k_base: true };

/** The encodings `--tokenizer` accepts. */
export const SUPPORTED_ENCODINGS = Object.keys(ENCODINGS) as EncodingName[];

/** Throws the user error for an encoding name the tokenizer worker cannot load. A Hugging Face tokenizer (`hf:` + its file) is loaded, and found wanting, by the pool's threads. */
export function checkEncoding(name: string): string {
  if (Object.hasOwn(ENCODINGS, name) || isHfTokenizerName(name)) return name;
  throw new UserError(
    'TMAS_TOKENIZER',
    `Unknown tokenizer "${name}" (--tokenizer). Use one of: ${SUPPORTED_ENCODINGS.join(', ')}.`,
  );
}

/**
 * One thread per core but one, left to the event loop (the gateway, the actors,
 * the message log), and at most 8: each thread holds its own copy of the token
 * ranks (workers/bpe.ts) besides tsx and its
 * own V8 heap, and the tasks are short bursts between LLM
 * calls, so more threads cost memory without shortening a run.
 */
export function defaultThreads(): number {
  return Math.max(1, Math.min(8, os.availableParallelism() - 1));
}

// Every thread starts from the plain-JS shim, which makes the TypeScript worker
// modules loadable whether or not this process runs under tsx or vitest.
const LOADER = pathToFileURL(packagePath('workers/load.mjs'));
// The worker modules are TypeScript beside the sources, JavaScript in the build (src/build.mjs), which a
// process running from the sources gives its threads too while the build is current (threadModulePath).
const TOKENIZE_WORKER = pathToFileURL(threadModulePath('workers/tokenize.worker.ts')).href;
const JACCARD_WORKER = pathToFileURL(threadModulePath('workers/jaccard.worker.ts')).href;
const JSON_WORKER = pathToFileURL(packagePath('workers/json.worker.mjs')).href;

/**
 * Fit results kept for reuse. The M verification prompts of a candidate (and
 * the exploit prompts of an iteration) are identical and asked for together,
 * so a fit in progress is shared by every caller that asks meanwhile, and a
 * finished one is kept a little longer for stragglers (a retry, a resume's
 * first calls). The finished ones are bounded by the characters of their
 * fitted texts: under a bound sixteen times this one they were the largest
 * holder of a thinking-length run's heap, for hits that the sharing in flight
 * already gave.
 */
const FIT_CACHE_ENTRIES = 1024;
const FIT_CACHE_CHARS = 4 * 2 ** 20;

/** Threads are kept this long when idle, so the ranks are not reloaded between bursts of work. */
const IDLE_TIMEOUT_MS = 5 * 60_000;

/**
 * A thread's young generation, in MB. V8's default is sized for a main
 * thread; a pool task allocates little that lives beyond it (chunk strings, a
 * joined prompt), so a smaller one keeps each thread's heap smaller with no
 * more CPU time in the pool's counting.
 */
const THREAD_YOUNG_GENERATION_MB = 8;

/** `promise`, or an AbortError as soon as `signal` aborts. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error && signal.reason.name === 'AbortError' ? signal.reason : new DOMException('The operation was aborted', 'AbortError');
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/** Creates a pool; throws `TMAS_TOKENIZER` at once for an unknown encoding. */
export function createPool(options: PoolOptions = {}): Pool {
  const encoding = checkEncoding(options.encoding ?? DEFAULT_ENCODING);
  const threads = options.threads ?? defaultThreads();
  if (!Number.isInteger(threads) || threads < 1) {
    throw new TypeError(`threads must be a positive integer, got ${threads}`);
  }
  const piscina = new Piscina<TaskEnvelope<unknown>, unknown>({
    filename: LOADER.href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: IDLE_TIMEOUT_MS,
    resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB },
    taskQueue: new TaskLanes(),
    ...(options.closeTimeoutMs === undefined ? {} : { closeTimeout: options.closeTimeoutMs }),
  });
  let pending = 0;
  let closed = false;
  // Fits in progress, shared by equal tasks; then the finished ones, bounded by their texts' characters.
  const fitting = new Map<string, Promise<FitOutput>>();
  const fitCache = new SizedLru<string, Promise<FitOutput>>(FIT_CACHE_CHARS, FIT_CACHE_ENTRIES);

  async function run<I, O>(file: string, name: string, input: I, signal: AbortSignal | undefined, ahead = false): Promise<O> {
    if (closed) throw new TmasError('TMAS_POOL_CLOSED', `the worker pool is closed (task "${name}")`);
    pending += 1;
    try {
      const envelope: TaskEnvelope<I> = ahead ? { file, name, input, ...AHEAD } : { file, name, input };
      return (await piscina.run(envelope, signal === undefined ? {} : { signal })) as O;
    } catch (error) {
      if (isAbort(error)) throw error;
      throw new TmasError('TMAS_WORKER', `worker task "${name}" failed: ${String(error)}`, { cause: error });
    } finally {
      pending -= 1;
    }
  }

  return {
    async fit(input, taskOptions) {
      const task: FitTask = { ...input, encoding: checkEncoding(input.encoding ?? encoding) };
      const key = fitKey(task, taskOptions?.identity);
      const cached = fitting.get(key) ?? fitCache.get(key);
      if (cached) return abortable(cached, taskOptions?.signal);
      // Not tied to one caller's signal: another caller may share the result; an aborted caller just stops waiting.
      const result = run<FitTask, FitOutput>(TOKENIZE_WORKER, 'fit', task, undefined, taskOptions?.ahead === true);
      fitting.set(key, result);
      result.then(
        (output) => fitCache.set(key, result, output.user.length + (output.system?.length ?? 0)),
        () => {},
      ).finally(() => fitting.delete(key));
      return abortable(result, taskOptions?.signal);
    },
    async countTokens(texts, taskOptions) {
      const task: CountTask = { encoding: checkEncoding(taskOptions?.encoding ?? encoding), texts };
      return run<CountTask, number[]>(TOKENIZE_WORKER, 'count', task, taskOptions?.signal);
    },
    async dedup(input, taskOptions) {
      return run<DedupInput, DedupOutput>(JACCARD_WORKER, 'dedup', input, taskOptions?.signal);
    },
    async encodeJson(value) {
      // Ahead of queued fits: store writes and request bodies wait on it, and it takes a fraction of a fit's time.
      return run<unknown, Uint8Array>(JSON_WORKER, 'encodeJson', value, undefined, true);
    },
    get pending() {
      return pending;
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await piscina.close();
      } catch (error) {
        // Piscina stops the threads once its wait is over and then throws (its pool has no 'error' listener): the pool is
        // closed all the same, and a task it stopped rejects to its own caller. A slow machine is no internal error.
        if (!(error instanceof Error && error.message === CLOSE_TIMED_OUT)) throw error;
      }
    },
  };
}
