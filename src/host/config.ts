/**
 * The configuration of a run, as the CLI builds it and the manifest stores it.
 * API keys are not part of it: they live in `Secrets`, which is never written.
 */
import type { JudgeWhen, StrategyOptionValue } from '../../machines/contract.ts';
import type { EndpointSlot } from '../kernel/slots.ts';
import type { BatchCap, DispatchOrder, ServerQueue } from '../gateway/gateway.ts';

/** A user's template of one role's user message (`--prompt ROLE=FILE`), as a run keeps it. */
export interface PromptTemplateFile {
  /** The file it was read from, resolved. */
  file: string;
  /** `sha256:` + the hex digest of its text. */
  sha256: string;
  /** The template's text. */
  template: string;
}

/** A slot's own sampling settings (`--top-p`, `--verify-temperature`, `--extra-body`, …); a field is absent when not set. */
export interface SlotSampling {
  /** Overrides the temperature the role asks for (the run's `--temperature`). */
  temperature?: number;
  topP?: number;
  topK?: number;
  minP?: number;
  /** A JSON object merged into each request last. */
  extraBody?: Record<string, unknown>;
}

/** Where one role's calls go. `baseUrl: null` means the embedded simulated model; several URLs are a replica pool. */
export interface RoleEndpoint {
  baseUrl: string[] | null;
  model: string;
  /** Absent when no sampling flag applies to the slot, so that such runs keep their call keys. */
  sampling?: SlotSampling;
}

/** The simulated model's settings (used when no --base-url is given). */
export interface SimSettings {
  latencyMedianMs: number;
  latencyP99Ms: number;
  outputTokens: number;
}

/** Everything that shapes a run. */
export interface RunConfig {
  inputFile: string;
  /** Column names when the input is CSV. */
  columns: { id: string; question: string; answer: string };
  outputDir: string;
  /** A tiktoken encoding, or `hf:` + the tokenizer.json of `--tokenizer-path` (run-tokenizer.ts). */
  tokenizer: string;
  /** With `--tokenizer-path`: a digest of what the tokenizer file holds, which identifies it wherever it lies. */
  tokenizerDigest?: string;
  /** The model's context window in tokens. */
  maxTokens: number;
  nCandidates: number;
  nVerifications: number;
  maxIterations: number;
  concurrency: number;
  epsilon: number;
  /** false with --no-proof: numeric/short answers in \boxed{}. */
  proof: boolean;
  seed: number;
  jaccardThreshold: number;
  /** Words per shingle of the bank deduplication (`--jaccard-shingle`; 1: word sets); absent in older runs: 3. */
  jaccardShingle?: number;
  /** Records a bank keeps at most, the oldest evicted first (`--bank-max-records`; 0: no limit); absent in older runs: no limit. */
  bankMaxRecords?: number;
  /** Sampling temperature of every role: `--temperature`, else the strategy's declared default, else 0.6. */
  temperature: number;
  /** Completion limit of every non-judge call (`--completion-max-tokens`, else the strategy's `completionMaxTokens`); absent: what the window leaves. */
  completionMaxTokens?: number;
  /** The idle limit of a call (`--timeout`): no byte for this long gives an attempt up. */
  timeoutSeconds: number;
  /** `--total-timeout`: a limit on one attempt's whole duration; absent: none. */
  totalTimeoutSeconds?: number;
  /** `--replica-max-in-flight`: the most calls in flight on one replica of a pool; absent: none but `--concurrency`. */
  replicaMaxInFlight?: number;
  /** false with `--no-stream`; absent: streamed. */
  stream?: boolean;
  /** `openai-reasoning` with `--openai-reasoning`; absent: `chat`, switched per endpoint when one refuses it. */
  dialect?: 'chat' | 'openai-reasoning';
  maxRetries: number;
  /** Retries of a call whose output a role cannot use (`--parse-retries`); default 2. */
  parseRetries?: number;
  /** First backoff step of the gateway's retries in ms (`--retry-base-ms`, hidden; tests use a small one); default 1000. */
  retryBaseMs?: number;
  /** Problems running at once; 0 = all. */
  activeProblems: number;
  /** `pipelined` (default): each call starts as soon as its inputs exist; `barrier`: each phase of a problem waits for the whole previous phase (for comparison). */
  schedule?: Schedule;
  /** `--server-queue`: where calls wait when the servers are saturated; absent: `short`. */
  serverQueue?: ServerQueue;
  /** The longest period between two readings of a busy server's load in ms (`--load-poll-ms`, hidden; poll-period.ts); default 500. */
  loadPollMs?: number;
  /** `--dispatch-order`: how the calls held in tmas are ordered; absent: `rank`. */
  dispatchOrder?: DispatchOrder;
  /** `--batch-cap`: whether each server's calls are capped near its throughput knee; absent: `knee`. */
  batchCap?: BatchCap;
  /** LLM judge passes per candidate (`--judge-passes`); 0 turns the judge off. Absent in runs made before the judge existed. */
  judgePasses?: number;
  /** Completion limit of a judge call (`--judge-max-tokens`); absent in runs made before it existed (no limit but the window). */
  judgeMaxTokens?: number;
  /** `--judge-when unsure`: only the candidates the rule-based grader is unsure of (or finds no answer in) go to the judge; absent: every one. */
  judgeWhen?: JudgeWhen;
  /** The method (`--strategy`, a name in machines/strategies/index.ts STRATEGIES); absent means `tmas`. */
  strategy?: string;
  /** The chosen strategy's own flags (`Strategy.flags`) by option name, defaults filled in; absent when it has none. */
  strategyOptions?: Record<string, StrategyOptionValue>;
  /** The user module of agent overrides (`--agents FILE`), resolved; absent when none. */
  agents?: string;
  /** With `--agents`: a digest of what the module's file holds, which identifies it wherever it lies (run-agents.ts). */
  agentsDigest?: string;
  /** User-message templates given with `--prompt ROLE=FILE`, by role: the file, its SHA-256 and its text (a resume renders the text kept here); absent when none. */
  prompts?: Record<string, PromptTemplateFile>;
  endpoints: Record<EndpointSlot, RoleEndpoint>;
  sim: SimSettings;
}

/** How a problem's phases overlap (`--schedule`). */
export type Schedule = 'pipelined' | 'barrier';

/** API keys per role. Never logged, journaled or printed. */
export type Secrets = Record<EndpointSlot, string>;

/** Tokens kept free between prompt + completion and the context window, for chat-template overhead. */
export const CONTEXT_MARGIN = 256;

/** True when every role goes to the embedded simulated model. */
export function usesSimulator(config: RunConfig): boolean {
  return Object.values(config.endpoints).some((endpoint) => endpoint.baseUrl === null);
}

/**
 * A stored configuration in today's shape. Runs made before strategies
 * declared their own flags kept `majority`'s `--samples` at the top level.
 */
export function upgradeConfig(stored: RunConfig): RunConfig {
  // Runs made before replica pools kept one base URL per role as a string.
  for (const endpoint of Object.values(stored.endpoints) as Array<{ baseUrl: string[] | string | null }>) {
    if (typeof endpoint.baseUrl === 'string') endpoint.baseUrl = [endpoint.baseUrl];
  }
  const { samples, ...config } = stored as RunConfig & { samples?: number };
  if (samples === undefined) return stored;
  return (config.strategy ?? 'tmas') === 'majority' ? { ...config, strategyOptions: { samples, ...config.strategyOptions } } : config;
}
