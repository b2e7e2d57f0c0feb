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

/** The failure of a reply whose body is `what` ("that holds no event"), as its start (`start`) shows it. */
export function unexpectedBody(headers: Headers, start: string, what: string, request: 'a streamed request' | 'a request'): ReplyError {
  const shown = start.replace(/\s+/g, ' ').trim().slice(0, SHOWN_CHARS);
  const body = `${headers.get('content-type') ?? 'a body'} ${what}${shown === '' ? ' (an empty body)' : ` ("${shown}")`}`;
  return new ReplyError('malformed', `the server answered ${request} with ${body}: check that the base URL reaches the server itself, not a proxy's or a login page`);
}
