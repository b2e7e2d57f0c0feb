/**
 * A base URL whose host name does not resolve. The start check said "Check
 * that the server is running", which is beside the point: no server was
 * reached, nor asked; the name is misspelt, or this machine's DNS does not
 * know it (a cluster's service name seen from outside the cluster, a hosted
 * API from a compute node that reaches the world only through its site's
 * proxy).
 */
import { causeWords } from './tls-trust.ts';

/** What to change when `error` says the host of `baseUrl` (given by `flag`) does not resolve; null for any other failure. */
export function unresolvedHostAdvice(error: unknown, baseUrl: string, flag: string): string | null {
  const words = causeWords(error);
  const code = /\b(ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL)\b/.exec(words)?.[1];
  if (code === undefined || !URL.canParse(baseUrl)) return null;
  const host = new URL(baseUrl).hostname;
  const why = code === 'EAI_AGAIN' ? `no DNS server answered for its host name ${host} (${code}), a failure that may pass` : `its host name ${host} does not resolve (${code})`;
  return (
    `${why}: check the host's spelling in ${flag}; a name known elsewhere (a cluster's service name, a host of another network) needs this machine to resolve it, ` +
    'and a compute node without outside DNS reaches a hosted API only through its site\'s proxy (HTTPS_PROXY)'
  );
}
