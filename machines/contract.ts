/**
 * The contract of a strategy: what a strategy is (its roles, its problem
 * machine, its flags, the calls it promises, how the simulator answers its
 * roles), and what a problem actor takes and gives. Every strategy under
 * machines/strategies/ implements it; the host reads nothing else of them.
 */
import type { AnyStateMachine } from 'xstate';
import type { BankStats, CandidateResult, ExperienceRecord, GuidelineRecord, Rollout } from '../src/kernel/protocol.ts';
import type { SimFormat } from '../src/kernel/sim-formats.ts';
import type { RoleDefinition } from './role.machine.ts';

/** The problem as the actor sees it. */
export interface ProblemSpec {
  id: string;
  question: string;
  answer?: string;
  /** A reference solution: what the judge compares against in proof mode. */
  solution?: string;
}

/** The value of a strategy's own flag. */
export type StrategyOptionValue = number | string;

/** The method's settings that shape the loop. */
export interface LoopSettings {
  nCandidates: number;
  nVerifications: number;
  /** Total iterations: the loop stops after iteration maxIterations - 1. */
  maxIterations: number;
  epsilon: number;
  seed: number;
  jaccardThreshold: number;
  /** `barrier`: verifications start once all N solutions are in, summaries once all N×M verifications are; `pipelined` (default) starts each as soon as its inputs exist. */
  schedule?: 'pipelined' | 'barrier';
  /** LLM judge passes per candidate when the problem has a reference (0 or absent: no judge). */
  judgePasses?: number;
  /** Which candidates the judge grades (`--judge-when`); absent: `always`. */
  judgeWhen?: JudgeWhen;
  /** Under `judgeWhen: unsure`, the share of rule-decided candidates the judge also grades (`--judge-audit`); absent: none. */
  judgeAudit?: number;
  /** Proof mode: no rule-based grade; the judge compares against the reference solution. Absent: false. */
  proof?: boolean;
  /** The strategy's own flags (`Strategy.flags`), by option name, defaults filled in. */
  options?: Readonly<Record<string, StrategyOptionValue>>;
}

/**
 * Which candidates the LLM judge grades: `always` every one; `unsure` (hybrid
 * grading) only those the rule-based grader is unsure of or finds no answer
 * in, the rule's verdict standing for the rest.
 */
export type JudgeWhen = 'always' | 'unsure';

/** Where a problem starts: iteration 0 with empty banks, or where an earlier run stopped. */
export interface LoopStart {
  iteration: number;
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  rollouts: Rollout[];
  /**
   * On resume, the judge verdicts of each iteration done, by iteration then request key (judge-stage.ts;
   * null: the reply gave none); absent: none. A program reuses those of the iterations up to the one it
   * starts at (verdictsAt).
   */
  judged?: Readonly<Record<number, Readonly<Record<string, boolean | null>>>>;
}

/** The input of a problem actor. */
export interface ProblemInput {
  run: string;
  problem: ProblemSpec;
  ordinal: number;
  settings: LoopSettings;
  start: LoopStart;
}

/** Input of the `dedupBanks` actor. */
export interface DedupBanksInput {
  experience: ExperienceRecord[];
  newExperience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  newGuidelines: GuidelineRecord[];
  threshold: number;
  /** Records each bank keeps at most, the strategy's own (0: every record, as RSE keeps); absent: the run's `--bank-max-records`. */
  maxRecords?: number;
}

/** Output of the `dedupBanks` actor. */
export interface DedupBanksOutput {
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
}

/**
 * Output of the `saveIteration` actor. `saved: false`: a call of the
 * iteration failed for good, so the iteration is not a result and was not
 * marked; the problem stops there (a resume does the iteration again).
 */
export interface SaveIterationOutput {
  saved: boolean;
}

/** Input of the `saveIteration` actor: one atomic write of banks and iteration mark. */
export interface SaveIterationInput {
  problem: string;
  ordinal: number;
  iteration: number;
  candidates: CandidateResult[];
  rollouts: Rollout[];
  experience: ExperienceRecord[];
  guidelines: GuidelineRecord[];
  /** The judge verdicts this iteration's stage holds, by request key (null: the reply gave none): kept so that a resume reuses them as the run would have. */
  judged: Record<string, boolean | null>;
  /** What `bank.updated` says of this iteration, when the strategy has banks: kept so that a resume can announce the iteration again if a stop cut its announcement off. */
  bank?: BankStats;
}

/** A flag of `tmas run` that belongs to one strategy (`--samples` of `majority`). */
export interface StrategyFlag {
  /** The flag without its dashes, kebab-case: `samples` is `--samples`; its option name is the camelCase form. */
  name: string;
  /** What the help shows as its value: `<k>`. */
  value: string;
  description: string;
  /** `integer-list`: comma-separated integers in [min, max], kept as a string ("8,8,4"). */
  type: 'integer' | 'decimal' | 'string' | 'integer-list';
  min?: number;
  max?: number;
  default: StrategyOptionValue;
  /** A different value changes what the calls are: a resume refuses the change without --force. */
  shapesCalls: boolean;
}

/** The iterations a problem still has to run, for the counts a strategy promises. */
export interface CallSpan {
  /** The first iteration to run (0, or where a resumed problem picks up). */
  from: number;
  /** The problem has a reference (answer, or solution in proof mode): the judge checks it. */
  judged: boolean;
}

/** Sampling parameters a method's upstream code uses by default. */
export interface StrategySampling {
  temperature?: number;
  topP?: number;
  topK?: number;
}

