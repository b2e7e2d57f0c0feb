/**
 * Errors with a stable `code` (match on it, never on the message text) and an
 * optional `cause`. A `UserError` is something the user can fix (a flag, a file,
 * an endpoint): the CLI prints its message without a stack trace and exits 2.
 *
 * `ERROR_CODES` is the one list of codes: docs/reference/errors.md is checked
 * against it by a test, and a code that is not in it does not type-check.
 */

/** Every error code tmas raises, with what it means (docs/reference/errors.md says the same). */
export const ERROR_CODES = {
  TMAS_USAGE: 'a flag is missing or has a bad value',
  TMAS_INPUT: 'the problem file is wrong (the message names file and line)',
  TMAS_TOKENIZER: 'unknown --tokenizer, or no loadable tokenizer.json at --tokenizer-path (a GGUF or SentencePiece model, a pipe, a file over 128 MiB or not UTF-8 is named as such)',
  TMAS_ENDPOINT: 'an endpoint did not answer GET /v1/models, or lists no model; or (mid-run) it answered a call with a 404 that names no model, or a 405: its chat route is not there, and the run stopped at once and can be resumed once the base URL reaches the server',
  TMAS_PROXY: 'the proxy an endpoint is called through (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY, upper or lower case) is no http:// or https:// URL, cannot be reached, or refused the tunnel to the endpoint (407: it wants credentials; 403: its rules forbid it; 502, 503, 504: it could not reach the endpoint); the message names the variable and the proxy, never its password; mid-run, a proxy that refuses a call with 407 or 403 stops the run at once, resumable',
  TMAS_MODEL_NOT_SERVED: "a --model-name is not among the models the endpoint's /v1/models lists, or (mid-run) the endpoint answered a call with a 400 or 404 saying the model or its deployment is not found (a model withdrawn, a replica reloaded with another); the run stopped at once and can be resumed once it is served",
  TMAS_OUTPUT: 'the output directory is not empty or not writable, or (tmas fork) lies inside the run being forked',
  TMAS_UNGRADABLE: 'a new run that nothing would grade: in proof mode (the default) on problems that carry short answers and no reference solution (add --no-proof), or with --no-proof on problems none of which has a reference answer (name its column with --answer-column); --force runs it anyway',
  TMAS_AGENTS: 'the --agents module cannot be loaded, overrides a role the strategy lacks, an override is of the wrong kind, one of its functions throws or returns what the run cannot use, or a machine of its own leaves a request unanswered past --timeout',
  TMAS_PROMPT: 'a --prompt ROLE=FILE names a role the strategy lacks or a file that cannot be read, or its template does not parse, reads a variable the role does not have or fails to render (the message names the file, and the line where it can)',
  TMAS_REPORT: 'a directory given to tmas report has no readable metrics.json',
  TMAS_REPORT_INCONSISTENT: 'results.jsonl and metrics.json of a run directory are not from the same write, or were written by another run than its store holds',
  TMAS_REPORT_LIBRARY: 'a library the HTML report embeds (Chart.js, KaTeX) is not installed',
  TMAS_LOCKED: 'another tmas process holds the run directory',
  TMAS_RESUME: '--resume or tmas fork was given a directory that holds no tmas run, or a run of another journal version',
  TMAS_RUN_DIR: 'an analysis command was given a directory that holds no tmas run',
  TMAS_RUN_STOPPED: '`tmas plan --check` was given a run that stopped before its last iteration (a Ctrl-C, a kill, a full disk, a call failed for good), whose figures a forecast of the whole run would be set beside: resume it first',
  TMAS_EXPORT_EMPTY: 'tmas export found no generation in the run to export',
  TMAS_RESUME_CONFLICT: 'a resume would change what the calls are, or a resume or a fork was given an --input-file that does not hold the run\'s problems',
  TMAS_INTERRUPTED: 'the run was stopped by Ctrl-C or SIGTERM; it is resumable',
  TMAS_REPLAY_MISS: 'during tmas replay, a call whose request changed has no journaled answer',
  TMAS_STORE: 'the store is damaged (an iteration mark without its banks)',
  TMAS_STORE_DAMAGED: 'a run directory\'s store is incomplete or corrupt, or its manifest is not the one its run wrote (named in the message); nothing was changed: `tmas repair DIR` (a manifest: restore the directory from a copy)',
  TMAS_OUTPUT_FORMAT: 'a run\'s metrics.json was written by a newer tmas, in a layout (metrics version) this one cannot read; nothing was changed',
  TMAS_STORE_FORMAT: 'a run directory\'s store was written by a newer tmas, in a layout (store format) or journal version this one cannot read, or with settings this one does not know; nothing was changed',
  TMAS_STORE_WRITE: 'a write to the store failed (a full disk); what was journaled before is kept',
  TMAS_CALL_FAILED: 'a call failed for good after its retries',
  TMAS_CALL_REJECTED: 'the endpoint refused a call (a 4xx other than 429)',
  TMAS_CONTEXT_LENGTH: 'the prompt does not fit the context window',
  TMAS_AUTH: 'an endpoint refused the API key (401 or 403), at start or mid-run; a run stopped at once and can be resumed with a good key',
  TMAS_QUOTA: "an endpoint refused a call because the account's quota, credits or balance are spent (OpenAI's 429 insufficient_quota, a 402, Anthropic's 'credit balance is too low'); the run stopped at once and can be resumed once the account is topped up",
  TMAS_RATE_LIMITED: 'an endpoint asked to be called again only after more than 15 minutes (a 429 or 503 whose Retry-After or rate-limit reset is that far off: a daily limit spent, a server down for maintenance); the run stopped at once and can be resumed then',
  TMAS_REDIRECTED: 'an endpoint answered a call with a redirect tmas does not follow (301, 302, 303, which would drop the request\'s body; or too many 307 and 308): its base URL leads elsewhere; the run stopped at once: resume it with the base URL the message names',
  TMAS_WEB_PAGE: "an endpoint answered a call twice with a web page under a 200 (a corporate proxy's sign-in page, a captive portal) in place of a reply; the run stopped at once: sign in, or give a base URL that reaches the server itself, then resume it",
  TMAS_NOT_STREAMED: 'an endpoint answered a streamed request with JSON that is not a chat completion; the run stopped at once: resume it with --no-stream',
  TMAS_FIELD_REFUSED: "an endpoint refused a field of the request that a flag sets (a 400 naming top_k, min_p, an --extra-body key, …, or a completion limit above the cap it states); the run stopped at once: resume it without that field, or with a value it takes, with --force",
  TMAS_RUN_INCOMPLETE: 'the run ended with calls that failed for good: their problems stopped at that iteration, unmarked; a resume issues them again',
  TMAS_RUN_UNGRADED: "the run finished, but its figures are not a result: its LLM judge gave no verdict on any candidate (results.jsonl and metrics.json hold no Pass@1; the message says how many of the judge's replies were unusable and how to grade again: tmas fork, answering the method's calls from the journal), or under the rule no candidate of any problem gave a final answer (a Pass@1 of 0.0 that is the replies' format), or a role of its own used no output in any iteration",
  TMAS_TABLE_UNGRADED: "tmas table1 wrote its table, but some column is not a result: no Pass@1 figure at all (the judge gave no verdict on any of its candidates, or its problems have no reference answer: its cells are '-'), under the rule no candidate gave a final answer (a 0.0 that is the replies' format), or a role of its own used no output in any iteration; the message names each column, why, and what to fix",
  TMAS_REPORT_UNGRADED: "tmas report wrote its report, but some run in it is not a result (its judge gave no verdict on any candidate, under the rule no candidate gave a final answer, or a role of its own used no output in any iteration): the message names each run, why, and what to fix",
  TMAS_CALL_SKIPPED: 'a call was not sent because another call of its problem and iteration had failed for good',
  TMAS_ENDPOINT_DOWN: 'an endpoint kept failing after its retries; the run stopped cleanly and can be resumed',
  TMAS_WORKER: 'a worker-pool task failed',
  TMAS_POOL_CLOSED: 'a task was given to a closed worker pool',
  TMAS_SIM_LOG: "the simulator's request log cannot be opened or written",
  TMAS_NOT_PROVIDED: 'wiring bug: an actor or action a machine needs was not provided',
  TMAS_MISROUTED: 'wiring bug: a message was addressed to an actor that does not exist or does not take it',
  TMAS_NO_ENDPOINT: 'wiring bug: a role names no endpoint slot',
  TMAS_INTERNAL: 'a bug in tmas: please report it',
} as const;

/** A stable error code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** An error with a stable code. */
export class TmasError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TmasError';
    this.code = code;
  }
}

/** A mistake in what the user gave us: the message says what, where and how to fix it. */
export class UserError extends TmasError {
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'UserError';
  }
}

/** True for errors the CLI reports as a one-paragraph message with exit code 2. */
export function isUserError(error: unknown): error is UserError {
  // What a plugin throws may be a Proxy whose getPrototypeOf trap throws: no UserError, and no crash asking.
  try {
    return error instanceof UserError;
  } catch {
    return false;
  }
}
