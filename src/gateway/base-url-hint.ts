/**
 * The base URL an endpoint that answered `GET /models` with a 404 most likely
 * meant, for the message that refuses it: a route given as the base URL
 * (`…/v1/chat/completions`) is that URL less the route; a base URL without its
 * `/v1` (`http://localhost:8000`, as vLLM's address is often written) is
 * checked once with `/v1` added, and named when a model list answers there.
 * The user saw only "ending in /v1" and had to work out which URL that was.
 * An Azure OpenAI deployment's URL (`https://R.openai.azure.com/openai/
 * deployments/NAME`, as Azure's classic API is addressed, with an
 * `api-version` query tmas cannot send) is checked as the resource's v1 API,
 * `https://R.openai.azure.com/openai/v1`, which takes no `api-version`.
 */
import type OpenAI from 'openai';
import { listingBody, modelEntries } from './model-list.ts';

/** The path of an Azure OpenAI deployment, under which the classic API's routes lie. */
const AZURE_DEPLOYMENT = /^\/openai\/deployments\/[^/]+/;

/** Routes an OpenAI-compatible server answers under its base URL, which a user sometimes gives as the base URL itself. */
const ROUTE = /\/(?:chat\/completions|completions|models)\/?$/;

/** The base URL to suggest for `baseUrl`, or null when none is likelier; `listsModels` asks a base URL for its model list (one request). */
export async function likelyBaseUrl(baseUrl: string, listsModels: (base: string) => Promise<boolean>): Promise<string | null> {
  const url = new URL(baseUrl);
  const path = url.pathname.replace(/\/+$/, '');
  if (AZURE_DEPLOYMENT.test(path)) {
    const v1 = `${url.origin}/openai/v1`;
    return (await listsModels(v1)) ? v1 : null;
  }
  if (ROUTE.test(path)) return `${url.origin}${path.replace(ROUTE, '')}`;
  if (/\/v1$/.test(path)) return null;
  const withV1 = `${url.origin}${path}/v1`;
  return (await listsModels(withV1)) ? withV1 : null;
}

/** Whether `client`, made for another base URL, gets a model list there. */
export async function answersModelList(client: OpenAI, base: string, signal: AbortSignal): Promise<boolean> {
  try {
    const response = await client.withOptions({ baseURL: base }).models.list({ signal }).asResponse();
    return modelEntries(listingBody(await response.text())) !== null;
  } catch {
    return false;
  }
}
