/**
 * A refusal that says the model asked for is not served: OpenAI's and Groq's
 * `model_not_found` ("The model `…` does not exist or you do not have access
 * to it"), Azure's `DeploymentNotFound`, OpenRouter's "No endpoints found
 * for …", Together's `model_not_available`, Fireworks' "Model not found",
 * Gemini's "models/… is not found", Anthropic's `not_found_error` naming
 * the model: 404s. Some say it with a 400: older vLLM ("The model `…` does
 * not exist."), DeepSeek ("Model Not Exist"), Mistral ("Invalid model: …",
 * `invalid_model`), OpenRouter ("… is not a valid model ID"), LiteLLM
 * ("Invalid model name passed in model=…"). The check at start found the
 * model listed; a model withdrawn, a deployment deleted, a replica reloaded
 * with another model mid-run, or an API whose list names models its
 * completions do not take, refuses every later call alike: read as one
 * call's refusal, each call of the run was sent and refused, exit 3.
 */
import { APIError } from 'openai';

/** The codes that name a model or deployment not found (Anthropic's `not_found_error` names any missing resource: its words must name the model). */
const GONE_CODES = new Set(['model_not_found', 'deploymentnotfound', 'model_not_available', 'invalid_model']);

/**
 * Words of a model not served, in a 400 as in a 404: none that a refusal of
 * one request's field or content says ("logprobs with this model is not
 * supported" is the request's fault, and a 400). The words stay within a
 * sentence, and a dot inside a name (`Qwen/Qwen2.5-7B-Instruct`,
 * `gpt-4.1`) ends none: only a dot before a space or the end does.
 */
const GONE_WORDS = /\bmodel\b(?:[^.]|\.(?=\S))*\bdoes not exist|\bmodel not exists?\b|\binvalid model\b|\bis not a valid model\b|\bno endpoints found for |^models\/\S+ is not found|deployment(?:[^.]|\.(?=\S))*(?:does not exist|not found)/i;

/** More words a 404 says it with: a 404 is about what the URL names, so a model "not found" or "not supported" there is the model's. */
const GONE_WORDS_404 = /model\b.*\b(?:not found|is not supported)|^model: \S+$/i;

/**
 * Words of a model listed but not served through chat completions, the only
 * API tmas calls: OpenAI's models of its Responses API alone (o1-pro,
 * o3-pro, codex-mini: "This model is only supported in v1/responses and not
 * in v1/chat/completions.") and its completion models ("This is not a chat
 * model and thus not supported in the v1/chat/completions endpoint"). The
 * model list names them, so the check at start passed, and every call was
 * refused alike: each problem stopped, exit 3.
 */
const NOT_CHAT_WORDS = /only supported in v1\/responses|\bnot a chat model\b|not supported in the v1\/chat\/completions endpoint/i;

/** Whether `error` is a 400 or 404 saying the model (or its deployment) is not served, or not served through chat completions (notChatModel). */
export function modelGone(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 404 && error.status !== 400)) return false;
  const named = [error.code, error.type].some((word) => typeof word === 'string' && GONE_CODES.has(word.toLowerCase()));
  const message = error.message.replace(/^\d{3} /, '');
  return named || GONE_WORDS.test(message) || (error.status === 404 && GONE_WORDS_404.test(message)) || notChatModel(error);
}

/** Whether `error` is a 400 or 404 saying the model is served, but not through chat completions. */
export function notChatModel(error: unknown): boolean {
  return error instanceof APIError && (error.status === 404 || error.status === 400) && NOT_CHAT_WORDS.test(error.message);
}
