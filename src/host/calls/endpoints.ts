/**
 * Getting the model endpoints ready before a run: start the embedded
 * simulated model when a role has no --base-url, check that every endpoint
 * answers, fill in model names from `/v1/models`, and tell whether the run is
 * simulated (also when the simulator runs as `tmas sim-server`).
 */
import { usesSimulator, type RunConfig, type Secrets } from '../../settings/config.ts';
import { defaultTokenizerWarning } from '../../settings/tokenizer-warning.ts';
import { checkEndpoints, resolveModel, SIMULATED_OWNER, type ListedModel } from '../../gateway/check.ts';
import { startWaitLine } from '../../gateway/server-start.ts';
import { callDirectly, loopbackAdvice, proxyRoute } from '../../gateway/request/proxy/proxy-env.ts';
import { applyListedWindows } from './listed-windows.ts';
import { createServerWindows, type ServerWindows } from './server-windows.ts';
import { endpointFor } from './call-key.ts';
import { keyOriginOf } from './api-keys.ts';
import type { Problem } from '../../input/problems.ts';
import { ENDPOINT_SLOTS, slotFlag, type EndpointSlot } from '../../kernel/slots.ts';
import { startSimServer, type SimServer } from '../../sim/server.ts';
import { SIM_ROLES } from '../../../machines/strategies/sim-roles.ts';

/** Stands in for the simulator's URL when none runs (offline replay): it is never contacted. */
export const OFFLINE_URL = 'http://offline.invalid/v1';

/** Endpoints ready for calls. */
export interface PreparedEndpoints {
  /** The embedded simulated model, when one was started; the caller closes it. */
  sim: SimServer | null;
  simulatorUrl: string;
  simulated: boolean;
  /** Replicas of a pool that did not answer GET /models at start: the gateway suspects them (Gateway.suspect). */
  unanswered: string[];
  /** The windows the servers list under the run's (listed-windows.ts), for the calls (llm-call.ts). */
  windows: ServerWindows;
}

/** Starts the embedded simulated model a run with no --base-url talks to, and says so. */
export async function startEmbeddedSim(config: RunConfig, problems: Problem[], say: (line: string) => void): Promise<SimServer> {
  const sim = await startSimServer({
    problems,
    roles: SIM_ROLES,
    seed: config.loop.seed,
    latency: config.sim.latencyMedianMs > 0 ? { medianMs: config.sim.latencyMedianMs, p99Ms: config.sim.latencyP99Ms } : 0,
    outputTokens: config.sim.outputTokens,
    breakFormats: config.sim.breakFormats,
    distillTokens: config.sim.distillTokens,
  });
  say(`tmas: no --base-url given: using the embedded simulated model at ${sim.url} (not a real LLM)`);
  // tmas's own simulator on this machine's loopback: a proxy the environment names elsewhere could not reach it.
  const direct = callDirectly(sim.url);
  const close = sim.close.bind(sim);
  sim.close = async () => {
    direct();
    await close();
  };
  return sim;
}

/**
 * Says which endpoints are called through a proxy, and which (from which
 * variable): a run on a machine whose environment sets HTTPS_PROXY goes
 * through it, and the user sees that before anything is called. A variable
 * that names no proxy URL refuses the run here (TMAS_PROXY).
 */
function tellProxies(endpoints: ReadonlyArray<{ endpoint: { baseUrl: string; replicas?: readonly string[] }; flag: string }>, say: (line: string) => void): void {
  const told = new Set<string>();
  for (const { endpoint, flag } of endpoints) {
    for (const url of endpoint.replicas ?? [endpoint.baseUrl]) {
      const route = URL.canParse(url) ? proxyRoute(new URL(url)) : null;
      if (route === null || told.has(url)) continue;
      told.add(url);
      say(`tmas: ${url} (from ${flag}) is called through the proxy ${route.shown} (from ${route.variable}); a host NO_PROXY names is called directly.${loopbackAdvice(url)}`);
    }
  }
}

/**
 * Prepares the endpoints of a run. Fills in `config.endpoints[*].model` where
 * it was left empty (a role without --model-name uses the model its
 * endpoint serves: vLLM and SGLang serve one; an endpoint that lists several
 * is refused, check.ts resolveModel). Offline (replay), nothing is
 * started or contacted and the models are the manifest's.
 */
