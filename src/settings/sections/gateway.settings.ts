/** Settings of the LLM gateway: how many calls are in flight, their time limits, retries, and where calls wait. */
import { DEFAULT_BACKOFF, DEFAULT_LOAD_POLL_MS, type BatchCap, type DispatchOrder, type Routing, type ServerQueue } from '../../gateway/gateway.ts';
import type { GatewayConfig } from '../config.ts';
import { DEFAULT_PARSE_RETRIES } from '../../../machines/role.machine.ts';
import { decimal, integer } from '../parsers.ts';
import { DEMO } from './run.settings.ts';
import { field } from '../field.ts';
import { setting } from '../setting.ts';

/**
 * The default of `--concurrency`: enough to fill two GPUs' batches (one H200
 * runs about 260 thinking-length sequences). It is only an upper bound: each
 * server gets about what it is running (gateway/load/load-limit.ts), so a high cap
 * costs nothing, while a low one starves the GPU (64 measured 1.39x the
 * bound on the capacity model, against 1.13x at 100 to 800).
 */
const DEFAULT_CONCURRENCY = 512;

/**
 * The default of `--wait-for-server`: vLLM loading a large model's weights
 * and capturing its CUDA graphs takes minutes, and a job script that starts
 * it beside tmas reaches it meanwhile.
 */
const DEFAULT_START_WAIT_SECONDS = 600;

