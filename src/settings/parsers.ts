/**
 * Option value parsers for commander: each rejects a bad value with a message
 * that says what the flag accepts. Commander prefixes the flag and the value.
 */
import { InvalidArgumentError } from 'commander';

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