export async function prepareEndpoints(
  config: RunConfig,
  secrets: Secrets,
  problems: Problem[],
  options: { offline: boolean; resume?: boolean; say: (line: string) => void; sim?: SimServer | null | undefined },
): Promise<PreparedEndpoints> {
  // A simulated model given (runs started together share one) is the caller's to close: only one started here is returned.
  const sim = usesSimulator(config) && !options.offline && !options.sim ? await startEmbeddedSim(config, problems, options.say) : null;
  const simulator = sim ?? options.sim ?? null;
  try {
    const deps = { config, secrets, simulatorUrl: simulator?.url ?? OFFLINE_URL };
    secrets.judge ??= secrets.solution;
    const windows = createServerWindows();
    if (options.offline) return { sim, simulatorUrl: deps.simulatorUrl, simulated: usesSimulator(config), unanswered: [], windows };
    const unanswered: string[] = [];

    const toCheck = ENDPOINT_SLOTS.map((role) => ({ endpoint: endpointFor(role, deps), flag: slotFlag(role, 'base-url'), modelFlag: slotFlag(role, 'model-name'), key: keyOriginOf(role, secrets[role]) }));
    tellProxies(toCheck, options.say);
    const listed: Map<string, ListedModel[]> = await checkEndpoints(
      toCheck,
      {
        waitMs: config.gateway.startWaitSeconds * 1000,
        onWait: (wait) => options.say(startWaitLine(wait)),
        onUnreachable: (url) => {
          unanswered.push(url);
          options.say(`tmas: warning: the replica ${url} does not answer GET /v1/models; it takes one trial call at a time until one succeeds, and is drained if it fails.`);
        },
        onUnlisted: (url, model, why) => options.say(`tmas: warning: ${url} ${why} but completes "${model}": the run calls that model as named, unchecked.`),
        onPagesCutShort: (url, reason) => options.say(`tmas: warning: ${url} answers GET /models in pages, read only in part: ${reason}; the models of the pages read are those the run knows of (give the model with --model-name).`),
      },
    );
    /** What the answering endpoints (or replicas) of a role list. */
    const servedBy = (role: EndpointSlot) => {
      const endpoint = endpointFor(role, deps);
      return (endpoint.replicas ?? [endpoint.baseUrl]).flatMap((url) => {
        const models = listed.get(url);
        return models === undefined ? [] : [{ url, models }];
      });
    };
    for (const role of ENDPOINT_SLOTS) {
      // The embedded simulator answers to any model name it is given.
      if (config.roles.endpoints[role].baseUrl === null) continue;
      const flag = slotFlag(role, 'model-name');
      // Every replica must serve the model: a call may go to any of them.
      const given = config.roles.endpoints[role].model !== '';
      const replicas = servedBy(role);
      for (const { url, models } of replicas) config.roles.endpoints[role].model = resolveModel(config.roles.endpoints[role].model, models, flag, url, given ? null : (replicas[0]?.url ?? null));
    }
    const served = ENDPOINT_SLOTS.filter((role) => config.roles.endpoints[role].baseUrl !== null).map((slot) => ({ slot, endpoint: endpointFor(slot, deps), replicas: servedBy(slot) }));
    applyListedWindows(served, config.context.window, windows, { resume: options.resume === true, say: options.say });
    // Once every role's model is known: one named by the server (no --model-name) is warned about too.
    const tokenizerWarning = defaultTokenizerWarning(config);
    if (tokenizerWarning !== null) options.say(tokenizerWarning);
    // A `tmas sim-server` is simulated whatever its models are called: it says so in their owner field.
    const simulated =
      usesSimulator(config) ||
      ENDPOINT_SLOTS.every((role) => {
        const served = servedBy(role).flatMap(({ models }) => models);
        return served.length > 0 && served.every((model) => model.ownedBy === SIMULATED_OWNER);
      });
    return { sim, simulatorUrl: deps.simulatorUrl, simulated, unanswered, windows };
  } catch (error) {
    await sim?.close();
    throw error;
  }
}
