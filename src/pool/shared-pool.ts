/**
 * One worker pool per tokenizer encoding for the whole process, lent to each
 * run. A pool's threads cost about 0.6 s of CPU to start (the thread, the
 * TypeScript loader, the encoding's ranks), which a process that runs
 * several evaluations one after another (a script that imports tmas, tmas's
 * own tests: some 480 runs in its test processes) paid again for every run.
 * A lent pool's threads stay while they have work and idle out after the
 * pool's idle timeout; an idle pool does not keep the process alive.
 *
 * A `--tokenizer-path` tokenizer is loaded from a file that may change
 * between two runs of one process (a tokenizer edited in place is refused by
 * its digest on resume), so its pool is shared only under the digest of what
 * the file held when the run read it: the same file edited gets a pool of its
 * own. A model's tokenizer costs seconds of CPU to load in each thread (Qwen3's
 * is 11 MB of JSON), which a fork and its resume, or a script's runs, paid
 * once each before.
 */
import { TmasError } from '../kernel/errors.ts';
import { checkEncoding, createPool, DEFAULT_ENCODING, type Pool } from './pool.ts';
import { isHfTokenizerName } from '../../workers/hf-tokenizer.ts';

/** The process's pools, by encoding. */
const pools = new Map<string, Pool>();

/** How long closing a lent pool waits for its own tasks: Piscina's close timeout. */
const LEASE_CLOSE_MS = 30_000;

/**
 * A pool for one run in `encoding`: a lease on the process's pool (its
 * `close` waits for the lease's own tasks and leaves the threads to the next
 * run). A tokenizer file's pool is shared under `digest`, the run's digest of
 * the file; without one, the run has a pool of its own.
 */
export function lendPool(options: { encoding?: string; digest?: string | null } = {}): Pool {
  const encoding = checkEncoding(options.encoding ?? DEFAULT_ENCODING);
  const hf = isHfTokenizerName(encoding);
  if (hf && (options.digest ?? null) === null) return createPool({ encoding });
  const key = hf ? `${encoding}\0${options.digest}` : encoding;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = createPool({ encoding });
    pools.set(key, pool);
  }
  return leaseOf(pool);
}

/** A view of `pool` that one run uses and closes: later calls reject, as a closed pool's do. */
function leaseOf(pool: Pool): Pool {
  const running = new Set<Promise<unknown>>();
  let closed = false;
  const track = <T>(name: string, task: () => Promise<T>): Promise<T> => {
    if (closed) return Promise.reject(new TmasError('TMAS_POOL_CLOSED', `the worker pool is closed (task "${name}")`));
    const result = task();
    const settled: Promise<unknown> = result.then(
      () => running.delete(settled),
      () => running.delete(settled),
    );
    running.add(settled);
    return result;
  };
  return {
    fit: (input, taskOptions) => track('fit', () => pool.fit(input, taskOptions)),
    countTokens: (texts, taskOptions) => track('count', () => pool.countTokens(texts, taskOptions)),
    dedup: (input, taskOptions) => track('dedup', () => pool.dedup(input, taskOptions)),
    encodeJson: (value) => track('encodeJson', () => pool.encodeJson(value)),
    get pending() {
      return pool.pending;
    },
    async close() {
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, LEASE_CLOSE_MS).unref()));
      await Promise.race([Promise.all(running), timeout]);
      clearTimeout(timer);
    },
  };
}