/** A method the runtime can run. */
export interface Strategy {
  name: string;
  description: string;
  /** Role actors by role name; each receives `<name>.requested` messages. */
  roles: Record<string, AnyStateMachine>;
  /** The per-problem loop. Takes `ProblemInput` and ends with `problem.completed`. */
  problem: AnyStateMachine;
  /** The `RoleDefinition` behind each role built with `createRoleMachine`: what a plugin's `prompt`/`reply` override applies to. */
  definitions?: Record<string, RoleDefinition>;
  /** Flags of its own; `tmas run` offers them, the manifest keeps them, a resume checks them. */
  flags?: readonly StrategyFlag[];
  /**
   * Checks its options together, where one flag bounds another: what to
   * change, as a usage error's message, or null. A new run is refused on it.
   */
  checkOptions?(options: Readonly<Record<string, StrategyOptionValue>>): string | null;
  /**
   * The `<role>.completed` messages one problem makes from `span.from` to the
   * last iteration, by role (progress totals, and the contract test holds a
   * strategy to them). Roles whose count depends on the replies are left out.
   */
  expectedCalls(settings: LoopSettings, span: CallSpan): Partial<Record<string, number>>;
  /**
   * The most calls one problem makes, by role, of the roles `expectedCalls`
   * leaves out because the replies decide their count (Self-Refine stops a
   * candidate once its critique finds no error). `tmas plan` counts them as
   * an upper bound; a role in neither is not forecast.
   */
  callBounds?(settings: LoopSettings): Partial<Record<string, number>>;
  /** How the simulated model answers each role, by the name its prompt gives ("You are the X agent"). */
  sim: Record<string, SimFormat>;
  /**
   * Where each role's calls stand in one iteration's chain of dependent calls,
   * from 0 (TMAS: solutions 0, their verifications 1, summaries 2, bank updates
   * 3). Held calls are sent by what is left of their problem's chain
   * (src/host/calls/call-ranks.ts); a role not named here is at stage 0.
   */
  stages?: Readonly<Record<string, number>>;
  /**
   * True when every call is made in iteration 0 and the later iterations only
   * read them (majority's samples): the problem's chain is then one iteration
   * deep whatever --max-iterations says, and its calls rank so
   * (src/host/calls/call-ranks.ts), behind the chains of runs sharing its gateway.
   */
  upFront?: boolean;
  /**
   * The method's upstream sampling defaults: `temperature` is what a run uses
   * when `--temperature` is not given (0.6 when absent); all of them are
   * recorded in metrics.json's `evaluation.sampling`.
   */
  sampling?: StrategySampling;
  /**
   * The shared loop settings the method reads (N, M, T, ε, θ): what a run's
   * header shows beside the strategy's own flags. Absent: all of them.
   */
  loopSettings?: readonly SharedLoopSetting[];
  /**
   * The completion limits some of its roles' calls are sent below the run's,
   * in words (MAS-TTS's solver and critics: the CEO's budget): what the
   * budget table of `tmas table1` adds to the column's completion limit, so a
   * column that wrote less than the window allows says so. Absent: every call
   * gets the run's limit.
   */
  roleLimits?: string;
  /**
   * The shared loop settings it reads besides `loopSettings` under these options of its own
   * (pacore reads N when --round-widths is empty): `tmas run` refuses a shared flag the method
   * does not read, and the header shows those it does.
   */
  alsoReads?(options: Readonly<Record<string, StrategyOptionValue>>): readonly SharedLoopSetting[];
  /** The completion limit of its non-judge calls when `--completion-max-tokens` is not given (absent: whatever the window leaves). */
  completionMaxTokens?: number;
  /** Its bank's own cap, which `--bank-max-records` does not change (0: every record); absent: the flag's. Recorded in metrics.json's evaluation block. */
  bankMaxRecords?: number;
}

/** A loop setting every strategy is offered: `--n-candidates`, `--n-verifications`, `--max-iterations`, `--epsilon`, `--jaccard-threshold`. */
export type SharedLoopSetting = 'nCandidates' | 'nVerifications' | 'maxIterations' | 'epsilon' | 'jaccardThreshold';

/** Every shared loop setting, in the order a header shows them. */
export const SHARED_LOOP_SETTINGS: readonly SharedLoopSetting[] = ['nCandidates', 'nVerifications', 'maxIterations', 'epsilon', 'jaccardThreshold'];

/** The shared loop settings `strategy` reads under its `options`, in the order a header shows them. */
export function loopSettingsRead(strategy: Pick<Strategy, 'loopSettings' | 'alsoReads'> | undefined, options: Readonly<Record<string, StrategyOptionValue>>): readonly SharedLoopSetting[] {
  // A strategy the registry does not know (a plugin's, an older run's without a name) reads every one.
  if (strategy === undefined) return SHARED_LOOP_SETTINGS;
  const reads = new Set([...(strategy.loopSettings ?? SHARED_LOOP_SETTINGS), ...(strategy.alsoReads?.(options) ?? [])]);
  return SHARED_LOOP_SETTINGS.filter((setting) => reads.has(setting));
}

/** The temperature of a run that gives no `--temperature` and whose strategy declares none. */
export const DEFAULT_TEMPERATURE = 0.6;

/** A strategy option of the settings, or its declared default. */
export function optionOf(settings: LoopSettings, flag: StrategyFlag): StrategyOptionValue {
  return settings.options?.[toOptionName(flag.name)] ?? flag.default;
}

/** The option name of a kebab-case flag name: `max-rounds` → `maxRounds`. */
export function toOptionName(flagName: string): string {
  return flagName.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
