/**
 * The connections a transport keeps: Node's keep-alive agents for endpoints
 * called directly, and one agent per proxy and endpoint scheme for those
 * called through a proxy (proxy/proxy-agents.ts: a tunnel's connections go to its
 * endpoint, a forwarding proxy's to the proxy). LIFO: the connections used
 * most recently go first, so the idle ones close on the server's keep-alive
 * timeout.
 */
import http from 'node:http';
import https from 'node:https';
import type { ProxyRoute } from './proxy/proxy-env.ts';
import { proxyAgent, type ForwardingAgent, type TunnelAgent } from './proxy/proxy-agents.ts';

/** The agents of one transport. */
export interface TransportAgents {
  /** The agent of a request to `url` through `route` (null: directly); `fresh` for one that takes a connection of its own. */
  agentOf(url: URL, route: ProxyRoute | null, fresh: boolean): http.Agent | false;
  /** Closes every connection, those in use too. */
  close(): void;
}

/** New agents, with no connection yet. */
export function createTransportAgents(): TransportAgents {
  const direct = {
    'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
    'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
  };
  const proxied = new Map<string, TunnelAgent | ForwardingAgent>();
  return {
    agentOf(url, route, fresh) {
      // A fresh request (a resend) takes a connection of its own, not another kept one that may be closed as well.
      if (route === null) return fresh ? false : direct[url.protocol === 'https:' ? 'https:' : 'http:'];
      // An agent that keeps no connection opens one for each request: one such serves every resend, and is closed with the rest.
      const key = `${route.variable} ${route.proxy.href} ${url.protocol}${fresh ? ' fresh' : ''}`;
      const agent = proxied.get(key) ?? proxyAgent(route, url.protocol, !fresh);
      proxied.set(key, agent);
      return agent;
    },
    close() {
      direct['http:'].destroy();
      direct['https:'].destroy();
      for (const agent of proxied.values()) agent.destroy();
    },
  };
}
