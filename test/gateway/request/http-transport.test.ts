/**
 * The gateway's HTTP transport (src/gateway/request/http-transport.ts), seen through
 * calls: connections kept across calls, given up when a reply will not end,
 * dropped on an abort; compressed replies and redirects handled as fetch
 * would. Each server here is a plain HTTP server of the test.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { brotliCompressSync, createDeflateRaw, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { checkEndpoints, resolveModel } from '../../../src/gateway/check.ts';
import { createGateway, type CompletionRequest, type Gateway, type GatewayOptions } from '../../../src/gateway/gateway.ts';
import { additionRequest, chatChunkEvent, chatCompletionBody } from '../../fixtures.ts';

interface TestServer {
  url: string;
  /** Connections that carried a completion request so far, and those of them still open. */
  connections: () => number;
  open: () => number;
  /** The path and body of every request, in order. */
  requests: { path: string; body: string }[];
  close: () => Promise<void>;
}

async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const sockets = new Set<Socket>();
  // The gateway's load reads (GET /metrics) go through a connection of their own.
  const calling = new Set<Socket>();
  const requests: TestServer['requests'] = [];
  const server = createServer((req, res) => {
    if (req.url?.endsWith('/metrics')) {
      res.writeHead(404).end();
      return;
    }
    calling.add(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      handler(req, res);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    connections: () => calling.size,
    // Connections that carried a call and are still open (a kept-alive load read's is not one).
    open: () => [...sockets].filter((socket) => calling.has(socket)).length,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Runs `body` with a test server answering by `handler` and a gateway made with `options`; closes both. */
async function withGateway(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  options: GatewayOptions,
  body: (gateway: Gateway, server: TestServer) => Promise<void>,
): Promise<void> {
  const server = await serve(handler);
  const gateway = createGateway(options);
  try {
    await body(gateway, server);
  } finally {
    gateway.close();
    await server.close();
  }
}

const call = (url: string, seed = 1): CompletionRequest => additionRequest(url, seed);

/** A streamed reply of `text` in two chunks, then `[DONE]`. */
function streamReply(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(chatChunkEvent({ role: 'assistant', content: text.slice(0, 2) }));
  res.write(chatChunkEvent({ content: text.slice(2) }, 'stop'));
  res.write('data: [DONE]\n\n');
}

async function until(condition: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('connections', () => {
  test('streamed calls one after another reuse their connections', async () => {
    await withGateway((_req, res) => {
      streamReply(res, 'The answer is 2.');
      res.end();
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      for (let seed = 1; seed <= 20; seed++) {
        expect((await gateway.complete(call(server.url, seed))).content).toBe('The answer is 2.');
      }
      // Not always one: a call may start while the last reply's end is still being read off its connection.
      expect(server.connections()).toBeLessThan(5);
    });
  });

  test('a stream that goes on after [DONE] completes the call at once; its connection is dropped, not reused', async () => {
    await withGateway((_req, res) => {
      streamReply(res, 'The answer is 2.');
      // A broken server: the stream stays open and keeps sending comments.
      const beat = setInterval(() => res.write(`: ${'x'.repeat(4096)}\n\n`), 20);
      res.on('close', () => clearInterval(beat));
    }, { concurrency: 4, timeoutMs: 60_000, maxRetries: 0 }, async (gateway, server) => {
      expect((await gateway.complete(call(server.url, 1))).content).toBe('The answer is 2.');
      expect((await gateway.complete(call(server.url, 2))).content).toBe('The answer is 2.');
      // Each call needed a connection of its own, and neither is left open.
      expect(server.connections()).toBe(2);
      await until(() => server.open() === 0);
    });
  });

  test('an aborted call closes its connection while the reply streams', async () => {
    await withGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const beat = setInterval(() => res.write(chatChunkEvent({ content: 'more ' })), 20);
      res.on('close', () => clearInterval(beat));
    }, { concurrency: 4, timeoutMs: 60_000, maxRetries: 0 }, async (gateway, server) => {
      const controller = new AbortController();
      const calling = gateway.complete(call(server.url), { signal: controller.signal });
      await until(() => gateway.stats.streamedChars > 0);
      controller.abort(new Error('stopped by the test'));
      await expect(calling).rejects.toThrow('stopped by the test');
      await until(() => server.open() === 0);
    });
  });
});

describe('broken connections', () => {
  test.each([true, false])('a connection reset while the reply arrives is retried and counted as a reset (streamed: %s)', async (stream) => {
    let attempts = 0;
    await withGateway((_req, res) => {
      attempts++;
      if (attempts > 1) {
        if (stream) streamReply(res, 'Second time lucky: 2.');
        else res.writeHead(200, { 'content-type': 'application/json' });
        res.end(stream ? undefined : chatCompletionBody('Second time lucky: 2.'));
        return;
      }
      // Headers that promise a long body, a piece of it, then the socket goes.
      res.writeHead(200, { 'content-type': stream ? 'text/event-stream' : 'application/json', 'content-length': '100000' });
      res.write(stream ? chatChunkEvent({ role: 'assistant', content: 'Sec' }) : '{"id":"x",');
      setTimeout(() => res.socket?.destroy(), 20);
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 2, stream, backoff: { baseMs: 1, capMs: 5 } }, async (gateway, server) => {
      expect((await gateway.complete(call(server.url))).content).toBe('Second time lucky: 2.');
      expect(gateway.stats.retriesByCause).toEqual({ reset: 1 });
    });
  });

  test('a kept connection the server closes as it is reused is not a failed call, however many such are kept: the request goes out again on a new one', async () => {
    const served = new Map<unknown, number>();
    await withGateway((req, res) => {
      const count = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, count);
      // Every connection answers once; the next request on it finds it closed, as after a server's keep-alive timeout.
      if (count > 1) {
        req.socket.destroy();
        return;
      }
      streamReply(res, 'Fresh connection: 2.');
      res.end();
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      // Four calls at once leave four kept connections, each of which fails when it is next used.
      const together = await Promise.all([1, 2, 3, 4].map((seed) => gateway.complete(call(server.url, seed))));
      expect(together.map((reply) => reply.content)).toEqual(Array(4).fill('Fresh connection: 2.'));
      for (let seed = 5; seed <= 9; seed++) expect((await gateway.complete(call(server.url, seed))).content).toBe('Fresh connection: 2.');
      expect(gateway.stats.retries).toBe(0);
    });
  });
});

describe('the endpoint check', () => {
  test('a model list whose body stalls fails the check at its timeout, saying so', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"object":"list","data":[');
    });
    try {
      const checking = checkEndpoints([{ endpoint: { baseUrl: server.url, model: 'tmas-sim', apiKey: 'k' }, flag: '--base-url' }], { timeoutMs: 500 });
      await expect(checking).rejects.toThrow('no whole answer to GET /models within 0.5 s');
    } finally {
      await server.close();
    }
  });

  test('a model list that never ends, plain or gzipped, fails the check once past 32 MiB, saying so, not at its timeout', async () => {
    // As fast as the client reads, for ever: before, only the timeout ended it, with all it had read held in memory.
    const entries = Buffer.from('{"id":"m","object":"model","owned_by":"x"},'.repeat(2000));
    const zipped = gzipSync(entries);
    const server = await serve((req, res) => {
      const gzip = req.url?.startsWith('/gzip/') === true;
      res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      if (gzip) res.write(gzipSync('{"object":"list","data":['));
      else res.write('{"object":"list","data":[');
      const more = () => {
        // A gzip member after another decodes as their concatenation.
        while (!res.destroyed && res.write(gzip ? zipped : entries));
        if (!res.destroyed) res.once('drain', more);
      };
      more();
    });
    const root = server.url.replace(/\/v1$/, '');
    try {
      for (const where of ['plain', 'gzip']) {
        const checking = checkEndpoints([{ endpoint: { baseUrl: `${root}/${where}/v1`, model: 'm', apiKey: 'k' }, flag: '--base-url' }], { timeoutMs: 60_000 });
        await expect(checking).rejects.toMatchObject({
          code: 'TMAS_ENDPOINT',
          message: `The endpoint ${root}/${where}/v1 (from --base-url) answered GET /models with a body of more than 32 MiB that is not a list of models. Check that --base-url is the server's OpenAI-compatible base URL (ending in /v1).`,
        });
      }
    } finally {
      await server.close();
    }
  });

  test("a model a hosted API's long list does not hold is refused naming those like it first, and how many more, not all 402", async () => {
    const ids = [...Array.from({ length: 400 }, (_, i) => `vendor${i}/model-${i}-instruct`), 'deepseek/deepseek-r1', 'DeepSeek/DeepSeek-R1-Distill-Qwen-32B'];
    const server = await serve((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: ids.map((id) => ({ id, object: 'model', owned_by: 'x' })) })));
    try {
      const listed = (await checkEndpoints([{ endpoint: { baseUrl: server.url, model: 'deepseek-r1', apiKey: 'k' }, flag: '--base-url' }])).get(server.url);
      const refusal = (() => {
        try {
          return resolveModel('deepseek-r1', listed, '--model-name', server.url);
        } catch (error) {
          return error as Error;
        }
      })();
      expect(refusal).toMatchObject({ code: 'TMAS_MODEL_NOT_SERVED' });
      const { message } = refusal as Error;
      expect(message).toContain('it serves 402 models (GET /models lists them), those named like it first: deepseek/deepseek-r1, DeepSeek/DeepSeek-R1-Distill-Qwen-32B, vendor0/model-0-instruct, ');
      expect(message).toContain('vendor9/model-9-instruct, and 390 more. Give one of these with --model-name');
      expect(message.length).toBeLessThan(800);
    } finally {
      await server.close();
    }
  });

  // Before: the first model listed was evaluated, whichever it was (OpenAI lists dozens, an embedding model among them).
  test('a list of several models with no model named is refused, naming them; names of one root are one model (vLLM --served-model-name a b)', async () => {
    const lists: Record<string, object[]> = {
      '/hosted/v1/models': [{ id: 'text-embedding-3-small' }, { id: 'gpt-4.1' }, { id: 'o3' }],
      '/lora/v1/models': [{ id: 'Qwen/Qwen3-8B', root: 'Qwen/Qwen3-8B' }, { id: 'math-lora', root: '/adapters/math', parent: 'Qwen/Qwen3-8B' }],
      '/names/v1/models': [{ id: 'qwen3', root: '/models/Qwen3-8B' }, { id: 'Qwen/Qwen3-8B', root: '/models/Qwen3-8B' }],
      // A proxy listing its model once per deployment behind it (no root): one model.
      '/deployments/v1/models': [{ id: 'qwen3-8b', owned_by: 'openai' }, { id: 'qwen3-8b', owned_by: 'openai' }],
      '/aliases/v1/models': [{ id: 'qwen3-8b' }, { id: 'qwen3-8b' }, { id: 'llama-3' }],
    };
    const server = await serve((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: lists[req.url ?? ''] ?? [] })));
    const root = server.url.replace(/\/v1$/, '');
    const resolved = async (where: string) => {
      const url = `${root}/${where}/v1`;
      const listed = (await checkEndpoints([{ endpoint: { baseUrl: url, model: '', apiKey: 'k' }, flag: '--base-url' }])).get(url);
      return resolveModel('', listed, '--model-name', url);
    };
    try {
      await expect(resolved('hosted')).rejects.toMatchObject({ code: 'TMAS_USAGE', message: `The endpoint ${root}/hosted/v1 serves several models, and no --model-name names the one to evaluate: it serves: text-embedding-3-small, gpt-4.1, o3. Give it with --model-name (the run would have taken the first listed, text-embedding-3-small, whichever that is).` });
      await expect(resolved('lora')).rejects.toMatchObject({ code: 'TMAS_USAGE' });
      expect(await resolved('names')).toBe('qwen3');
      expect(await resolved('deployments')).toBe('qwen3-8b');
      await expect(resolved('aliases')).rejects.toMatchObject({ message: expect.stringContaining('it serves: qwen3-8b, llama-3. Give it with --model-name') });
    } finally {
      await server.close();
    }
  });

  test('a server that lists no model (or entries without an id) takes the model named as it is, and asks for one when none is; a web page for a list is not an endpoint', async () => {
    const lists: Record<string, { type: string; body: string }> = {
      '/empty/v1/models': { type: 'application/json', body: '{"object":"list","data":[]}' },
      '/noids/v1/models': { type: 'application/json', body: '{"object":"list","data":[{"object":"model"},{"id":""}]}' },
      '/page/v1/models': { type: 'text/html', body: '<html><body>Welcome to the inference UI</body></html>' },
    };
    const server = await serve((req, res) => {
      const list = lists[req.url ?? ''];
      res.writeHead(list === undefined ? 404 : 200, { 'content-type': list?.type ?? 'text/plain' }).end(list?.body ?? '');
    });
    const root = server.url.replace(/\/v1$/, '');
    const check = (where: string) => checkEndpoints([{ endpoint: { baseUrl: `${root}/${where}/v1`, model: '', apiKey: 'k' }, flag: '--base-url' }]);
    try {
      for (const where of ['empty', 'noids']) {
        const listed = (await check(where)).get(`${root}/${where}/v1`);
        expect(listed).toEqual([]);
        expect(resolveModel('my-model', listed, '--model-name', `${root}/${where}/v1`)).toBe('my-model');
        expect(() => resolveModel('', listed, '--model-name', `${root}/${where}/v1`)).toThrow(`The endpoint ${root}/${where}/v1 lists no model at GET /models: name the model to call with --model-name.`);
      }
      await expect(check('page')).rejects.toMatchObject({
        code: 'TMAS_ENDPOINT',
        message: expect.stringContaining(`The endpoint ${root}/page/v1 (from --base-url) answered GET /models with text/html that is not a list of models ("<html><body>Welcome`),
      });
    } finally {
      await server.close();
    }
  });
});

