/**
 * The viewer's HTTP server: read-only, on loopback. It serves the page, its
 * script (browser/, bundled: report/browser-script.ts), the libraries
 * (Chart.js and KaTeX, from node_modules: the page needs no network) and a
 * small JSON API over the runs' stores. Every API answer is one
 * bounded page (queries.ts), so the server's memory does not grow with a run.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { UserError } from '../kernel/errors.ts';
import { listenError } from '../kernel/listen-error.ts';
import { packagePath } from '../kernel/package-root.ts';
import { chartLibraryFile } from '../report/chart-library.ts';
import { VIEWER_ENTRY } from '../report/browser-bundle.mjs';
import { browserScript } from '../report/browser-script.ts';
import { banksAfter, callPage, messagePage, problemDetail, problemPage, type ProblemFilter } from './queries.ts';
import { downloadOf, sendDownload } from './downloads.ts';
import { runSummary } from './run-summary.ts';
import { forkParent } from './fork-link.ts';
import { heldBack } from './held-texts.ts';
import { nameCall, outlineOf, transcriptAt } from './transcript.ts';
import { viewerPage } from './page.ts';
import type { RunCatalog } from './run-catalog.ts';
import { answerFolder } from './folder-api.ts';
import { problemOrdinal } from './problem-key.ts';
import type { ViewedRun } from './viewed-run.ts';

/** A listening viewer. */
export interface ViewerServer {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/** Hosts a loopback page may be reached by; anything else is refused (a DNS-rebinding page cannot read a run). */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

class NotFound extends Error {}

/** A request the viewer cannot read (an address with a malformed %-escape): 400, saying what to fix. */
class BadRequest extends Error {}

/** A path segment %-decoded; a malformed escape (`%E0`, a lone `%`) is the request's fault, not the server's. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new BadRequest(`the address holds a malformed %-escape: '${segment}' (write a '%' in an id as %25)`);
  }
}

/** The page's style sheets, served as they are. */
const BROWSER_DIR = packagePath('src/viewer/browser');

function katexDir(): string {
  return path.dirname(createRequire(import.meta.url).resolve('katex'));
}

function sendJson(response: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(body);
}

function sendScript(response: ServerResponse, script: string): void {
  response.writeHead(200, { 'content-type': TYPES['.js'] ?? 'text/javascript', 'content-length': Buffer.byteLength(script), 'cache-control': 'max-age=3600' });
  response.end(script);
}

async function sendFile(response: ServerResponse, file: string): Promise<void> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw new NotFound(file);
  response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-length': info.size, 'cache-control': 'max-age=3600' });
  // pipeline, not pipe: a client that goes away mid-file (a reload while the page loads) closes the file too, else its descriptor stays open for good.
  await pipeline(createReadStream(file), response);
}

function integerParam(params: URLSearchParams, name: string): number | undefined {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  const value = Number(raw);
  return Number.isInteger(value) ? value : undefined;
}

function textParam(params: URLSearchParams, name: string): string | undefined {
  const raw = params.get(name);
  return raw === null || raw === '' ? undefined : raw;
}

/** `problems/P`, `problems/P/transcript/T`, `problems/P/banks/T`: P is the problem's id, or its input position (problem-key.ts). */
async function answerProblem(run: ViewedRun, parts: string[]): Promise<unknown> {
  const ordinal = await problemOrdinal(run.store, parts[2] ?? '');
  if (ordinal === undefined) throw new NotFound(parts.join('/'));
  if (parts.length === 3) {
    const detail = await problemDetail(run.store, ordinal);
    if (!detail) throw new NotFound(parts.join('/'));
    return detail;
  }
  if (parts[3] === 'transcript' && parts.length === 5) {
    const transcript = await transcriptAt(run, ordinal, Number(parts[4]));
    if (!transcript) throw new NotFound(parts.join('/'));
    // The page fetches a call's texts when it is opened: an iteration's whole was megabytes.
    return heldBack(transcript);
  }
  if (parts[3] === 'banks' && parts.length === 5) {
    return (await banksAfter(run.store, ordinal, Number(parts[4]))) ?? { experience: [], guidelines: [] };
  }
  throw new NotFound(parts.join('/'));
}

