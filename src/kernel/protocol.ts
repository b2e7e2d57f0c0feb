/**
 * The message protocol: every message exchanged between actors is a member of
 * the `Message` union below. Payloads are plain JSON (no Dates, Maps or class
 * instances) so that the message log can store them and replay can compare them.
 *
 * Types are dot-namespaced by the actor that sends them: `solution.*` comes from
 * the solution role, `problem.*` and `iteration.*` from a problem actor, and so on.
 *
 * A reply (`<role>.completed`) that carries a `parseError` string says that its
 * role could not use the output; so does `output.invalid`. The metrics count
 * both per role (src/observers/role-outputs.ts): a new role that can receive
 * an unusable output reports it one of these two ways, never silently. An
 * optional `parseError` is absent from usable replies, so that they keep the
 * shape they had before the field was added.
 */

/** The endpoint slots (`--base-url`, `--verify-base-url`, …): one table in slots.ts. */
export { ENDPOINT_SLOTS, type EndpointSlot } from './slots.ts';

/** Where a candidate's prompt came from (docs/concepts/tmas-loop.md). */
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

/** A templated system message's droppable values after fitting: how many it had and kept, and the tokens of their texts (workers/tasks.ts). */
export type FittedValues = Record<'values' | 'kept' | 'tokens' | 'keptTokens', number>;

/** What a role reply says about the LLM call behind it; `empty` (absent otherwise) when its text was empty, an empty answer whatever the role. */
export interface CallInfo {
  /** Deterministic journal key of the call. */
  key: string;
  usage: Usage;
  finishReason: string;
  /** Calls whose tokens `usage` sums, when more than one: a reply forced to its end is its cut call and the continuations. */
  calls?: number;
  empty?: true;
}