describe('what fetch would do', () => {
  test('a gzip-compressed whole reply is decoded', async () => {
    await withGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(chatCompletionBody('Compressed, and still 2.')));
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0, stream: false }, async (gateway, server) => {
      expect((await gateway.complete(call(server.url))).content).toBe('Compressed, and still 2.');
    });
  });

  // Asked for no coding (no Accept-Encoding), a server or proxy may send any. Before, a raw deflate body (no zlib header, as
  // Python's zlib.compressobj with negative window bits writes it) failed every attempt as 'the connection broke while the
  // reply arrived (incorrect header check)', and two codings in one header were not undone at all.
  test.for([
    ['deflate as a zlib stream', 'deflate', deflateSync],
    ['deflate as raw data', 'deflate', deflateRawSync],
    ['br', 'br', brotliCompressSync],
    ['gzip, then br', 'gzip, br', (bytes: Buffer) => brotliCompressSync(gzipSync(bytes))],
  ] as const)('a streamed reply in the content coding %s is decoded', async ([, coding, encode]) => {
    const events = `${chatChunkEvent({ role: 'assistant', content: 'Coded, ' })}${chatChunkEvent({ content: 'still 2.' }, 'stop')}data: [DONE]\n\n`;
    await withGateway((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': coding }).end(encode(Buffer.from(events)));
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      expect(await gateway.complete(call(server.url))).toMatchObject({ content: 'Coded, still 2.', finishReason: 'stop', attempts: 1 });
    });
  });

  test('a raw deflate stream flushed an event at a time is read as it comes; a coding tmas cannot undo fails saying so', async () => {
    await withGateway((req, res) => {
      if (req.url?.startsWith('/compress/') === true) return void res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'compress' }).end('\x1f\x9d garbled');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'deflate' });
      const deflate = createDeflateRaw();
      deflate.pipe(res);
      const events = [chatChunkEvent({ role: 'assistant', content: 'Flushed, ' }), chatChunkEvent({ content: 'still 2.' }, 'stop'), 'data: [DONE]\n\n'];
      const next = () => {
        const event = events.shift();
        if (event === undefined) return void deflate.end();
        deflate.write(event);
        deflate.flush(() => setTimeout(next, 5));
      };
      next();
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      expect(await gateway.complete(call(server.url))).toMatchObject({ content: 'Flushed, still 2.', finishReason: 'stop', attempts: 1 });
      const failure = gateway.complete(call(server.url.replace('/v1', '/compress/v1')));
      await expect(failure).rejects.toThrow(/content coding "compress", which tmas cannot decode/);
    });
  });

  test('a compressed error page far over 64 KB fails the call with its status; the connection is dropped, nothing else breaks', async () => {
    const page = Buffer.from(Array.from({ length: 40_000 }, (_, i) => `<p>bad gateway ${i}</p>\n`).join(''));
    await withGateway((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
      const compressed = gzipSync(page);
      // In pieces, so that the reader stops while more is still coming.
      let at = 0;
      const next = () => {
        if (res.destroyed) return;
        if (at >= compressed.length) return void res.end();
        res.write(compressed.subarray(at, (at += 16_384)));
        setTimeout(next, 5);
      };
      next();
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      await expect(gateway.complete(call(server.url))).rejects.toThrow(/502/);
      // An error raised on the dropped connection's decoder would surface here as an unhandled error.
      await until(() => server.open() === 0);
    });
  });

  test('a 307 redirect is followed with the same body', async () => {
    await withGateway((req, res) => {
      if (!req.url?.startsWith('/moved')) {
        res.writeHead(307, { location: `/moved${req.url}` }).end();
        return;
      }
      streamReply(res, 'Found it: 2.');
      res.end();
    }, { concurrency: 4, timeoutMs: 5000, maxRetries: 0 }, async (gateway, server) => {
      expect((await gateway.complete(call(server.url))).content).toBe('Found it: 2.');
      const [first, second] = server.requests;
      expect(second?.path).toBe('/moved/v1/chat/completions');
      expect(second?.body).toBe(first?.body);
      expect(JSON.parse(second?.body ?? '{}')).toMatchObject({ model: 'tmas-sim', seed: 1 });
    });
  });
});