/** `--concurrency`, the time limits, the request form, retries, and the policy of where calls wait. */
export const GATEWAY_SETTINGS = [
  setting<number>({
    flags: '--concurrency <n>',
    section: 'gateway',
    help: 'LLM requests in flight at once, over all problems and roles: an upper bound; each server\'s own limit follows its load',
    parse: integer(1, 100_000),
    default: DEFAULT_CONCURRENCY,
    demo: DEMO.concurrency,
    shapesCalls: false,
    field: field('gateway', 'concurrency'),
  }),
  setting<number, number | null>({
    flags: '--replica-max-in-flight <n>',
    section: 'gateway',
    help: 'the most calls in flight on one replica of a pool',
    defaultText: 'no cap but --concurrency',
    parse: integer(1, 100_000),
    shapesCalls: false,
    field: field('gateway', 'replicaMaxInFlight'),
    resolve: (cap) => cap ?? null,
    before: null,
  }),
  setting<number>({
    flags: '--timeout <seconds>',
    section: 'gateway',
    help: "idle limit of a call: no byte from the server for this long (waiting for headers or inside the body) gives the attempt up and retries it; an endpoint in the openai-reasoning dialect, whose models send nothing while they think, is waited for until its first text by the total limit alone",
    parse: decimal(0.1, 86_400),
    default: 300,
    shapesCalls: false,
    field: field('gateway', 'timeoutSeconds'),
  }),
  setting<number, number | null>({
    flags: '--total-timeout <seconds>',
    section: 'gateway',
    help: 'limit on one attempt of a call from start to last byte',
    defaultText: "10 min plus the call's completion limit at 2 tokens/s, which no healthy generation on a GPU server meets",
    parse: decimal(1, 7 * 86_400),
    shapesCalls: false,
    field: field('gateway', 'totalTimeoutSeconds'),
    resolve: (limit) => limit ?? null,
    before: null,
  }),
  setting<number, number | null>({
    flags: '--keepalive-timeout <seconds>',
    section: 'gateway',
    help: "how long a stream may send keep-alives alone (comments such as ': ping', events without text: empty choices, a role alone) before its attempt is given up and retried: a proxy in front of a hung server pings forever, each ping restarting --timeout; the default lets a model that reasons in hidden behind a proxy that pings meanwhile (OpenRouter) think its whole completion limit at 10 tokens/s",
    defaultText: "twice --timeout, or the call's completion limit at 10 tokens/s when longer (a model that reasons in hidden)",
    parse: decimal(0.1, 7 * 86_400),
    shapesCalls: false,
    field: field('gateway', 'keepAliveTimeoutSeconds'),
    resolve: (limit) => limit ?? null,
    before: null,
  }),
  setting<number>({
    flags: '--wait-for-server <seconds>',
    section: 'gateway',
    help: "how long a run waits at its start for an endpoint still starting: one that refuses connections (vLLM, SGLang) or answers 502, 503 (llama.cpp's Loading model) or 504, asked every 2 s; 0 does not wait. A 404, a refused key or a host that does not resolve stops the run at once",
    parse: decimal(0, 86_400),
    default: DEFAULT_START_WAIT_SECONDS,
    shapesCalls: false,
    field: field('gateway', 'startWaitSeconds'),
    before: 0,
  }),
  setting<boolean>({
    flags: '--no-stream',
    section: 'gateway',
    help: 'send non-streaming requests (for servers that cannot stream); --timeout then covers the wait for the whole reply',
    default: true,
    shapesCalls: false,
    field: field('gateway', 'stream'),
    before: true,
  }),
  setting<boolean, GatewayConfig['dialect']>({
    flags: '--openai-reasoning',
    section: 'gateway',
    help: "send max_completion_tokens and no sampling fields, as OpenAI's reasoning models require (adopted per endpoint anyway after a 400 that refuses max_tokens or temperature)",
    shapesCalls: false,
    field: field('gateway', 'dialect'),
    resolve: (on) => (on === true ? 'openai-reasoning' : 'chat'),
    before: 'chat',
  }),
  setting<number>({ flags: '--max-retries <n>', section: 'gateway', help: 'retries of a call after a 429, 5xx, timeout or reset', parse: integer(0, 100), default: 8, shapesCalls: false, field: field('gateway', 'maxRetries') }),
  setting<number>({
    flags: '--parse-retries <n>',
    section: 'roles',
    help: 'retries of a call whose output cannot be used (no score, not the JSON schema, empty or cut off)',
    parse: integer(0, 100),
    default: DEFAULT_PARSE_RETRIES,
    // How many calls a role makes for an unusable output.
    shapesCalls: true,
    field: field('roles', 'parseRetries'),
    before: DEFAULT_PARSE_RETRIES,
  }),
  setting<number>({ flags: '--retry-base-ms <ms>', section: 'gateway', help: 'first backoff step of retries (tests)', parse: integer(1, 600_000), default: DEFAULT_BACKOFF.baseMs, hidden: true, shapesCalls: false, field: field('gateway', 'retryBaseMs'), before: DEFAULT_BACKOFF.baseMs }),
  setting<number>({
    flags: '--load-poll-ms <ms>',
    section: 'gateway',
    help: "the longest period between two readings of a busy server's load (a server decoding fast is read more often, down to every 25 ms)",
    parse: integer(10, 60_000),
    default: DEFAULT_LOAD_POLL_MS,
    hidden: true,
    shapesCalls: false,
    field: field('gateway', 'loadPollMs'),
    before: DEFAULT_LOAD_POLL_MS,
  }),
  setting<ServerQueue>({
    flags: '--server-queue <mode>',
    section: 'gateway',
    help: "short: hand each server about what it runs plus a small margin (its load read from its /metrics, vLLM's or SGLang's, else inferred from the streams) and hold the rest in tmas, sent by --dispatch-order; server: hand each server all --concurrency allows and let its first-come queue decide (for comparison)",
    choices: ['short', 'server'],
    default: 'short',
    shapesCalls: false,
    field: field('gateway', 'serverQueue'),
    before: 'short',
  }),
  setting<DispatchOrder>({
    flags: '--dispatch-order <order>',
    section: 'gateway',
    help: 'rank: of the calls tmas holds, those of the problems with the most left to run go first (iterations to go, times how long their calls run), judge calls last; fifo: first come first served (for comparison)',
    choices: ['rank', 'fifo'],
    default: 'rank',
    shapesCalls: false,
    field: field('gateway', 'dispatchOrder'),
    before: 'rank',
  }),
  setting<BatchCap>({
    flags: '--batch-cap <mode>',
    section: 'gateway',
    help: "knee: with --server-queue short, also cap each server's calls a little above the batch past which its throughput stops growing (read from its token counter in /metrics), so that each sequence decodes at full speed; none: no such cap (for comparison)",
    choices: ['knee', 'none'],
    default: 'knee',
    shapesCalls: false,
    field: field('gateway', 'batchCap'),
    before: 'knee',
  }),
  setting<Routing>({
    flags: '--routing <policy>',
    section: 'gateway',
    help: "which replica of a pool (--base-url a,b,...) a call goes to, of those with room: prefix: where it will decode fastest (a replica past its knee, or slower, only when the others are full), then the one that was sent the most of its prompt lately (its prefix cache), unless that one has many more calls than the least loaded; least-loaded: the replica with the most free slots",
    choices: ['prefix', 'least-loaded'],
    default: 'prefix',
    shapesCalls: false,
    field: field('gateway', 'routing'),
    before: 'least-loaded',
  }),
];
