/**
 * `tmas run`: the options of the reference implementation, in kebab-case, and
 * their translation into a validated `RunConfig` plus the API keys.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import type { RunConfig, Schedule, Secrets, SlotSampling } from '../host/config.ts';
import type { BatchCap, DispatchOrder, ServerQueue } from '../gateway/gateway.ts';
import { UserError } from '../kernel/errors.ts';
import { packagePath } from '../kernel/package-root.ts';
import { checkEncoding } from '../pool/pool.ts';
import { runAgentsAt } from '../host/run-agents.ts';
import { runTokenizerAt } from '../host/run-tokenizer.ts';
import { ENDPOINT_SLOTS, SAMPLING_SETTINGS, slotAgent, slotFlag, slotOption, type EndpointSlot, type SamplingSetting } from '../kernel/slots.ts';
import { DEFAULT_TEMPERATURE, type Strategy } from '../../machines/contract.ts';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import { strategyNamed } from '../host/plugins.ts';
import { decimal, integer, jsonObject, kebabCaseFlags, urls } from './parsers.ts';
import { defineStrategyFlags, strategyOptionsOf } from './strategy-flags.ts';

/** The demo problem set shipped with tmas. */
export const DEMO_PROBLEMS = packagePath('problems/demo.jsonl');

/** Settings of `--demo`, chosen so the demo finishes in well under a minute on two cores. */
const DEMO = { maxIterations: 4, nCandidates: 8, nVerifications: 4, concurrency: 128, judgePasses: 2 } as const;

/**
 * The default of `--concurrency`: enough to fill two GPUs' batches (one H200
 * runs about 260 thinking-length sequences). It is only an upper bound: each
 * server gets about what it is running (gateway/load-limit.ts), so a high cap
 * costs nothing, while a low one starves the GPU (64 measured 1.39x the
 * bound on the capacity model, against 1.13x at 100 to 800).
 */
const DEFAULT_CONCURRENCY = 512;

/** The slots whose flags default to the solution agent's. */
const OTHER_SLOTS = ENDPOINT_SLOTS.filter((slot) => slot !== 'solution');

/** The raw options commander hands over. */
export interface RunFlags {
  resume?: string;
  force?: boolean;
  demo?: boolean;
  inputFile?: string;
  idColumn: string;
  questionColumn: string;
  answerColumn: string;
  outputFile?: string;
  tokenizer: string;
  tokenizerPath?: string;
  baseUrl?: string[];
  modelName?: string;
  apiKey?: string;
  nCandidates?: number;
  nVerifications?: number;
  maxIterations?: number;
  judgePasses?: number;
  judgeMaxTokens: number;
  maxTokens: number;
  concurrency?: number;
  epsilon: number;
  proof: boolean;
  seed: number;
  jaccardThreshold: number;
  jaccardShingle: number;
  bankMaxRecords: number;
  temperature?: number;
  completionMaxTokens?: number;
  timeout: number;
  replicaMaxInFlight?: number;
  totalTimeout?: number;
  stream: boolean;
  openaiReasoning?: boolean;
  maxRetries: number;
  parseRetries: number;
  retryBaseMs: number;
  activeProblems: number;
  schedule: string;
  serverQueue: string;
  loadPollMs: number;
  dispatchOrder: string;
  batchCap: string;
  strategy: string;
  agents?: string;
  simLatencyMs: number;
  simP99Ms: number;
  simOutputTokens: number;
  /** `--view [port]`: serve the viewer of this run while it goes (true: any free port). */
  view?: boolean | number;
  /** `--wide`: every column of the final table (default: the essential ones, within 80 columns). */
  wide?: boolean;
  [roleFlag: string]: unknown;
}