/** An earlier attempt of a self-refine candidate and the critique it got. */
export interface RefinementStep {
  solution: string;
  critique: string;
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
  /** True when the rule-based grader's verdict was `unsure` (then `correct` is false and a judge, if any, decides); absent otherwise. */
  unsure?: boolean;
  /** The LLM judge's verdicts, one per pass (null: unparseable or failed); null when no judge ran. */
  judge: { verdicts: Array<boolean | null> } | null;
  /** The judge's grade: the mean of its parseable verdicts; null when there is none. Under `ruled`, the rule's grade (1 or 0). */
  correctJudge: number | null;
  /** The judge was not asked, the rule's grade standing (`correctJudge` is it): `--judge-when unsure` left this candidate to the rule-based grader, which was sure, or its reply was cut before its end (no final answer: 0). Absent otherwise. */
  ruled?: true;
  /** It holds a verdict reused from an earlier iteration's identical judge request (machines/judge-stage.ts): it counts in Pass@1, its rule = judge comparison where that was asked. Absent otherwise. */
  reusedVerdict?: true;
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
  { candidate: number; source: CandidateSource; text: string; answer: string | null; parseError?: string; call: CallInfo }
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

export type JudgeRequested = Msg<
  'judge.requested',
  {
    candidate: number;
    pass: number;
    question: string;
    /** The reference: the short answer (--no-proof) or the reference solution (proof mode). */
    reference: string;
    /** What the judge reads of the candidate, the same in every mode and strategy (docs/concepts/shared-grading.md): the final text of its response, after the reasoning, which the judge's prompt bounds in tokens. Never the extracted answer alone. */
    response: string;
    /** The model stopped before its end (finish_reason `length` or `content_filter`): the text is cut, and the judge's prompt says so. */
    cut: boolean;
    /** Present (true) only when the cut was the provider's content filter's: the judge's prompt names the filter, not the length limit. */
    filtered?: true;
  }
>;

/** One judge pass: is the candidate equivalent to the reference? `verdict` is null when the reply had no verdict. */
export type JudgeCompleted = Msg<
  'judge.completed',
  { candidate: number; pass: number; verdict: boolean | null; parseError?: string; call: CallInfo }
>;

/** The banks after deduplication: E(t) and G(t). */
export type BankUpdated = Msg<
  'bank.updated',
  {
    experience: { added: number; dropped: number; size: number };
    guideline: { added: number; dropped: number; size: number };
  }
>;

/** What one iteration did to a problem's banks: records added and dropped, and how many each holds after. */
export type BankStats = Pick<BankUpdated, 'experience' | 'guideline'>;

export type IterationCompleted = Msg<'iteration.completed', { candidates: CandidateResult[] }>;

/** A prompt did not fit the context window; `dropped` names the parts left out, oldest and lowest-scored first. */
export type ContextTrimmed = Msg<
  'context.trimmed',
  {
    role: string;
    index: number;
    dropped: string[];
    promptTokens: number;
    budget: number;
    /** Context-length errors from the endpoint before the prompt fitted (each shrank the window); absent when none. */
    contextErrors?: number;
  }
>;

/** A call failed for good (after its retries). The problem actor records the failure and goes on. */
export type LlmFailed = Msg<'llm.failed', { role: string; index: number; code: string; error: string }>;

/**
 * A completion the role could not use (no parseable score, no summary text,
 * JSON not of the schema, an empty or cut-off answer). `retrying`: the call is
 * asked again (attempt + 1, another seed, with a note on what was wrong);
 * otherwise the reply goes on without it, with the problem recorded. `call`:
 * the attempt's call, paid for: an attempt asked again has no reply of its
 * own, so the metrics count its call and tokens from here (absent in logs
 * written before it was carried).
 */
export type OutputInvalid = Msg<
  'output.invalid',
  { role: string; index: number; attempt: number; reason: string; finishReason: string; empty: boolean; retrying: boolean; call?: CallInfo }
>;

// Baseline strategies (machines/strategies/*): their roles' requests and replies.

/**
 * self-refine: a candidate's own critique of its solution; `score` from a closing `SCORE: s`, or null;
 * `correct`: the critique found no error (its conclusion, the last line before the score, ends with the sentence "It is correct"), upstream's stop.
 */
export type CritiqueRequested = Msg<'critique.requested', { candidate: number; question: string; solution: string }>;
export type CritiqueCompleted = Msg<'critique.completed', { candidate: number; critique: string; score: number | null; correct: boolean; parseError?: string; call: CallInfo }>;
/** self-refine: the rewrite of a solution in the light of its critique; `history`: the candidate's earlier attempts with their critiques, oldest first. */
export type RewriteRequested = Msg<'rewrite.requested', { candidate: number; question: string; solution: string; critique: string; history: RefinementStep[] }>;
export type RewriteCompleted = Msg<'rewrite.completed', { candidate: number; text: string; answer: string | null; parseError?: string; call: CallInfo }>;
/**
 * verify-refine (DeepSeek-Math-V2): a proof written with its self-evaluation, from scratch
 * (`refine` null) or as a refinement of one proof of the pool shown with its ratings.
 */
export type ProverRequested = Msg<'prover.requested', { candidate: number; question: string; refine: { proof: string; ratings: string[] } | null }>;
/**
 * `text`: the proof (the `## Solution` section; the whole reply when `proof` is null);
 * `proof`: null when the reply is unusable as upstream reads it (cut off, or without its two sections);
 * `selfScore`: the last \boxed{} of the self-evaluation (0 when unreadable, as upstream).
 */
export type ProverCompleted = Msg<'prover.completed', { candidate: number; text: string; proof: string | null; selfScore: number; answer: string | null; parseError?: string; call: CallInfo }>;
/** verify-refine: one rating of a proof; `score` is its last \boxed{} (0, 0.5 or 1), null when unreadable. */
export type RaterRequested = Msg<'rater.requested', { candidate: number; index: number; question: string; proof: string }>;
export type RaterCompleted = Msg<'rater.completed', { candidate: number; index: number; score: number | null; rating: string; parseError?: string; call: CallInfo }>;
/** verify-refine-chains: the refinement of a solution using its verifications. */
export type RefineRequested = Msg<'refine.requested', { candidate: number; question: string; solution: string; verifications: Verification[] }>;
export type RefineCompleted = Msg<'refine.completed', { candidate: number; text: string; answer: string | null; parseError?: string; call: CallInfo }>;
/** rse: a rollout sampled with the problem's experience bank in the system prompt. */
export type RolloutRequested = Msg<'rollout.requested', { candidate: number; question: string; experience: ExperienceRecord[] }>;
/** The experience bank a rollout's prompt was given (`held`) and showed once fitted to the window (`shown`), with the tokens of their records' texts. */
export type BankShown = Record<'held' | 'shown' | 'heldTokens' | 'shownTokens', number>;
/**
 * `reasoning`: the server's separate reasoning of the rollout (null when it has none); the distiller reads it, as upstream.
 * `bank`: what its prompt held and showed of the bank; absent without a bank (iteration 0) and in logs of runs made before it was.
 */
export type RolloutCompleted = Msg<'rollout.completed', { candidate: number; text: string; reasoning: string | null; answer: string | null; parseError?: string; bank?: BankShown; call: CallInfo }>;
/** rse: one rollout (its reasoning, then its answer text) distilled into verified propositions and critical pitfalls (JSON); `attempt` counts retries after invalid output. */
export type DistillRequested = Msg<'distill.requested', { candidate: number; attempt: number; question: string; solution: string }>;
export type DistillCompleted = Msg<
  'distill.completed',
  { candidate: number; attempt: number; propositions: string[]; pitfalls: string[]; parseError: string | null; call: CallInfo }
>;
/** mas-ceo: the CEO's plan for a round, already clamped; `parseError` says what was missing from the fixed format. */
export type CeoRequested = Msg<'ceo.requested', { question: string; solution: string | null; advice: string | null }>;
export type CeoCompleted = Msg<
  'ceo.completed',
  { decision: 'continue' | 'stop'; experts: number; direction: string; budget: number; parseError: string | null; call: CallInfo }
>;
/** mas-ceo: the expert recruiter's descriptions, exactly `experts` of them (padded with generalists, `parseError` saying so, when the reply gave fewer). */
export type RecruiterRequested = Msg<'recruiter.requested', { question: string; experts: number; direction: string }>;
export type RecruiterCompleted = Msg<'recruiter.completed', { experts: string[]; parseError?: string; call: CallInfo }>;
/** mas-ceo: the solver's (re)written solution at inner turn `turn`; `budget`: the CEO's token budget, the call's completion limit. */
export type SolverRequested = Msg<
  'solver.requested',
  { turn: number; question: string; expert: string; direction: string; budget: number; previous: string | null; critiques: string[] }
>;
export type SolverCompleted = Msg<'solver.completed', { turn: number; text: string; answer: string | null; parseError?: string; call: CallInfo }>;
/**
 * mas-ceo: one critic's review at inner turn `turn`, ending with agree (its own final answer is the
 * solution's) or disagree; `parseError` when it stated neither (then its vote is missing), absent otherwise,
 * so that the logs of runs made before it replay unchanged; `budget`: the CEO's token budget, the
 * call's completion limit.
 */
export type CriticRequested = Msg<'critic.requested', { turn: number; critic: number; question: string; expert: string; solution: string; budget: number }>;
export type CriticCompleted = Msg<'critic.completed', { turn: number; critic: number; agree: boolean; critique: string; parseError?: string; call: CallInfo }>;
/** mas-ceo: the evaluator's verdict on the round's solution (null when unparseable, `parseError` saying so; absent otherwise, as the critic's) and its advice. */
export type EvaluatorRequested = Msg<'evaluator.requested', { question: string; solution: string }>;
export type EvaluatorCompleted = Msg<'evaluator.completed', { correct: boolean | null; advice: string; parseError?: string; call: CallInfo }>;

/** pacore: one response of a round; round 0 asks the problem alone, later rounds with the previous round's answers as references. */
export type SynthesisRequested = Msg<'synthesis.requested', { candidate: number; question: string; references: string[] }>;
export type SynthesisCompleted = Msg<'synthesis.completed', { candidate: number; text: string; answer: string | null; parseError?: string; call: CallInfo }>;

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
  | JudgeRequested
  | JudgeCompleted
  | BankUpdated
  | IterationCompleted
  | ContextTrimmed
  | LlmFailed
  | OutputInvalid
  | CritiqueRequested
  | CritiqueCompleted
  | RewriteRequested
  | RewriteCompleted
  | RefineRequested
  | RefineCompleted
  | ProverRequested
  | ProverCompleted
  | RaterRequested
  | RaterCompleted
  | RolloutRequested
  | RolloutCompleted
  | DistillRequested
  | DistillCompleted
  | CeoRequested
  | CeoCompleted
  | RecruiterRequested
  | RecruiterCompleted
  | SolverRequested
  | SolverCompleted
  | CriticRequested
  | CriticCompleted
  | EvaluatorRequested
  | EvaluatorCompleted
  | SynthesisRequested
  | SynthesisCompleted;

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
