/**
 * Small HTTP helpers for the simulator: JSON replies, OpenAI-shaped errors and
 * a bounded request-body reader.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Largest request body accepted: a 1M-token prompt at 4 characters per token, with room to spare. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Sends a JSON body with its length, so keep-alive connections can be reused. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (res.destroyed || res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** The OpenAI error body. */
export function errorBody(message: string, type: string, code: string | null, param: string | null = null) {
  return { error: { message, type, param, code } };
}

/** Sends an OpenAI-shaped error. */
export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  options: { type?: string; code?: string | null; param?: string | null; headers?: OutgoingHttpHeaders } = {},
): void {
  sendJson(res, status, errorBody(message, options.type ?? 'invalid_request_error', options.code ?? null, options.param ?? null), options.headers);
}

/** The request body as text, or null when it exceeds `MAX_BODY_BYTES` (the rest is then discarded). */
export async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  return tooLarge ? null : Buffer.concat(chunks).toString('utf8');
}
