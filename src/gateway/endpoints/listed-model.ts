/**
 * Whether a model id an endpoint lists names the model a run asks for.
 * Google's Gemini API lists its models as `models/gemini-2.5-flash` in its
 * OpenAI-compatible `GET /models`, and its documentation (and its chat
 * route) takes `gemini-2.5-flash`: a run given the name its documentation
 * uses was refused at start as asking for a model not served.
 */

/** The prefix an API's resource names put before a model's own name. */
const RESOURCE_PREFIX = /^models\//;

/** Whether `listed` (an id of the endpoint's list) is the model `named`, with or without a `models/` prefix on either. */
export function namesModel(listed: string, named: string): boolean {
  return listed === named || listed.replace(RESOURCE_PREFIX, '') === named.replace(RESOURCE_PREFIX, '');
}
