/**
 * An endpoint that notes when the first chat completion reaches it and never
 * answers it: what `tmas run --resume` costs before its first new call, with
 * nothing of the model's time in the figure. It lists one model (the
 * start-up check) and answers 404 to everything else, as a server without
 * Prometheus metrics.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The endpoint: its URL, when the first call came, and its stop. */
export interface FirstCallServer {
  /** Base URL, e.g. `http://127.0.0.1:40123/v1`. */
  url: string;
  /** Resolves with performance.now() at the first POST /v1/chat/completions. */
  firstCall: Promise<number>;
  close(): Promise<void>;
}

/** Starts the endpoint on loopback; `model` is the model it lists. */
export async function startFirstCallServer(model: string): Promise<FirstCallServer> {
  let noteCall: (at: number) => void = () => {};
  const firstCall = new Promise<number>((resolve) => {
    noteCall = resolve;
  });
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/v1/models') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'bench' }] }));
      return;
    }
    if (request.method === 'POST' && request.url === '/v1/chat/completions') {
      noteCall(performance.now());
      request.resume(); // held open: the client is stopped once the first call is seen
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    firstCall,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
