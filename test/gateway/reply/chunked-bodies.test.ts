/**
 * Bodies read whole (a model list, a reply not streamed) that a server sends
 * in chunks of a few bytes each: read in memory of about their bytes, not an
 * object per chunk. Real servers on loopback, over real sockets.
 */
import type { ServerResponse } from 'node:http';
import { expect, test } from 'vitest';
import { checkEndpoints } from '../../../src/gateway/check.ts';
import { createGateway } from '../../../src/gateway/gateway.ts';
import { sortBody } from '../../../src/gateway/reply/json-reply.ts';
import { additionRequest, chatCompletionBody, serveHttp } from '../../fixtures.ts';

/** Writes `pieces` one chunk each, waiting for the socket when it is full; ends the body when `end`. */
function writeInPieces(res: ServerResponse, pieces: () => string | Uint8Array | null, end: boolean): void {
  const next = () => {
    for (let piece = pieces(); piece !== null; piece = pieces()) if (!res.write(piece)) return void res.once('drain', next);
    if (end) res.end();
  };
  next();
}

/**
 * Starts the answer on the raw socket and sends `count` chunks of `piece`, each
 * its own chunk of the chunked coding, framed here in blocks of a megabyte: the
 * client's parser still hands on one chunk per frame (what the tests measure),
 * while the server spends no write call on each (millions of res.write calls
 * were most of these tests' time).
 */
function sendFramedPieces(res: ServerResponse, contentType: string, head: string, piece: string, count: number): void {
  const socket = res.socket!;
  const frame = `${piece.length.toString(16)}\r\n${piece}\r\n`;
  const perBlock = Math.floor(2 ** 20 / frame.length);
  const block = Buffer.from(frame.repeat(perBlock));
  socket.write(`HTTP/1.1 200 OK\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n\r\n`);
  if (head) socket.write(`${head.length.toString(16)}\r\n${head}\r\n`);
  let left = Math.ceil(count / perBlock);
  const next = () => {
    while (left > 0 && !socket.destroyed) {
      left--;
      if (!socket.write(block)) return void socket.once('drain', next);
    }
  };
  next();
}

// Before: kept as the list of its chunks, a model list cut at its 32 MiB limit, sent 11 bytes a chunk, took 1.3 GB.
test('a model list past its 32 MiB limit, sent 11 bytes a chunk, is refused in memory of about its limit', async () => {
  const server = await serveHttp((_req, res) => {
    // 40 MiB at most: past the limit, then the server stops.
    sendFramedPieces(res, 'application/json', '{"data":[', '{"id":"m"},', 4_000_000);
  });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const refused = await checkEndpoints([{ endpoint: { baseUrl: server.url, model: '', apiKey: 'k' }, flag: '--base-url' }], { timeoutMs: 120_000 }).catch((error: unknown) => error as Error);
    expect(String(refused)).toContain('answered GET /models with a body of more than 32 MiB that is not a list of models');
    expect((peak - before) / 2 ** 20).toBeLessThan(400);
  } finally {
    clearInterval(sampler);
    await server.close();
  }
}, 180_000);

test('a whole reply sent a few bytes a chunk, its characters of several bytes cut between chunks, is read as sent', async () => {
  const answer = `The answer is \\boxed{2}: ${'é日本🙂 '.repeat(2000)}`;
  const body = chatCompletionBody(answer);
  const server = await serveHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const bytes = Buffer.from(body);
    let at = 0;
    writeInPieces(res, () => (at < bytes.length ? bytes.subarray(at, (at += 7)) : null), true);
  });
  const gateway = createGateway({ concurrency: 1, maxRetries: 0, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 60_000, stream: false });
  try {
    const reply = await gateway.complete(additionRequest(server.url, 1, 100_000));
    expect(reply.content).toBe(answer);
  } finally {
    gateway.close();
    await server.close();
  }
}, 60_000);

// Before: the white space before a streamed reply's first event was kept a chunk at a time, up to the reply's byte limit.
test('white space sent a byte a chunk before a stream\'s first event is held in memory of about its bytes, and cut at the reply\'s byte limit', async () => {
  const server = await serveHttp((_req, res) => {
    // 1.2 MB of spaces at most: past the limit of a call of 1 token (1 MiB and 1 KiB), where
    // the old list of chunks already took about 400 MB.
    sendFramedPieces(res, 'text/event-stream', '', ' ', 1_200_000);
  });
  const gateway = createGateway({ concurrency: 1, maxRetries: 0, backoff: { baseMs: 1, capMs: 5 }, timeoutMs: 120_000 });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const failed = await gateway.complete(additionRequest(server.url, 1, 1)).catch((error: unknown) => error as Error);
    expect(String(failed)).toMatch(/the reply exceeded \d+ bytes, more than its completion limit explains/);
    expect((peak - before) / 2 ** 20).toBeLessThan(150);
  } finally {
    clearInterval(sampler);
    gateway.close();
    await server.close();
  }
}, 180_000);

// Before: every streamed reply's first chunk was copied into a fresh buffer of 16 KiB, one per call, kept while the stream read it.
test('a body whose first chunk holds its first event is handed on as that chunk, not copied', async () => {
  const first = Buffer.from('data: {"choices":[]}\n\n');
  const second = Buffer.from('data: [DONE]\n\n');
  async function* body() {
    yield first;
    yield second;
  }
  const sorted = await sortBody(body());
  const read: Uint8Array[] = [];
  for await (const chunk of sorted.body) read.push(chunk);
  expect(sorted.json).toBe(false);
  expect(read[0]).toBe(first);
  expect(read[1]).toBe(second);
});

test('white space in chunks of its own before the first event is handed on with it, the bytes in order', async () => {
  async function* body() {
    yield Buffer.from(' ');
    yield Buffer.from('\n');
    yield Buffer.from('{"choices"');
    yield Buffer.from(':[]}');
  }
  const sorted = await sortBody(body());
  const read: Uint8Array[] = [];
  for await (const chunk of sorted.body) read.push(chunk);
  expect(sorted.json).toBe(true);
  expect(Buffer.concat(read).toString('utf8')).toBe(' \n{"choices":[]}');
});
