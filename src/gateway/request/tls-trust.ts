/**
 * What to do about an https endpoint whose TLS certificate Node refuses: a
 * self-signed one, one signed by a private or corporate authority (a TLS
 * proxy that re-signs every site), an expired one, or one for another host
 * name. The connection's failure said only "self-signed certificate" and to
 * check that the server runs, which it does: the fix is on the client's side
 * (the authority's certificate given to Node) or the certificate's.
 */

/** The codes of a certificate Node cannot trace to an authority it trusts. */
const UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** The code of the failure behind `error` (the client's connection error wraps Node's). */
function causeCode(error: unknown): string | null {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    const code = (at as NodeJS.ErrnoException).code;
    if (typeof code === 'string') return code;
  }
  return null;
}

/** What to change when `error` is a refused TLS certificate of `baseUrl`; null for any other failure. */
export function tlsAdvice(error: unknown, baseUrl: string): string | null {
  const code = causeCode(error);
  if (code === null) return null;
  const host = (() => {
    try {
      return new URL(baseUrl).hostname;
    } catch {
      return baseUrl;
    }
  })();
  if (UNTRUSTED.has(code)) {
    return (
      `its TLS certificate is signed by no authority Node trusts (${code}: self-signed, or signed by a private or a corporate proxy's authority). ` +
      'Give tmas the certificate of the authority that signed it (or the self-signed certificate itself), in a PEM file: ' +
      'NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the tmas command (Node reads it at start); or call the server over http:// if it serves it'
    );
  }
  if (code === 'CERT_HAS_EXPIRED') return `its TLS certificate has expired (${code}): renew the certificate on the server (or its proxy)`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `its TLS certificate is not for the host name ${host} (${code}): give the base URL with a host name the certificate names`;
  return null;
}

/** The words of every error in `error`'s chain of causes, joined. */
export function causeWords(error: unknown): string {
  const words: string[] = [];
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) words.push(at.message, String((at as NodeJS.ErrnoException).code ?? ''));
  return words.join(' ');
}

/**
 * What to change when `error` says the base URL's scheme is not the one its
 * server speaks; null for any other failure. An https URL of a server of
 * plain HTTP (vLLM, SGLang and llama.cpp serve http) failed with OpenSSL's
 * "ssl3_get_record:wrong version number" and the advice to check that the
 * server runs, which it did; an http URL of a TLS port is answered by nginx
 * with "The plain HTTP request was sent to HTTPS port" and by Go's servers
 * with "Client sent an HTTP request to an HTTPS server" (400s).
 */
export function schemeAdvice(error: unknown, baseUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return null;
  }
  const words = causeWords(error);
  // The scheme's default port is kept: a server of plain HTTP on port 443 is still on port 443.
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  const other = (scheme: string) => `${scheme}//${url.hostname}:${port}${url.pathname.replace(/\/$/, '')}`;
  if (url.protocol === 'https:' && /wrong version number|WRONG_VERSION_NUMBER|packet length too long/i.test(words)) {
    return `it answers in plain HTTP, not TLS (OpenSSL: wrong version number): give ${other('http:')} as the base URL`;
  }
  if (url.protocol === 'http:' && /plain HTTP request was sent to HTTPS port|sent an HTTP request to an HTTPS server/i.test(words)) {
    return `it speaks TLS on that port, and refused the plain HTTP request: give ${other('https:')} as the base URL`;
  }
  return null;
}
