/**
 * The simulator's request log: one JSON line per chat request, through one
 * append stream, so a run's traffic (roles, problems, faults) can be inspected
 * afterwards. The file is opened before the server listens, so a bad path
 * fails at start rather than on the first request.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { TmasError, UserError } from '../../kernel/errors.ts';

/** One line of the request log. */
export interface RequestLogEntry {
  /** Epoch milliseconds when the request arrived. */
  at: number;
  role: string | null;
  problem: string | null;
  /** sha256 of the request body: equal for a retry of the same request. */
  key: string;
  /** The request's sampling `seed`: tmas derives it from (seed, problem, iteration, role, index), so it names the call. */
  seed: number | null;
  /** HTTP status sent; null when no complete response was sent (reset, hang). */
  status: number | null;
  fault: string | null;
  /** The request's parameters besides its messages (model, limits, sampling, stream, extra fields), so a test can see what reached the server. */
  params?: Record<string, unknown>;
}

/** An open request log. */
export interface RequestLog {
  write(entry: RequestLogEntry): void;
  /** Flushes and closes; rejects if any write failed. */
  close(): Promise<void>;
}

/** Opens `path` for appending. */
export async function openRequestLog(path: string): Promise<RequestLog> {
  const stream: WriteStream = createWriteStream(path, { flags: 'a' });
  let failure: Error | null = null;
  stream.on('error', (error) => {
    failure ??= error;
  });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error) =>
      reject(
        new UserError('TMAS_SIM_LOG', `cannot open the simulator request log ${path}: ${error.message}. Check that its directory exists and is writable.`, {
          cause: error,
        }),
      ),
    );
  });
  // A request finishing while the server closes must not write after the end.
  let ended = false;
  return {
    write(entry) {
      if (failure === null && !ended) stream.write(`${JSON.stringify(entry)}\n`);
    },
    close() {
      ended = true;
      return new Promise((resolve, reject) => {
        stream.end(() => {
          if (failure) reject(new TmasError('TMAS_SIM_LOG', `writing the simulator request log ${path} failed: ${failure.message}`, { cause: failure }));
          else resolve();
        });
      });
    },
  };
}
