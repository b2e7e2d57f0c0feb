/**
 * Option value parsers for commander: each rejects a bad value with a message
 * that says what the flag accepts. Commander prefixes the flag and the value.
 */
import { InvalidArgumentError } from 'commander';
import { UserError } from '../kernel/errors.ts';

/** An integer in [min, max]. */
export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    // Digits only: Number() would take '' and ' ' as 0, and 0x10, 0b10 or 1e3 as other numbers than they look.
    const parsed = /^\s*[+-]?\d+\s*$/.test(value) ? Number(value) : Number.NaN;
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `expected a whole number >= ${min}` : `expected a whole number from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** A number in [min, max]. */
export function decimal(min: number, max: number) {
  return (value: string): number => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** Any text but an empty one (or spaces alone), which is refused as not `what`. */
export function nonEmpty(what: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`expected ${what}, got an empty value`);
    return value;
  };
}

/**
 * What keeps an API key from going in the Authorization header as it is, or null: a line break or
 * another character outside printable ASCII (a key file read with its newline, a key pasted with a
 * zero-width space), or a space at either end. fetch refuses the first, so each call of the role failed
 * and was retried until the run was stopped; it strips the second, so the server got another key.
 */
export function apiKeyProblem(key: string): string | null {
  const chars = [...key];
  const at = chars.findIndex((char) => !/^[\x20-\x7e]$/.test(char));
  if (at !== -1) {
    const code = chars[at]?.codePointAt(0) ?? 0;
    const what = code === 0x0a || code === 0x0d ? 'a line break' : `the character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return `it holds ${what} (character ${at + 1} of ${chars.length}), which an HTTP header cannot carry`;
  }
  return key.trim() === key ? null : 'it begins or ends with a space, which an HTTP header drops';
}

/**
 * The parser of an API key flag: not empty (most often a variable that was not set, --api-key "$KEY"),
 * and one an HTTP header carries as it is. Refused with a usage error of its own, naming `flag`:
 * commander's would print the key.
 */
export function apiKey(flag: string) {
  return (value: string): string => {
    const key = nonEmpty('a key')(value);
    const problem = apiKeyProblem(key);
    if (problem !== null) throw new UserError('TMAS_USAGE', `${flag}: the key cannot be sent: ${problem}. Give the key alone.`);
    return key;
  };
}

/** One or more http(s) URLs, comma-separated; a repeated flag adds to the list (a replica pool). */
export function urls(value: string, previous: string[] | undefined): string[] {
  const given = value.split(',').map((part) => part.trim()).filter((part) => part !== '').map(endpointUrl);
  if (given.length === 0) throw new InvalidArgumentError('expected an http(s) URL such as http://localhost:8000/v1');
  return [...new Set([...(previous ?? []), ...given])];
}

/** A JSON object (`--extra-body`). */
export function jsonObject(value: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InvalidArgumentError(`expected a JSON object such as '{"top_k":20}': ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError('expected a JSON object such as \'{"top_k":20}\'');
  return parsed as Record<string, unknown>;
}

/** What sets each request field tmas sends of its own accord, as `--extra-body` is told to give it instead. */
const OWN_FIELDS: Readonly<Record<string, string>> = {
  model: "the slot's --model-name (--verify-model-name, …)",
  temperature: "--temperature, or the role's own (--verify-temperature, …; the judge's: --judge-temperature)",
  top_p: "--top-p, or the role's own (--verify-top-p, …)",
  top_k: "--top-k, or the role's own (--verify-top-k, …)",
  min_p: "--min-p, or the role's own (--verify-min-p, …)",
  seed: '--seed (each call gets its own seed from it)',
  max_tokens: "--completion-max-tokens (the judge's: --judge-max-tokens)",
  max_completion_tokens: "--completion-max-tokens (the judge's: --judge-max-tokens)",
  messages: 'the prompt tmas builds (--prompt ROLE=FILE replaces a role\'s template)',
  stream: 'tmas (--no-stream turns streaming off)',
  stream_options: 'tmas (it reads the usage of every streamed reply)',
  n: 'tmas (a call reads one choice)',
};

/**
 * A JSON object merged into every request (`--extra-body` and each slot's): fields tmas sends itself
 * are refused, naming the flag that sets each. Merged last, a `temperature` or `max_tokens` there was
 * what the server got while the run recorded its flag's value (the judge follows `--extra-body`, so
 * every method's grading changed with it); `model`, `messages`, `stream` and `n` were dropped.
 */
export function extraBody(value: string): Record<string, unknown> {
  const parsed = jsonObject(value);
  const own = Object.keys(parsed).filter((key) => Object.hasOwn(OWN_FIELDS, key));
  if (own.length > 0) throw new InvalidArgumentError(`${own.map((key) => `"${key}" is set by ${OWN_FIELDS[key]}`).join('; ')}: give it there, and leave it out of the JSON object`);
  return parsed;
}

/**
 * A model endpoint's URL: an http(s) URL without credentials, query or
 * fragment. The API key goes in the Authorization header as a Bearer token,
 * and a URL's `user:password@` would have to go in the same header: it was
 * dropped without a word, and kept in the run's manifest. The routes
 * (`/models`, `/chat/completions`) are put after the URL as it is, so a query
 * (Azure OpenAI's `?api-version=…`) came before them: every route was another
 * path, and the check said only that `GET /models` answered 404.
 */
function endpointUrl(value: string): string {
  const checked = url(value);
  const parsed = new URL(checked);
  if (parsed.username !== '' || parsed.password !== '') {
    throw new InvalidArgumentError('a URL with credentials (user:password@) is not sent as such: the Authorization header carries the API key as a Bearer token. Give the URL without them, and the key with --api-key or OPENAI_API_KEY');
  }
  if (parsed.search !== '' || parsed.hash !== '' || /[?#]/.test(checked)) {
    throw new InvalidArgumentError(
      "a base URL with a query or fragment (?…, #…) is no base URL: the routes (/chat/completions, /models) go after it, and would come after the query. Give it without them (Azure OpenAI's v1 API, https://RESOURCE.openai.azure.com/openai/v1, takes no api-version)",
    );
  }
  // As the URL is parsed (scheme and host in lower case, no default port): one server spelt two ways
  // (HTTP://Node-1:80/v1, http://node-1/v1) was two replicas of a pool, sent twice its share.
  return parsed.href.replace(/\/+$/, '');
}

/** An http(s) URL. */
export function url(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('not http');
  } catch {
    throw new InvalidArgumentError('expected an http(s) URL such as http://localhost:8000/v1');
  }
  return value.replace(/\/+$/, '');
}

/** The reference implementation's names for flags tmas calls otherwise. */
const ALIASES: Record<string, string> = { '--resume-path': '--resume' };

/**
 * Accepts the reference implementation's snake_case spellings (`--input_file`)
 * by rewriting them to kebab-case before commander sees them, and its names
 * for flags tmas calls otherwise (`--resume_path`).
 */
export function kebabCaseFlags(argv: string[]): string[] {
  return argv.map((arg) => {
    if (!arg.startsWith('--')) return arg;
    const equals = arg.indexOf('=');
    const name = (equals < 0 ? arg : arg.slice(0, equals)).replaceAll('_', '-');
    return (ALIASES[name] ?? name) + (equals < 0 ? '' : arg.slice(equals));
  });
}
