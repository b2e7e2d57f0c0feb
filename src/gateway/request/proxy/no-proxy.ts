/**
 * Whether `NO_PROXY` (or `no_proxy`) leaves an endpoint out of the proxy, as
 * curl reads it: a comma-separated list (spaces allowed) of
 * - `*`: no host goes through the proxy;
 * - a host name, which matches itself and every name under it
 *   (`example.com` matches `api.example.com`, not `myexample.com`); a
 *   leading `.` or `*.` means the same (`.example.com`);
 * - an IP address (IPv6 with or without its brackets), or a network in CIDR
 *   notation (`10.0.0.0/8`, `fd00::/8`), matched against an endpoint given by
 *   its address: names are not resolved, as curl does not resolve them;
 * - any of these with `:PORT`, which then matches that port only.
 * Case does not matter. `localhost` and `127.0.0.1` are names like any other:
 * curl and Python's requests send them through the proxy unless NO_PROXY
 * names them, and so does tmas (docs/guide/real-servers.md says why).
 */
import { BlockList, isIP } from 'node:net';

/** The host of `url` as NO_PROXY compares it: lower case, an IPv6 address without its brackets, no trailing dot. */
function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
}

/** The port `url` is called on: its own, else its scheme's. */
export function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** One entry of the list: what it names, and the port it is limited to (null: any). */
interface Entry {
  name: string;
  port: number | null;
}

/** An entry split into its name and port: `host:8000`, `[::1]:8000`; a bare IPv6 address (`::1`) has no port. */
function entryOf(text: string): Entry {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed !== null) return { name: bracketed[1] as string, port: bracketed[2] === undefined ? null : Number(bracketed[2]) };
  const withPort = /^([^:]+):(\d+)$/.exec(text);
  if (withPort !== null) return { name: withPort[1] as string, port: Number(withPort[2]) };
  return { name: text, port: null };
}

/** Whether the network `cidr` (`10.0.0.0/8`) holds the address `host`; false when either is not one. */
function inNetwork(host: string, cidr: string): boolean {
  const [address, bits] = cidr.split('/') as [string, string];
  const family = isIP(address);
  const prefix = Number(bits);
  if (family === 0 || isIP(host) !== family || !/^\d+$/.test(bits) || prefix > (family === 4 ? 32 : 128)) return false;
  const list = new BlockList();
  list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  return list.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Whether one entry's name matches `host`. */
function nameMatches(host: string, name: string): boolean {
  if (name.includes('/')) return inNetwork(host, name);
  const domain = name.replace(/^\*?\./, '');
  if (domain === '') return false;
  // An address matches itself alone: `1.2.3` is no domain of 10.1.2.3.
  return host === domain || (isIP(domain) === 0 && isIP(host) === 0 && host.endsWith(`.${domain}`));
}

/** Whether `noProxy` (the variable's value) leaves `url` out of the proxy. */
export function bypassesProxy(url: URL, noProxy: string): boolean {
  const entries = noProxy
    .toLowerCase()
    .split(/[\s,]+/)
    .filter((entry) => entry !== '');
  if (entries.includes('*')) return true;
  const host = hostOf(url);
  const port = portOf(url);
  return entries.some((text) => {
    const entry = entryOf(text.replace(/\.$/, ''));
    return (entry.port === null || entry.port === port) && nameMatches(host, entry.name.replace(/\.$/, ''));
  });
}
