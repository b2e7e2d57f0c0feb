/**
 * The page's reads of the viewer's JSON API (src/viewer/server.ts), typed by
 * the answers' shapes (src/viewer/api-shapes.ts).
 */
import type { RunSummary } from '../api-shapes.ts';

/** Query parameters; those null, undefined or empty are left out. */
export type Params = Record<string, string | number | boolean | null | undefined>;

/** GETs a JSON answer; an error answer's text becomes the error. */
export async function getJson<T>(url: string, params: Params = {}): Promise<T> {
  const query = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== null && value !== '')
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  const response = await fetch(url + (query.length ? `?${query.join('&')}` : ''));
  if (!response.ok) throw new Error(await response.text());
  return (await response.json()) as T;
}

/** `/api/runs<pathname>`: a run's answers (`/0`, `/0/curves`, `/0/problems/p1`…). */
export function api<T>(pathname: string, params?: Params): Promise<T> {
  return getJson<T>(`/api/runs${pathname}`, params);
}

/** `/api/<path>`: the answers about the runs together (`runs`, `overlay`, `problem-list`). */
export function folderApi<T>(path: string, params?: Params): Promise<T> {
  return getJson<T>(`/api/${path}`, params);
}

const runs: RunSummary[] = [];

/** A run's description, asked for when one of its pages is first shown: a folder of many runs opens none up front. */
export async function withRun(index: number): Promise<RunSummary> {
  const known = runs[index];
  if (known) return known;
  const summary = await api<RunSummary>(`/${index}`);
  runs[index] = summary;
  return summary;
}

/** A run's description once withRun has read it. */
export function knownRun(index: number): RunSummary | undefined {
  return runs[index];
}
