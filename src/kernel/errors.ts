/**
 * Errors with a stable `code` (match on it, never on the message text) and an
 * optional `cause`. A `UserError` is something the user can fix (a flag, a file,
 * an endpoint): the CLI prints its message without a stack trace and exits 2.
 */
export class TmasError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TmasError';
    this.code = code;
  }
}

/** A mistake in what the user gave us: the message says what, where and how to fix it. */
export class UserError extends TmasError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'UserError';
  }
}

/** True for errors the CLI reports as a one-paragraph message with exit code 2. */
export function isUserError(error: unknown): error is UserError {
  return error instanceof UserError;
}
