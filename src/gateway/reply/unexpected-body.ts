/**
 * A reply's body that is not what the request asks for: a proxy's or a
 * captive portal's web page under a 200, a server that is not the one meant.
 * Its failure shows its content type and its first characters, and says
 * what to check, where a parser's own words ("Unexpected token '<'") named
 * neither.
 */
import { ReplyError } from './reply-bounds.ts';

/** Characters of an unexpected body shown in its error. */
export const SHOWN_CHARS = 120;

/**
 * A web page in place of a reply (HTML, by its content type or its first
 * tag): a corporate proxy's sign-in page or a captive portal, which answers
 * every call alike until someone signs in. Retried like any damaged reply,
 * each call spent its retries on it (a run stopped only once 3 calls in a
 * row had, minutes later, as an endpoint down, advising to check the server
 * or lower --concurrency); it is retried once (a proxy's page may come once
 * between two answers), then stops the run (call.ts, run-stopping.ts).
 */
export class WebPageError extends ReplyError {
  constructor(message: string) {
    super('malformed', message);
    this.name = 'WebPageError';
  }
}

/** Whether `text` opens as a web page does: a doctype, or an html, head or body tag. */
export function opensAsWebPage(text: string): boolean {
  return /^\s*<(?:!doctype\s+html|html|head|body)\b/i.test(text);
}

/** Whether a body is a web page: labelled HTML, or opening as one (as error-body.ts reads an error's page). */
function isWebPage(headers: Headers, start: string): boolean {
  return /\bhtml\b/i.test(headers.get('content-type') ?? '') || opensAsWebPage(start);
}

/** The failure of a reply whose body is `what` ("that holds no event"), as its start (`start`) shows it. */
export function unexpectedBody(headers: Headers, start: string, what: string, request: 'a streamed request' | 'a request'): ReplyError {
  const shown = start.replace(/\s+/g, ' ').trim().slice(0, SHOWN_CHARS);
  const body = `${headers.get('content-type') ?? 'a body'} ${what}${shown === '' ? ' (an empty body)' : ` ("${shown}")`}`;
  const message = `the server answered ${request} with ${body}: check that the base URL reaches the server itself, not a proxy's or a login page`;
  return isWebPage(headers, start) ? new WebPageError(message) : new ReplyError('malformed', message);
}
