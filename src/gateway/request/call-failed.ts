/**
 * How a call that failed for good is told to its caller, and the API keys
 * kept out of what is told.
 */
import { TmasError, type ErrorCode } from '../../kernel/errors.ts';

/** A call that failed for good, with the last error's classification. */
export class CallFailedError extends TmasError {
  constructor(code: ErrorCode, message: string, readonly attempts: number, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'CallFailedError';
  }
}

/**
 * A call the gateway did not send, or did not send again, because it drains
 * (Gateway.drain: the first Ctrl-C): it was held, waiting to be retried, or
 * its attempt failed during the drain. It is neither a result nor a failure:
 * the resume sends it.
 */
export class CallDrained extends TmasError {
  constructor(options?: { cause?: unknown }) {
    super('TMAS_INTERRUPTED', 'not sent: the gateway drains (the run is stopping)', options);
    this.name = 'CallDrained';
  }
}

/** Replaces every API key in a text by `[redacted]`: servers may echo a key in an error message. */
export function redactKeys(text: string, keys: Iterable<string>): string {
  let result = text;
  for (const key of keys) if (key.length >= 4) result = result.split(key).join('[redacted]');
  return result;
}
