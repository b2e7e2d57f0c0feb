/**
 * A `fetch` for the `openai` client that bounds the body of an error answer.
 * The client reads a non-2xx body whole to build its error message; a proxy
 * or a broken server can answer an error with megabytes (an HTML page, a
 * dump) or never end it. Only the first 64 KB are kept, which is far more
 * than any message worth showing; successful bodies are bounded elsewhere
 * (reply-bounds.ts), by the completion limit.
 */

/** Bytes of an error body kept. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** The first `limit` bytes of a body, then its end; the rest is not read. */
function truncated(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let kept = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      const room = limit - kept;
      kept += value.byteLength;
      if (value.byteLength < room) return controller.enqueue(value);
      controller.enqueue(value.subarray(0, room));
      controller.close();
      await reader.cancel();
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** `fetch` whose non-2xx bodies stop after `limit` bytes. */
export async function fetchWithBoundedErrors(input: string | URL | Request, init?: RequestInit, limit = MAX_ERROR_BODY_BYTES): Promise<Response> {
  const response = await fetch(input, init);
  if (response.ok || response.body === null) return response;
  const headers = new Headers(response.headers);
  // The length changes with the cut; the client reads to the end either way.
  headers.delete('content-length');
  return new Response(truncated(response.body, limit), { status: response.status, statusText: response.statusText, headers });
}