/** Declares the options of `tmas run` on a command. */
export function defineRunOptions(command: Command): Command {
  command
    .option('--resume <dir>', 'continue the run in this output directory: completed calls are answered from its journal; --max-iterations is the total target')
    .option('--force', 'with --resume: accept settings that change the calls (the changed calls are issued anew)')
    .option('--demo', `run the bundled demo: problems/demo.jsonl, --no-proof, ${DEMO.maxIterations} iterations, N=${DEMO.nCandidates}, M=${DEMO.nVerifications}`)
    .option('--input-file <file>', 'problems: JSONL with problem_id, question and optional answer (or a .csv)')
    .option('--id-column <name>', 'CSV input: the column of problem ids', 'Problem ID')
    .option('--question-column <name>', 'CSV input: the column of questions', 'Problem')
    .option('--answer-column <name>', 'CSV input: the column of reference answers', 'Short Answer')
    .option('--output-file <dir>', 'output directory for the store, results.jsonl and metrics.json (default: runs/<input>-<time>)')
    .option('--tokenizer <name>', 'tokenizer for the context budget: o200k_base, cl100k_base or p50k_base', 'o200k_base')
    .option('--tokenizer-path <dir|file>', "the model's own Hugging Face tokenizer for the context budget: a directory with tokenizer.json (and tokenizer_config.json), or the file; read from disk, never downloaded")
    .option('--base-url <url>', 'OpenAI-compatible endpoint of the solution agent, e.g. http://localhost:8000/v1; several (comma-separated or repeated) make a replica pool (default: the embedded simulated model)', urls)
    .option('--replica-max-in-flight <n>', 'the most calls in flight on one replica of a pool (default: no cap but --concurrency)', integer(1, 100_000))
    .option('--model-name <name>', 'model of the solution agent (default: the first model the endpoint lists)')
    .option('--api-key <key>', 'API key (prefer the OPENAI_API_KEY or API_KEY environment variable: a flag shows in the process list)')
    .option('--n-candidates <n>', 'candidates per iteration, N (default 8)', integer(1, 1024))
    .option('--n-verifications <n>', 'verifications per candidate, M (default 8)', integer(1, 1024))
    .option('--max-iterations <n>', 'iterations per problem, T (default 20)', integer(1, 10_000))
    .option('--judge-passes <n>', 'LLM judge passes per candidate when the problem has a reference (default: 4 when a judge endpoint is given, else 0: rule-based grading; N > 0 without one makes the solver its own judge)', integer(0, 99))
    .option('--judge-max-tokens <n>', "completion limit of a judge call (hosted judges cap their output; a verdict needs little)", integer(16), 4096)
    .option('--max-tokens <n>', "the model's context window in tokens", integer(512), 131_072)
    .option('--completion-max-tokens <n>', "completion limit of every call but the judge's (default: the strategy's upstream budget, e.g. rse 38912; else what the window leaves)", integer(16))
    .option('--concurrency <n>', `LLM requests in flight at once, over all problems and roles: an upper bound; each server's own limit follows its load (default ${DEFAULT_CONCURRENCY})`, integer(1, 100_000))
    .option('--epsilon <x>', 'explore probability per candidate from iteration 1 on', decimal(0, 1), 0.2)
    .option('--no-proof', 'short answers in \\boxed{} graded against the reference (default: proof problems)')
    .option('--seed <n>', 'seed of every random choice and of the per-call sampling seeds', integer(0, 2 ** 31 - 1), 0)
    .option('--jaccard-threshold <x>', 'a new bank record is dropped when its Jaccard similarity to a kept one is at least this', decimal(0, 1), 0.7)
    .option('--jaccard-shingle <n>', 'words per shingle the Jaccard similarity compares: 3 drops near-verbatim repeats; 1 compares word sets, which also drops rewordings', integer(1, 16), 3)
    .option('--bank-max-records <n>', 'records each bank keeps at most: the oldest are evicted first (0: no limit)', integer(0), 64)
    .option('--temperature <x>', `sampling temperature of every role (default: the strategy's upstream default, ${DEFAULT_TEMPERATURE} when it declares none)`, decimal(0, 2))
    .option('--top-p <x>', 'top_p of every role (default: the server\'s)', decimal(0, 1))
    .option('--top-k <n>', 'top_k of every role (vLLM, SGLang; default: the server\'s)', integer(-1, 1_000_000))
    .option('--min-p <x>', 'min_p of every role (vLLM, SGLang; default: the server\'s)', decimal(0, 1))
    .option('--extra-body <json>', 'a JSON object merged into every request, e.g. \'{"chat_template_kwargs":{"enable_thinking":true}}\'', jsonObject)
    .option('--timeout <seconds>', 'idle limit of a call: no byte from the server for this long (waiting for headers or inside the body) gives the attempt up and retries it', decimal(0.1, 86_400), 300)
    .option('--total-timeout <seconds>', 'limit on one attempt of a call from start to last byte (default: 10 min plus the call\'s completion limit at 2 tokens/s, which no healthy generation on a GPU server meets)', decimal(1, 7 * 86_400))
    .option('--no-stream', 'send non-streaming requests (for servers that cannot stream); --timeout then covers the wait for the whole reply')
    .option('--openai-reasoning', "send max_completion_tokens and no sampling fields, as OpenAI's reasoning models require (adopted per endpoint anyway after a 400 that refuses max_tokens or temperature)")
    .option('--max-retries <n>', 'retries of a call after a 429, 5xx, timeout or reset', integer(0, 100), 8)
    .option('--parse-retries <n>', 'retries of a call whose output cannot be used (no score, not the JSON schema, empty or cut off)', integer(0, 100), 2)
    .addOption(new Option('--retry-base-ms <ms>', 'first backoff step of retries (tests)').argParser(integer(1, 600_000)).default(1000).hideHelp())
    .addOption(new Option('--load-poll-ms <ms>', "the longest period between two readings of a busy server's load (a server decoding fast is read more often, down to every 25 ms)").argParser(integer(10, 60_000)).default(500).hideHelp())
    .option('--active-problems <n>', 'problems running at once (0: all)', integer(0), 0)
    .option('--schedule <mode>', 'pipelined: each call starts as soon as its inputs exist; barrier: each phase of a problem waits for the whole previous phase (for comparison)', 'pipelined')
    .option(
      '--server-queue <mode>',
      "short: hand each server about what it runs plus a small margin (its load read from its /metrics, vLLM's or SGLang's, else inferred from the streams) and hold the rest in tmas, sent by --dispatch-order; server: hand each server all --concurrency allows and let its first-come queue decide (for comparison)",
      'short',
    )
    .option('--dispatch-order <order>', 'rank: of the calls tmas holds, those of the problems with the most left to run go first (iterations to go, times how long their calls run), judge calls last; fifo: first come first served (for comparison)', 'rank')
    .option('--batch-cap <mode>', "knee: with --server-queue short, also cap each server's calls a little above the batch past which its throughput stops growing (read from its token counter in /metrics), so that each sequence decodes at full speed; none: no such cap (for comparison)", 'knee')
    .option('--strategy <name>', `the method: ${Object.keys(STRATEGIES).join(', ')}`, 'tmas')
    .option('--wide', 'print every column of the final table (default: the essential ones, within 80 columns)')
    .option('--view [port]', 'serve the web viewer of this run on loopback while it goes, and after it until Ctrl-C (port: default any free one)', integer(0, 65_535))
    .option('--agents <file>', 'a TS or JS module exporting defineAgents({...}): replaces roles of the chosen strategy (see README "Write your own strategy")');
  defineStrategyFlags(command);
  for (const slot of OTHER_SLOTS) {
    command
      .option(`${slotFlag(slot, 'base-url')} <url>`, `endpoint of ${slotAgent(slot)}, or several for a replica pool (default: the solution agent's)`, urls)
      .option(`${slotFlag(slot, 'model-name')} <name>`, `model of ${slotAgent(slot)} (default: the solution agent's)`)
      .option(`${slotFlag(slot, 'api-key')} <key>`, `API key of ${slotAgent(slot)} (default: the solution agent's)`)
      .option(`${slotFlag(slot, 'temperature')} <x>`, `temperature of ${slotAgent(slot)} (default: the role's, --temperature)`, decimal(0, 2))
      .option(`${slotFlag(slot, 'top-p')} <x>`, `top_p of ${slotAgent(slot)} (default: --top-p)`, decimal(0, 1))
      .option(`${slotFlag(slot, 'top-k')} <n>`, `top_k of ${slotAgent(slot)} (default: --top-k)`, integer(-1, 1_000_000))
      .option(`${slotFlag(slot, 'min-p')} <x>`, `min_p of ${slotAgent(slot)} (default: --min-p)`, decimal(0, 1))
      .option(`${slotFlag(slot, 'extra-body')} <json>`, `JSON merged into the requests of ${slotAgent(slot)} (default: --extra-body)`, jsonObject);
  }
  command
    .addOption(new Option('--sim-latency-ms <ms>', 'simulated model: median latency (0: none)').argParser(decimal(0, 600_000)).default(0))
    .addOption(new Option('--sim-p99-ms <ms>', 'simulated model: 99th percentile latency').argParser(decimal(0, 600_000)).default(0))
    .addOption(new Option('--sim-output-tokens <n>', 'simulated model: approximate tokens of a solution').argParser(integer(1)).default(250));
  return command;
}