async function answerApi(catalog: RunCatalog, parts: string[], params: URLSearchParams): Promise<unknown> {
  const index = Number(parts[0]);
  if (!Number.isInteger(index) || index < 0 || index >= catalog.size) throw new NotFound(parts.join('/'));
  const run = await catalog.run(index);
  if (parts.length === 1) return runSummary(run, index, await forkParent(catalog, index, run));
  const what = parts[1];
  const limit = Math.min(integerParam(params, 'limit') ?? 50, 500);
  if (what === 'curves') return { live: run.live(), iterations: await run.curves() };
  if (what === 'problems' && parts.length === 2) {
    const filter = (textParam(params, 'filter') ?? 'all') as ProblemFilter;
    return problemPage(run.store, { from: integerParam(params, 'from') ?? 0, limit, filter, search: textParam(params, 'search') ?? '' });
  }
  if (what === 'problems') return answerProblem(run, parts);
  if (what === 'calls') {
    const filters = { problem: textParam(params, 'problem'), iteration: integerParam(params, 'iteration'), role: textParam(params, 'role'), search: textParam(params, 'search') };
    const after = textParam(params, 'after');
    const page = await callPage(run.store, filters, { limit, ...(after === undefined ? {} : { after }) });
    const outline = outlineOf(run);
    return { ...page, calls: page.calls.map((call) => nameCall(outline, call)) };
  }
  if (what === 'messages') {
    const filters = { problem: textParam(params, 'problem'), iteration: integerParam(params, 'iteration'), type: textParam(params, 'type') };
    const after = textParam(params, 'after');
    return messagePage(run.store, filters, { limit, ...(after === undefined ? {} : { after }) });
  }
  throw new NotFound(parts.join('/'));
}

async function handle(catalog: RunCatalog, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!LOOPBACK_HOST.test(request.headers.host ?? '')) {
    response.writeHead(403, { 'content-type': 'text/plain' }).end('tmas view answers only on loopback');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('the viewer is read-only');
    return;
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  const route = url.pathname;
  if (route === '/') {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(viewerPage());
  } else if (route.startsWith('/download/')) {
    const [index, ...parts] = route.slice('/download/'.length).split('/').map(decodeSegment);
    if (!/^\d+$/.test(index ?? '') || Number(index) >= catalog.size) throw new NotFound(route);
    const download = await downloadOf(await catalog.run(Number(index)), parts, url.searchParams);
    if (!download) throw new NotFound(route);
    sendDownload(response, download);
  } else if (route === '/assets/viewer.js') {
    sendScript(response, await browserScript(VIEWER_ENTRY));
  } else if (/^\/assets\/(viewer|runs|compare)\.css$/.test(route)) {
    await sendFile(response, path.join(BROWSER_DIR, route.slice('/assets/'.length)));
  } else if (route === '/assets/chart.js') {
    await sendFile(response, chartLibraryFile());
  } else if (route.startsWith('/assets/katex/')) {
    const root = katexDir();
    const file = path.resolve(root, `.${decodeSegment(route.slice('/assets/katex'.length))}`);
    if (!file.startsWith(`${root}${path.sep}`)) throw new NotFound(route);
    await sendFile(response, file);
  } else if (route === '/api/runs' || route === '/api/overlay' || route === '/api/problem-list' || route === '/api/compare') {
    const answer = await answerFolder(catalog, route.slice('/api/'.length), url.searchParams);
    if (answer === undefined) throw new NotFound(`${route}?${url.searchParams}`);
    sendJson(response, answer);
  } else if (route.startsWith('/api/runs/')) {
    const parts = route.slice('/api/runs'.length).split('/').filter((part) => part !== '').map(decodeSegment);
    sendJson(response, await answerApi(catalog, parts, url.searchParams));
  } else {
    throw new NotFound(route);
  }
}

/** The status and text of a request that failed. */
function errorAnswer(error: unknown): [number, string] {
  if (error instanceof NotFound) return [404, `not found: ${error.message}`];
  if (error instanceof BadRequest) return [400, `bad request: ${error.message}`];
  // A run that cannot be read (a damaged store) is the user's to fix: its code and message, not a server error.
  if (error instanceof UserError) return [422, `${error.code}: ${error.message}`];
  return [500, `error: ${(error as Error).message}`];
}

/** Starts the viewer of the catalog's runs on `host:port` (port 0: any free one). */
export async function startViewer(catalog: RunCatalog, options: { port: number; host?: string; portFlag?: string }): Promise<ViewerServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((request, response) => {
    handle(catalog, request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const [status, text] = errorAnswer(error);
      response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(text);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(listenError(error, { host, port: options.port, portFlag: options.portFlag ?? '--port' })));
    server.listen(options.port, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
