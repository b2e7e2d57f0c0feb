/**
 * A model list answered in pages: Anthropic's `GET /v1/models` (20 models
 * a page unless asked for more) and lists in OpenAI's cursor shape say
 * `"has_more": true` and the id to go on after (`last_id`). Read as its first
 * page alone, a `--model-name` on a later page was refused as not served
 * (TMAS_MODEL_NOT_SERVED), and a run without one evaluated the first page's
 * model as if the endpoint served no other.
 *
 * The next page is asked for with the cursor in both names servers take it
 * by (`after_id`, Anthropic's; `after`, OpenAI's cursor pages), each server
 * ignoring the other. Bounded: at most MAX_PAGES pages and MAX_LIST_CHARS
 * characters in all, within the one deadline of the whole listing; a page
 * that brings no id not already read (a server or proxy that ignores the
 * cursor and answers its first page again) ends the reading there.
 */
import { setMaxListeners } from 'node:events';
import type OpenAI from 'openai';
import { listingBody, modelEntries } from './model-list.ts';

/** The most pages read of one list: 100 pages of Anthropic's most (1,000) are far more models than any API lists. */
export const MAX_PAGES = 100;

/** The most characters read over all pages, as the transport holds one list's body (32 MiB). */
const MAX_LIST_CHARS = 32 * 2 ** 20;

/** A page's body, and whether it says more pages follow and after which id. */
function nextCursor(body: unknown, entries: readonly unknown[]): string | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const page = body as { has_more?: unknown; last_id?: unknown };
  if (page.has_more !== true) return null;
  if (typeof page.last_id === 'string' && page.last_id !== '') return page.last_id;
  // A cursor page without its last_id: the last entry's id is where the next page starts.
  const last = entries.at(-1) as { id?: unknown } | undefined;
  return typeof last?.id === 'string' && last.id !== '' ? last.id : null;
}

/** The ids of `entries`, for telling a page that adds nothing. */
function idsOf(entries: readonly unknown[]): string[] {
  return entries.map((entry) => (entry as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string');
}

/** What reading the pages after the first gave: every entry read, and why the reading stopped short, when it did. */
export interface PagedEntries {
  entries: unknown[];
  /** Why pages said to follow were not read (a page past the bounds, one that repeated the first); absent when every page was. */
  cutShort?: string;
}

/**
 * The entries of a model list whose first page is `firstBody` (its
 * entries `firstEntries`), with those of the pages that follow it; a page
 * that fails throws as the first would, under the same `signal`.
 */
export async function followPages(client: OpenAI, firstBody: unknown, firstEntries: unknown[], signal: AbortSignal): Promise<PagedEntries> {
  const entries = [...firstEntries];
  const seen = new Set(idsOf(firstEntries));
  let cursor = nextCursor(firstBody, firstEntries);
  let chars = 0;
  // The client leaves a listener on the signal of each request it made: one per page, past Node's warning at 10.
  if (cursor !== null) setMaxListeners(MAX_PAGES + 10, signal);
  for (let page = 1; cursor !== null; page++) {
    if (page >= MAX_PAGES) return { entries, cutShort: `it says more models follow after ${MAX_PAGES} pages` };
    const response = await client.get('/models', { query: { after_id: cursor, after: cursor }, signal }).asResponse();
    const text = await response.text();
    chars += text.length;
    if (chars > MAX_LIST_CHARS) return { entries, cutShort: `its pages pass ${MAX_LIST_CHARS / 2 ** 20} MiB` };
    const body = listingBody(text);
    const more = modelEntries(body);
    if (more === null) return { entries, cutShort: `its page after "${cursor}" is not a list of models` };
    const fresh = more.filter((entry) => {
      const id = (entry as { id?: unknown } | null)?.id;
      return typeof id === 'string' && !seen.has(id);
    });
    if (fresh.length === 0) return { entries, cutShort: `its page after "${cursor}" lists no model it had not listed (the server does not page by after_id or after)` };
    for (const id of idsOf(fresh)) seen.add(id);
    entries.push(...fresh);
    cursor = nextCursor(body, more);
  }
  return { entries };
}
