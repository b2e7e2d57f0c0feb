/**
 * The request field a server's 400 or 422 refuses, in the words of the
 * servers that refuse fields they do not know: OpenAI's chat models and
 * Azure ("Unrecognized request argument supplied: top_k"), OpenAI's
 * "Unknown parameter" and "Unsupported parameter", a strict pydantic server
 * (Mistral's, a vLLM behind a strict proxy: an `extra_forbidden` error whose
 * `loc` is the body's field), a property said to be unsupported (Groq), and
 * two fields the model takes only one of (Anthropic's temperature and top_p).
 * Every other call would be refused alike, so a field tmas adds on its own
 * (`seed`, `stream_options`) is left out for that endpoint from then on, and
 * one that a flag sets stops the run, naming the flag (run-stopping.ts).
 */
import { APIError } from 'openai';

/** The field names a refusal may carry: a JSON key as requests spell them. */
const NAME = "([A-Za-z_][A-Za-z0-9_.]*)";

/** How the servers word a refused field; the first group is its name. */
const WORDINGS: readonly RegExp[] = [
  new RegExp(`Unrecognized request argument supplied: ${NAME}`),
  new RegExp(`(?:Unknown|Unsupported) parameter: '${NAME}'`),
  new RegExp(`extra_forbidden'?"?,\\s*'?"?loc'?"?:\\s*[([]\\s*['"]body['"],\\s*['"]${NAME}['"]`),
  new RegExp(`[[(]\\s*['"]body['"],\\s*['"]${NAME}['"]\\s*[\\])][^\\]]*Extra inputs are not permitted`),
  new RegExp(`property '${NAME}' is unsupported`),
  // Two fields the model takes only one of (Anthropic's: "`temperature` and `top_p` cannot both be specified for this model").
  // The second is named: the one a run adds beside the temperature every call carries, set by its own flag (--top-p).
  new RegExp(`[\`'"]?[A-Za-z_][A-Za-z0-9_.]*[\`'"]? and [\`'"]?${NAME}[\`'"]? (?:cannot|can't|may not|must not) both be (?:specified|set|used|given)`),
  // A validation error read out of FastAPI's `detail` list, or Mistral's `message` holding one (error-body.ts).
  new RegExp(`Extra inputs are not permitted \\(body\\.${NAME}\\)`),
];

/** The name of the field `error` refuses when it is a 400 or 422 about one field of the request, else null. */
export function refusedField(error: unknown): string | null {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return null;
  for (const wording of WORDINGS) {
    const name = wording.exec(error.message)?.[1];
    if (name !== undefined) return name.split('.')[0] ?? name;
  }
  return null;
}

/**
 * Fields tmas adds to every request on its own, which an endpoint that
 * refuses them is sent without: `stream` too (dialect.ts refusesStreaming),
 * its replies then read whole, and `system`, the system role
 * (refusesSystemRole), its message then opening the first user message.
 */
export const OWN_FIELDS: ReadonlySet<string> = new Set(['seed', 'stream_options', 'stream', 'system']);
