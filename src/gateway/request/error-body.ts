/**
 * An error answer's body in the shape the `openai` client reads its message
 * from, `{"error": {"message": …}}`, whatever shape the server used: SGLang
 * and older vLLM send `{"object": "error", "message": …, "code": 400}`,
 * FastAPI servers `{"detail": …}`, text-generation-inference
 * `{"error": "…"}`, Google's APIs a list of one such body. The client keeps only a body's `error` field, so those
 * became "400 status code (no body)", and a context-length error there went
 * unrecognised (retry.ts), which is what makes a call shrink its prompt.
 * A proxy's web page (nginx's, a load balancer's, Cloudflare's 502 of
 * kilobytes of styles and scripts) is its visible words: its markup filled
 * the message, and the words that say what happened were past its cut.
 */
import { opensAsWebPage } from '../reply/unexpected-body.ts';

/** What a message made of a web page's words starts with. */
export const WEB_PAGE = 'a web page: ';

/** Characters of a web page's words kept. */
const PAGE_WORDS = 200;

/** `text` with its message moved under `error`, or `text` as it is when it is already so, or not JSON, or names no message. */
export function openAiErrorBody(text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const words = pageWords(text);
    return words === null ? text : JSON.stringify({ error: { message: `${WEB_PAGE}${words}` } });
  }
  // Google's APIs (Gemini's OpenAI-compatible endpoint) send the error as a list of one: `[{"error": {…}}]`.
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'object' && value[0] !== null) return openAiErrorBody(JSON.stringify(value[0]));
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const body = value as Record<string, unknown>;
  if (typeof body['error'] === 'object' && body['error'] !== null) return text;
  const message = typeof body['error'] === 'string' ? body['error'] : (messageText(body['message']) ?? detailText(body['detail']));
  return message === null ? text : JSON.stringify({ error: { ...body, message } });
}

/**
 * A body's `message` as text: itself, or, as Mistral's API writes a refused
 * field (`{"object": "error", "message": {"detail": [{"type":
 * "extra_forbidden", "loc": ["body", "seed"], …}]}}`), the validation errors
 * it holds, or any other object as its JSON. Before, an object there was
 * dropped: "422 status code (no body)", and the field it named went unread,
 * so every call was refused alike.
 */
function messageText(message: unknown): string | null {
  if (typeof message === 'string') return message;
  if (typeof message !== 'object' || message === null) return null;
  return detailText((message as { detail?: unknown }).detail) ?? JSON.stringify(message).slice(0, 1000);
}

/**
 * FastAPI's `detail`: a message, or a list of validation errors each with
 * its `msg` and the field it is about (`loc`, as `body.max_tokens`): "Field
 * required" alone did not say which field to fix.
 */
function detailText(detail: unknown): string | null {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return null;
  const messages = detail.flatMap((item) => {
    const { msg, loc } = (item ?? {}) as { msg?: unknown; loc?: unknown };
    if (typeof msg !== 'string') return [];
    return Array.isArray(loc) && loc.length > 0 ? [`${msg} (${loc.join('.')})`] : [msg];
  });
  return messages.length > 0 ? messages.join('; ') : null;
}

/**
 * A web page's visible words (its head, scripts and styles left out, tags
 * taken off), or its title when it shows none; null when `text` is no web
 * page, or one without words. Read in passes that each scan the page once:
 * it is a stranger's, up to 64 KB (a pattern that scanned to the end from
 * each '<' took 7 s on 64,000 of them).
 */
function pageWords(text: string): string | null {
  if (!opensAsWebPage(text)) return null;
  const lower = text.toLowerCase();
  const titleAt = lower.indexOf('<title');
  const title = titleAt < 0 ? '' : visible(text.slice(text.indexOf('>', titleAt) + 1, Math.max(titleAt, lower.indexOf('</title', titleAt))));
  let shown = '';
  let at = 0;
  for (;;) {
    const hidden = nextHidden(text, lower, at);
    shown += `${text.slice(at, hidden?.start ?? text.length)} `;
    if (hidden === null) break;
    at = hidden.end;
  }
  const words = visible(shown) || title;
  return words === '' ? null : words.slice(0, PAGE_WORDS);
}

/** Where the next element whose text is not shown (head, script, style) starts and ends after `from`; null when none. One pass over the page in all. */
function nextHidden(text: string, lower: string, from: number): { start: number; end: number } | null {
  const opening = /<(head|script|style)\b/gi;
  opening.lastIndex = from;
  const found = opening.exec(text);
  if (found === null) return null;
  const close = lower.indexOf(`</${(found[1] ?? '').toLowerCase()}`, found.index);
  const end = close < 0 ? lower.length : lower.indexOf('>', close) + 1 || lower.length;
  return { start: found.index, end };
}

/** Markup's text: tags taken off, the common entities read, spaces collapsed. */
function visible(markup: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', nbsp: ' ', '#39': "'" };
  return markup
    .replace(/<[^<>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|nbsp|#39);/g, (_, name: string) => entities[name] ?? '')
    .replace(/\s+/g, ' ')
    .trim();
}

