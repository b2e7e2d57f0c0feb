/**
 * The configuration of a run, in sections that mirror the settings'
 * sections. The settings fill every field once (to-config.ts for a new run,
 * upgrade.ts for a stored manifest), so no field is optional: a consumer
 * takes its section as it is and decides no default of its own. A value that
 * means "none" (no cap, no module) is `null`, never an absent field. API keys
 * are not part of it: they live in `Secrets`, which is never written.
 */
import type { JudgeWhen, StrategyOptionValue } from '../../machines/contract.ts';
import type { BatchCap, DispatchOrder, Routing, ServerQueue } from '../gateway/gateway.ts';
import type { EndpointSlot } from '../kernel/slots.ts';

/** A user's template of one role's user message (`--prompt ROLE=FILE`), as a run keeps it. */
export interface PromptTemplateFile {
  /** The file it was read from, resolved. */
  file: string;
  /** `sha256:` + the hex digest of its text. */
  sha256: string;
  /** The template's text. */
  template: string;
}

/** The problems a run reads: the file and, for CSV or Parquet, its columns (null: the format's own names). */
export interface ProblemsConfig {
  inputFile: string;
  idColumn: string | null;
  questionColumn: string | null;
  /** Named: the column must be there; null: a file without answers loads ungraded. */
  answerColumn: string | null;
}

/** What a run writes. */
export interface OutputsConfig {
  /** The run's directory: store/, results.jsonl, metrics.json. */
  dir: string;
  /** A role whose unusable outputs in an iteration exceed this share of its outputs is warned of at the end. */
  unusableWarnShare: number;
}

/** The method and its loop. */
export interface LoopConfig {
  /** The method (`--strategy`, a name in the strategy registry). */
  strategy: string;
  /** The chosen strategy's own flags (`Strategy.flags`) by option name, defaults filled in; `{}` when it has none. */
  strategyOptions: Record<string, StrategyOptionValue>;
  /** The user module of agent overrides (`--agents FILE`), resolved; null when none. */
  agents: string | null;
  /** With `--agents`: a digest of what the module's file holds (null in runs made before digests: they are keyed by the path). */
  agentsDigest: string | null;
  /** User-message templates given with `--prompt ROLE=FILE`, by role (a resume renders the text kept here); `{}` when none. */
  prompts: Record<string, PromptTemplateFile>;
  nCandidates: number;
  nVerifications: number;
  maxIterations: number;
  epsilon: number;
  /** false with --no-proof: short answers in \boxed{}. */
  proof: boolean;
  seed: number;
  jaccardThreshold: number;
  /** Words per shingle of the bank deduplication (1: word sets). */
  jaccardShingle: number;
  /** Records a bank keeps at most, the oldest evicted first (0: no limit). */
  bankMaxRecords: number;
  /** Problems running at once; 0 = all. */
  activeProblems: number;
  schedule: Schedule;
}

/** The context budget. */
export interface ContextConfig {
  /** A tiktoken encoding, or `hf:` + the tokenizer.json of `--tokenizer-path`. */
  tokenizer: string;
  /** With `--tokenizer-path`: a digest of the tokenizer's files (null for an encoding, and in runs made before digests). */
  tokenizerDigest: string | null;
  /** The model's context window in tokens. */
  window: number;
  /** Completion limit of every non-judge call; null: what the window leaves. */
  completionMaxTokens: number | null;
}

/** A slot's own sampling settings (`--top-p`, `--verify-temperature`, `--extra-body`, …); null when not set, and then not sent. */
export interface SlotSampling {
  /** Overrides the temperature the role asks for (the run's `--temperature`). */
  temperature: number | null;
  topP: number | null;
  topK: number | null;
  minP: number | null;
  /** A JSON object merged into each request last. */
  extraBody: Record<string, unknown> | null;
}

/** Where one slot's calls go. `baseUrl: null` means the embedded simulated model; several URLs are a replica pool. */
export interface RoleEndpoint {
  baseUrl: string[] | null;
  /** Empty until the endpoint is asked for its first model (a role without --model-name). */
  model: string;
  sampling: SlotSampling;
}

