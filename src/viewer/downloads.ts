/**
 * The viewer's JSON downloads: one call, one candidate's transcript, or a
 * whole problem (its iterations and every call about it). Each answers as an
 * attachment and is bounded: a problem's calls stop at MAX_DOWNLOAD_BYTES and
 * the file says where (`truncated.after`), so `tmas calls` can go on from there.
 */
import type { ServerResponse } from 'node:http';
import type { Problem } from '../input/problems.ts';
import type { CallRecord } from '../store/store.ts';
import { problemOrdinal } from './problem-key.ts';
import { problemCallsUnder, problemDetail } from './queries.ts';
import { nameCall, outlineOf, transcriptOf, type NamedCall } from './transcript.ts';
import type { ViewedRun } from './viewed-run.ts';

/** Most bytes of calls a problem's download holds (a reasoning model's 20 iterations can reach gigabytes). */
export const MAX_DOWNLOAD_BYTES = 32 * 2 ** 20;

/** A file to hand over. */
export interface Download {
  filename: string;
  body: string;
}

/** A name safe in a `content-disposition` header and on any file system. */
function safe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
}

function header(run: ViewedRun) {
  return { run: run.name, strategy: run.manifest.strategy, simulated: run.manifest.simulated };
}

function file(run: ViewedRun, name: string, value: unknown): Download {
  return { filename: `${safe(run.name)}-${safe(name)}.json`, body: `${JSON.stringify(value, null, 2)}\n` };
}

async function callDownload(run: ViewedRun, key: string): Promise<Download | null> {
  const call = await run.store.getCall(key);
  if (!call) return null;
  return file(run, `${call.problem}-t${call.iteration}-${call.role}-${call.index}`, { ...header(run), call: nameCall(outlineOf(run), call) });
}

async function candidateDownload(run: ViewedRun, ordinal: number, iteration: number, candidate: number): Promise<Download | null> {
  const detail = await problemDetail(run.store, ordinal);
  const record = detail?.iterations.find((r) => r.iteration === iteration);
  if (!detail || !record) return null;
  const transcript = await transcriptOf(run, detail.problem.id, iteration);
  const calls = transcript.candidates.find((c) => c.candidate === candidate)?.calls ?? [];
  const result = record.candidates.find((c) => c.candidate === candidate) ?? null;
  if (result === null && calls.length === 0) return null;
  return file(run, `${detail.problem.id}-t${iteration}-candidate${candidate}`, { ...header(run), problem: detail.problem, iteration, candidate, result, calls, truncated: transcript.truncated });
}

/** Every call about a problem, in key order, until the byte budget. */
async function problemCalls(run: ViewedRun, problem: Problem): Promise<{ calls: NamedCall[]; truncated: { after: string } | null }> {
  const outline = outlineOf(run);
  const calls: NamedCall[] = [];
  let bytes = 0;
  for await (const call of problemCallsUnder(run.store, problem.id)) {
    bytes += JSON.stringify(call).length;
    if (bytes > MAX_DOWNLOAD_BYTES) return { calls, truncated: { after: lastKey(calls) } };
    calls.push(nameCall(outline, call));
  }
  return { calls, truncated: null };
}

function lastKey(calls: CallRecord[]): string {
  return calls.at(-1)?.key ?? '';
}

async function problemDownload(run: ViewedRun, ordinal: number): Promise<Download | null> {
  const detail = await problemDetail(run.store, ordinal);
  if (!detail) return null;
  const { calls, truncated } = await problemCalls(run, detail.problem);
  return file(run, detail.problem.id, { ...header(run), problem: detail.problem, iterations: detail.iterations, calls, truncated });
}

/**
 * The download a path names, or null when there is none: `call?key=K`,
 * `problem/P`, `problem/P/iteration/T/candidate/C` (after `/download/R/`), P
 * being the problem's id or its input position (problem-key.ts).
 */
export async function downloadOf(run: ViewedRun, parts: string[], params: URLSearchParams): Promise<Download | null> {
  const [what, problem, , iteration, , candidate] = parts;
  const number = (text: string | undefined) => (text !== undefined && /^\d+$/.test(text) ? Number(text) : null);
  if (what === 'call' && parts.length === 1) {
    const key = params.get('key');
    return key === null ? null : callDownload(run, key);
  }
  if (what !== 'problem' || problem === undefined) return null;
  const o = (await problemOrdinal(run.store, problem)) ?? null;
  if (o === null) return null;
  if (parts.length === 2) return problemDownload(run, o);
  const t = number(iteration);
  const c = number(candidate);
  if (parts.length === 6 && parts[2] === 'iteration' && parts[4] === 'candidate' && t !== null && c !== null) return candidateDownload(run, o, t, c);
  return null;
}

/** Answers with a download as an attachment. */
export function sendDownload(response: ServerResponse, download: Download): void {
  response.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="${download.filename}"`,
    'content-length': Buffer.byteLength(download.body),
    'cache-control': 'no-store',
  });
  response.end(download.body);
}
