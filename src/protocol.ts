/**
 * The message protocol: every message exchanged between actors is a member of
 * the `Message` union below. Payloads are plain JSON (no Dates, Maps or class
 * instances) so that the message log can store them and replay can compare them.
 *
 * Types are dot-namespaced by the actor that sends them: `solution.*` comes from
 * the solution role, `problem.*` and `iteration.*` from a problem actor, and so on.
 */

/** Bumped whenever a message shape changes in a way that breaks replay of old logs. */
export const PROTOCOL_VERSION = 1;

/** The agent roles of the TMAS method. */
export const ROLES = ['solution', 'verification', 'summary', 'experience', 'guideline'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The endpoint slots: each role's calls go to one of these (`--base-url`,
 * `--verify-base-url`, …). Roles of other strategies name the slot they use.
 */
export const ENDPOINT_SLOTS = ['solution', 'verification', 'summary', 'experience', 'guideline'] as const;
export type EndpointSlot = (typeof ENDPOINT_SLOTS)[number];

/** Where a candidate's prompt came from (DESIGN.md section 1). */
export type CandidateSource = 'normal' | 'experience' | 'guideline';

/** Fields every message carries. `iteration` is -1 for run-level messages, `problem` is '' there. */
export interface MessageBase {
  run: string;
  problem: string;
  iteration: number;
  /** Ties a reply to its request; deterministic (never random), so replays compare equal. */
  correlation: string;
}

/** Token usage of one completion, as reported by the endpoint. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

/** What a role reply says about the LLM call behind it. */
export interface CallInfo {
  /** Deterministic journal key of the call. */
  key: string;
  usage: Usage;
  finishReason: string;
}

/** One rollout of the previous iteration, as shown to the exploit prompt: R(t-1). */
export interface Rollout {
  candidate: number;
  answer: string | null;
  summary: string;
  score: number | null;
  text: string;
}

/** Where a bank record came from. */
export interface Provenance {
  iteration: number;
  candidate: number | null;
  callKey: string;
}

/** A record of the experience bank: a reliable intermediate conclusion, or a pitfall. */
export interface ExperienceRecord {
  kind: 'conclusion' | 'pitfall';
  text: string;
  provenance: Provenance;
}

/** A record of the guideline bank: a high-level strategy and how it fared. */
export interface GuidelineRecord {
  strategy: string;
  outcome: string;
  provenance: Provenance;
}

/** One verification of a candidate. `score` is null when the output had no parseable score. */
export interface Verification {
  index: number;
  score: number | null;
  analysis: string;
}

/** Everything known about one candidate at the end of an iteration (one line of results.jsonl). */
export interface CandidateResult {
  candidate: number;
  source: CandidateSource;
  answer: string | null;
  verificationScores: Array<number | null>;
  summary: string;
  summaryScore: number | null;
  correct: boolean | null;
  /** Calls behind this candidate that failed for good, e.g. `verification: HTTP 503 …`. */
  failures: string[];
}

type Msg<T extends string, P> = MessageBase & { type: T } & P;

export type RunStarted = Msg<'run.started', { problems: number; simulated: boolean }>;
export type RunCompleted = Msg<'run.completed', { problems: number }>;
export type ProblemStarted = Msg<'problem.started', { fromIteration: number }>;
export type ProblemCompleted = Msg<'problem.completed', { iterations: number }>;

export type SolutionRequested = Msg<
  'solution.requested',
  {
    candidate: number;
    source: CandidateSource;
    question: string;
    /** R(t-1): present for `experience` (exploit) prompts. */
    rollouts: Rollout[];
    /** E(t-1): present for `experience` prompts. */
    experience: ExperienceRecord[];
    /** G(t-1): present for `guideline` (explore) prompts. */
    guidelines: GuidelineRecord[];
  }
>;
export type SolutionCompleted = Msg<
  'solution.completed',
  { candidate: number; source: CandidateSource; text: string; answer: string | null; call: CallInfo }
>;

export type VerificationRequested = Msg<
  'verification.requested',
  { candidate: number; index: number; question: string; solution: string }
>;
export type VerificationCompleted = Msg<
  'verification.completed',
  { candidate: number; index: number; score: number | null; analysis: string; call: CallInfo }
>;

export type SummaryRequested = Msg<
  'summary.requested',
  { candidate: number; question: string; solution: string; verifications: Verification[] }
>;
export type SummaryCompleted = Msg<
  'summary.completed',
  {
    candidate: number;
    summary: string;
    /** The calibrated score: the mean of the candidate's parseable verification scores. */
    score: number | null;
    call: CallInfo;
  }
>;

export type ExperienceRequested = Msg<
  'experience.requested',
  { question: string; rollouts: Rollout[]; bank: ExperienceRecord[] }
>;
export type ExperienceCompleted = Msg<
  'experience.completed',
  {
    records: ExperienceRecord[];
    /** Why the output could not be used, or null. A parse failure is reported, never a silent empty update. */
    parseError: string | null;
    call: CallInfo;
  }
>;

export type GuidelineRequested = Msg<
  'guideline.requested',
  { question: string; rollouts: Rollout[]; bank: GuidelineRecord[] }
>;
export type GuidelineCompleted = Msg<
  'guideline.completed',
  { records: GuidelineRecord[]; parseError: string | null; call: CallInfo }
>;

/** The banks after deduplication: E(t) and G(t). */
export type BankUpdated = Msg<
  'bank.updated',
  {
    experience: { added: number; dropped: number; size: number };
    guideline: { added: number; dropped: number; size: number };
  }
>;

export type IterationCompleted = Msg<'iteration.completed', { candidates: CandidateResult[] }>;

/** A prompt did not fit the context window; `dropped` names the parts left out, oldest and lowest-scored first. */
export type ContextTrimmed = Msg<
  'context.trimmed',
  { role: string; index: number; dropped: string[]; promptTokens: number; budget: number }
>;

/** A call failed for good (after its retries). The problem actor records the failure and goes on. */
export type LlmFailed = Msg<'llm.failed', { role: string; index: number; code: string; error: string }>;

export type Message =
  | RunStarted
  | RunCompleted
  | ProblemStarted
  | ProblemCompleted
  | SolutionRequested
  | SolutionCompleted
  | VerificationRequested
  | VerificationCompleted
  | SummaryRequested
  | SummaryCompleted
  | ExperienceRequested
  | ExperienceCompleted
  | GuidelineRequested
  | GuidelineCompleted
  | BankUpdated
  | IterationCompleted
  | ContextTrimmed
  | LlmFailed;

export type MessageType = Message['type'];

/** Narrows the union to one member by its `type`. */
export type MessageOf<T extends MessageType> = Extract<Message, { type: T }>;

/** An actor address on the bus: `run`, `problem:<id>`, `role:<role>`, or `log` for messages no actor consumes. */
export type Address = 'run' | 'log' | `problem:${string}` | `role:${string}`;

/** A message as it travels on the bus and is stored in the log. */
export interface Envelope<M extends Message = Message> {
  seq: number;
  /** Epoch milliseconds; the only field that may differ between two runs of the same seed. */
  at: number;
  from: Address;
  to: Address;
  message: M;
}