/** Endpoints and sampling of the roles. */
export interface RolesConfig {
  endpoints: Record<EndpointSlot, RoleEndpoint>;
  /** Sampling temperature of every role: `--temperature`, else the strategy's declared default. */
  temperature: number;
  /** Retries of a call whose output a role cannot use. */
  parseRetries: number;
}

/** The LLM judge of the grading stage (its endpoint and sampling are its slot's, in `roles`). */
export interface JudgeConfig {
  /** Passes per candidate; 0 turns the judge off. */
  passes: number;
  /** Completion limit of a judge call; null in runs made before it existed (no limit but the window). */
  maxTokens: number | null;
  when: JudgeWhen;
  /** With `when: unsure`, the share of rule-decided candidates the judge also grades, picked by the seed. */
  audit: number;
}

/** The gateway: calls in flight, time limits, the request form, retries, where calls wait. */
export interface GatewayConfig {
  concurrency: number;
  /** The most calls in flight on one replica of a pool; null: none but `concurrency`. */
  replicaMaxInFlight: number | null;
  /** The idle limit of a call: no byte for this long gives an attempt up. */
  timeoutSeconds: number;
  /** A limit on one attempt's whole duration; null: derived from the call's completion limit. */
  totalTimeoutSeconds: number | null;
  /** How long an event stream may send keep-alives alone before an attempt is given up; null: twice `timeoutSeconds`, or the call's completion limit at 10 tokens/s when longer. */
  keepAliveTimeoutSeconds: number | null;
  /** How long the check at a run's start waits for an endpoint still starting; 0: not at all. */
  startWaitSeconds: number;
  stream: boolean;
  dialect: 'chat' | 'openai-reasoning';
  maxRetries: number;
  /** First backoff step of the retries in ms. */
  retryBaseMs: number;
  /** The longest period between two readings of a busy server's load in ms. */
  loadPollMs: number;
  serverQueue: ServerQueue;
  dispatchOrder: DispatchOrder;
  batchCap: BatchCap;
  /** Which replica of a pool a call goes to. */
  routing: Routing;
}

/** The simulated model's settings (used when no --base-url is given). */
export interface SimConfig {
  latencyMedianMs: number;
  latencyP99Ms: number;
  outputTokens: number;
  /** The share of replies that break their role's format (0: none). */
  breakFormats: number;
  /** Tokens of the records an RSE distillation writes besides its marked one (0: the marked record alone). */
  distillTokens: number;
}

/** Everything that shapes a run, by section. */
export interface RunConfig {
  problems: ProblemsConfig;
  outputs: OutputsConfig;
  loop: LoopConfig;
  context: ContextConfig;
  roles: RolesConfig;
  judge: JudgeConfig;
  gateway: GatewayConfig;
  sim: SimConfig;
}

/** The sections of the configuration. */
export type ConfigSection = keyof RunConfig;

/** How a problem's phases overlap (`--schedule`). */
export type Schedule = 'pipelined' | 'barrier';

/** API keys per role. Never logged, journaled or printed. */
export type Secrets = Record<EndpointSlot, string>;

/** The most a non-judge call may write: its completion limit, or the whole window where there is none (null). */
export function completionCeiling(config: Pick<RunConfig, 'context'>): number {
  return config.context.completionMaxTokens === null ? config.context.window : config.context.completionMaxTokens;
}

/** The most a judge call may write: its completion limit, or the whole window in runs made before it had one (null). */
export function judgeCeiling(config: Pick<RunConfig, 'context' | 'judge'>): number {
  return config.judge.maxTokens === null ? config.context.window : config.judge.maxTokens;
}

/** True when any role goes to the embedded simulated model. */
export function usesSimulator(config: Pick<RunConfig, 'roles'>): boolean {
  return Object.values(config.roles.endpoints).some((endpoint) => endpoint.baseUrl === null);
}
