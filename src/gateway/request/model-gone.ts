/**
 * A 404 that says the model asked for is not served: OpenAI's
 * `model_not_found` ("The model `…` does not exist or you do not have access
 * to it"), Azure's `DeploymentNotFound`, OpenRouter's "No endpoints found
 * for …". The check at start found the model listed; a model withdrawn or a
 * deployment deleted mid-run, or an API whose list names models its
 * completions do not take, refuses every later call alike: read as one
 * call's refusal, each call of the run was sent and refused, exit 3.
 */
import { APIError } from 'openai';

/** The codes that name a model or deployment not found (Anthropic's `not_found_error` names any missing resource: its words must name the model). */
const GONE_CODES = new Set(['model_not_found', 'deploymentnotfound']);

/**
 * Words of a model not served. OpenRouter's "No endpoints found for MODEL" names the model; its "No endpoints
 * found that can handle the requested parameters" (or "matching your data policy") is one request's refusal.
 */
const GONE_WORDS = /model\b.*\b(?:does not exist|not found|is not supported)|no endpoints found for |deployment.*(?:does not exist|not found)/i;

/** Whether `error` is a 404 saying the model (or its deployment) is not served. */
export function modelGone(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status !== 404) return false;
  const named = [error.code, error.type].some((word) => typeof word === 'string' && GONE_CODES.has(word.toLowerCase()));
  return named || GONE_WORDS.test(error.message);
}
