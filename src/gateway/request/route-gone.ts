/**
 * A refusal of the chat route itself: a 404 that names no model (FastAPI's
 * `{"detail": "Not Found"}`, nginx's or an ingress's page `404 Not Found`)
 * or a 405 Method Not Allowed. The check at start found the endpoint's
 * model list; such an answer mid-run says its base URL no longer leads to
 * an OpenAI-compatible chat route (a proxy's or an ingress's route removed,
 * the port taken by another server after a restart), which refuses every
 * later call alike. Read as one call's refusal (TMAS_CALL_REJECTED), each
 * call of the run was sent and refused, every problem stopped, exit 3.
 * A 404 that names the model is model-gone.ts's, read before this.
 */
import { APIError } from 'openai';

/** The statuses of a route, not a request, refused. */
const ROUTE_STATUSES = new Set([404, 405]);

/** Whether `error` is a 404 or 405 to a completion: its route is not there. */
export function routeGone(error: unknown): boolean {
  return error instanceof APIError && error.status !== undefined && ROUTE_STATUSES.has(error.status);
}