/** The `completionMaxTokens` field of a configuration: absent when there is no limit, so older call keys stay as they were. */
function completionLimitOf(limit: number | undefined): Pick<RunConfig, 'completionMaxTokens'> {
  return limit === undefined ? {} : { completionMaxTokens: limit };
}

function toSchedule(value: string): Schedule {
  if (value === 'pipelined' || value === 'barrier') return value;
  throw new UserError('TMAS_USAGE', `--schedule must be pipelined or barrier, got "${value}".`);
}

function toServerQueue(value: string): ServerQueue {
  if (value === 'short' || value === 'server') return value;
  throw new UserError('TMAS_USAGE', `--server-queue must be short or server, got "${value}".`);
}

function toDispatchOrder(value: string): DispatchOrder {
  if (value === 'rank' || value === 'fifo') return value;
  throw new UserError('TMAS_USAGE', `--dispatch-order must be rank or fifo, got "${value}".`);
}

function toBatchCap(value: string): BatchCap {
  if (value === 'knee' || value === 'none') return value;
  throw new UserError('TMAS_USAGE', `--batch-cap must be knee or none, got "${value}".`);
}

function timestamp(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}${pad(date.getMonth() + 1)}${pad(date.getDate())}-${pad(date.getHours())}${pad(date.getMinutes())}${pad(date.getSeconds())}`;
}

/** Whether the flags name a judge endpoint of its own (`--judge-base-url` or `--judge-model-name`). */
function judgeNamed(flags: RunFlags): boolean {
  return flags[slotOption('judge', 'base-url')] !== undefined || flags[slotOption('judge', 'model-name')] !== undefined;
}

/**
 * A slot's sampling settings: its own flags, else the solution agent's (the
 * run-wide ones). The solution slot's temperature is the run's `--temperature`,
 * so it has none here. Null when nothing is set.
 */
function samplingOf(slot: EndpointSlot, flags: RunFlags, strategy: Strategy): SlotSampling | null {
  // The strategy's upstream top_p / top_k, where no flag sets them; the judge samples as the flags say, not as the method does.
  const declared: Record<string, unknown> = slot === 'judge' ? {} : { topP: strategy.sampling?.topP, topK: strategy.sampling?.topK };
  const sampling: Record<string, unknown> = {};
  for (const [setting, field] of Object.entries(SAMPLING_SETTINGS) as Array<[SamplingSetting, string]>) {
    if (slot === 'solution' && setting === 'temperature') continue;
    const value = flags[slotOption(slot, setting)] ?? (setting === 'temperature' ? undefined : (flags[slotOption('solution', setting)] ?? declared[field]));
    if (value !== undefined) sampling[field] = value;
  }
  return Object.keys(sampling).length > 0 ? (sampling as SlotSampling) : null;
}

/** Turns the flags into a run configuration and the API keys. */
export function toRunConfig(flags: RunFlags, env: NodeJS.ProcessEnv, now = new Date()): { config: RunConfig; secrets: Secrets } {
  const demo = flags.demo === true;
  const input = flags.inputFile ?? (demo ? DEMO_PROBLEMS : undefined);
  if (input === undefined) {
    throw new UserError('TMAS_USAGE', 'tmas run needs the problems to solve: give --input-file FILE (JSONL with problem_id, question, answer), or --demo to run the bundled demo set.');
  }
  const outputDir = path.resolve(flags.outputFile ?? path.join('runs', `${path.basename(input).replace(/\.[^.]+$/, '')}-${timestamp(now)}`));
  const key = flags.apiKey ?? env.OPENAI_API_KEY ?? env.API_KEY ?? 'EMPTY';
  const strategy = strategyNamed(flags.strategy);
  const solutionSampling = samplingOf('solution', flags, strategy);
  const solution = { baseUrl: flags.baseUrl ?? null, model: flags.modelName ?? (flags.baseUrl ? '' : 'tmas-sim'), ...(solutionSampling ? { sampling: solutionSampling } : {}) };
  const endpoints = { solution } as RunConfig['endpoints'];
  const secrets = { solution: key } as Secrets;
  for (const slot of OTHER_SLOTS) {
    const baseUrl = (flags[slotOption(slot, 'base-url')] as string[] | undefined) ?? solution.baseUrl;
    const model = (flags[slotOption(slot, 'model-name')] as string | undefined) ?? (baseUrl === solution.baseUrl ? solution.model : baseUrl ? '' : 'tmas-sim');
    const sampling = samplingOf(slot, flags, strategy);
    endpoints[slot] = { baseUrl, model, ...(sampling ? { sampling } : {}) };
    secrets[slot] = (flags[slotOption(slot, 'api-key')] as string | undefined) ?? key;
  }
  const strategyOptions = strategyOptionsOf(strategy, flags);
  const config: RunConfig = {
    inputFile: path.resolve(input),
    columns: { id: flags.idColumn, question: flags.questionColumn, answer: flags.answerColumn },
    outputDir,
    ...(flags.tokenizerPath === undefined ? { tokenizer: checkEncoding(flags.tokenizer) } : runTokenizerAt(flags.tokenizerPath)),
    maxTokens: flags.maxTokens,
    nCandidates: flags.nCandidates ?? (demo ? DEMO.nCandidates : 8),
    nVerifications: flags.nVerifications ?? (demo ? DEMO.nVerifications : 8),
    maxIterations: flags.maxIterations ?? (demo ? DEMO.maxIterations : 20),
    // The paper's protocol grades by an LLM judge; the judge is on when one is named (the demo's is the simulator).
    judgePasses: flags.judgePasses ?? (demo ? DEMO.judgePasses : judgeNamed(flags) ? 4 : 0),
    judgeMaxTokens: flags.judgeMaxTokens,
    ...completionLimitOf(flags.completionMaxTokens ?? strategy.completionMaxTokens),
    concurrency: flags.concurrency ?? (demo ? DEMO.concurrency : DEFAULT_CONCURRENCY),
    epsilon: flags.epsilon,
    proof: demo ? false : flags.proof,
    seed: flags.seed,
    jaccardThreshold: flags.jaccardThreshold,
    jaccardShingle: flags.jaccardShingle,
    bankMaxRecords: flags.bankMaxRecords,
    // The strategy's upstream default unless the user chose one; the manifest keeps the value used.
    temperature: flags.temperature ?? strategy.sampling?.temperature ?? DEFAULT_TEMPERATURE,
    timeoutSeconds: flags.timeout,
    ...(flags.totalTimeout === undefined ? {} : { totalTimeoutSeconds: flags.totalTimeout }),
    ...(flags.replicaMaxInFlight === undefined ? {} : { replicaMaxInFlight: flags.replicaMaxInFlight }),
    ...(flags.stream ? {} : { stream: false }),
    ...(flags.openaiReasoning === true ? { dialect: 'openai-reasoning' as const } : {}),
    maxRetries: flags.maxRetries,
    parseRetries: flags.parseRetries,
    retryBaseMs: flags.retryBaseMs,
    ...(flags.loadPollMs === 500 ? {} : { loadPollMs: flags.loadPollMs }),
    activeProblems: flags.activeProblems,
    schedule: toSchedule(flags.schedule),
    ...(flags.serverQueue === 'short' ? {} : { serverQueue: toServerQueue(flags.serverQueue) }),
    ...(flags.dispatchOrder === 'rank' ? {} : { dispatchOrder: toDispatchOrder(flags.dispatchOrder) }),
    ...(flags.batchCap === 'knee' ? {} : { batchCap: toBatchCap(flags.batchCap) }),
    strategy: strategy.name,
    ...(Object.keys(strategyOptions).length === 0 ? {} : { strategyOptions }),
    ...(flags.agents === undefined ? {} : runAgentsAt(flags.agents)),
    endpoints,
    sim: { latencyMedianMs: flags.simLatencyMs, latencyP99Ms: Math.max(flags.simP99Ms, flags.simLatencyMs), outputTokens: flags.simOutputTokens },
  };
  return { config, secrets };
}

/**
 * The warning for a run in proof mode (the default) whose problems carry
 * short answers but no reference solution: nothing grades them then, and the
 * curves stay empty. Null when the run is not in that case.
 */
export function proofModeWarning(config: Pick<RunConfig, 'proof'>, problems: Array<{ answer?: string; solution?: string }>): string | null {
  if (!config.proof) return null;
  const answered = problems.filter((p) => p.answer !== undefined && p.answer !== '').length;
  if (answered === 0 || problems.some((p) => p.solution !== undefined && p.solution !== '')) return null;
  return (
    `tmas: warning: this run is in proof mode (the default), but ${answered} of its ${problems.length} problems carry a short answer and none a reference solution: ` +
    'candidates are then not graded against the answers, and Pass@1 and the curves stay empty. For short answers in \\boxed{}, add --no-proof.'
  );
}

/** Parses `tmas run` arguments (kebab- or snake_case) into flags with their defaults, as the CLI would. */
export function parseRunFlags(argv: string[]): RunFlags {
  const command = defineRunOptions(new Command('run').exitOverride().configureOutput({ writeErr: () => {} }));
  command.parse(kebabCaseFlags(argv), { from: 'user' });
  return command.opts<RunFlags>();
}
