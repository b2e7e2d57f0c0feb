/**
 * The judge as a grading stage of the problem machine: every strategy's
 * candidates go to the LLM judge for the configured passes before their
 * iteration is saved. Pure helpers over the stage of one iteration.
 *
 * One rule for reusing a verdict, the same for every strategy
 * (docs/concepts/shared-grading.md, `evaluation.judge.verdictReuse` in
 * metrics.json): a pass's verdict is reused only when the judge request would
 * be the same as one already answered: the same candidate and pass, the same
 * judge prompt (problem, reference, the response's final text as the judge
 * sees it, and whether it was cut at the length limit) and the same response
 * text; only the iteration it is asked in differs. Anything else
 * is judged afresh. So `majority`'s growing sample prefixes or a stopped
 * `mas-ceo` problem keep their verdicts, and a rewritten response is judged
 * again even when its extracted answer did not change (the judge reads the
 * text, never the answer alone). A pass that gave no verdict keeps none: asked
 * again with each iteration that carries its candidate, it had as many more
 * chances at one, and `majority`'s share judged grew with T where a method
 * whose candidates are new each iteration got one. A pass whose call failed
 * for good (no reply at all) is asked again.
 *
 * The rule is applied when the iteration's stage starts, once every earlier
 * iteration's verdicts are in, so the calls a run makes do not depend on the
 * order replies arrive in. A program that judges early (TMAS, as each solution
 * arrives) sends a request at once unless an identical one was asked before;
 * such a pass waits for the stage, which reuses that verdict or asks again.
 */
import { hashOf } from '../src/kernel/prng.ts';
import type { CandidateResult, Message, MessageOf } from '../src/kernel/protocol.ts';
import type { ProblemInput } from './contract.ts';
import { judgeGradeOf } from './judge-grade.ts';
import { judgePassesOf, judgeRequests, ruledByRule } from './judging.ts';

/**
 * The verdict-reuse rule, as metrics.json's `evaluation.judge.verdictReuse`
 * states it: `identical-request-or-no-verdict`, a verdict is reused only for a
 * judge request identical to one answered before (same candidate, pass, prompt
 * and response text), and so is a reply's lack of one. Runs made before the
 * lack was kept state `identical-request`: their passes without a verdict were
 * asked again with each later iteration, so a report sets them apart.
 */
export const VERDICT_REUSE = 'identical-request-or-no-verdict';

/** The name of a verdict-reuse rule. */
export type VerdictReuse = typeof VERDICT_REUSE;

/**
 * What every strategy hands the judge stage of a candidate: its response text
 * (null: none), the answer extracted from it (only the hybrid grading's rule
 * reads it), and whether the model was cut off before its end, and whether by
 * the provider's content filter rather than its length limit.
 */
export interface JudgedResponse {
  candidate: number;
  text: string | null;
  answer: string | null;
  cut: boolean;
  filtered: boolean;
}

/** The judge stage of one iteration. */
export interface JudgeStage {
  /** The iteration it grades (-1: none yet). */
  iteration: number;
  /** Verdicts per candidate and pass (null: none yet, no verdict, or a failed call). */
  verdicts: Record<number, Array<boolean | null>>;
  /** Candidates with no response: wrong without asking. */
  silent: number[];
  /** Candidates `--judge-when unsure` leaves to the rule, which is sure of them: no pass, the rule's grade. */
  ruled: number[];
  /** Passes asked for and not yet answered. */
  pending: number;
  /** The request key of each candidate's passes, by pass. */
  keys: Record<number, string[]>;
  /** Passes whose identical request was asked before: the stage reuses its verdict or asks again. */
  deferred: Record<number, number[]>;
  /** Judge calls that failed for good, by candidate: recorded in its result, never hidden. */
  failures: Record<number, string[]>;
  /**
   * Candidates holding a verdict reused from an earlier iteration's identical request: their result
   * says so, so the rule = judge figures count that verdict once, where it was asked, not again with
   * each iteration that carries the candidate (a stopped problem, an unchanged rewrite, majority's pool).
   */
  reused: number[];
}

/** A judge request answered without a verdict: it keeps none, as its repeats do. */
export const NO_VERDICT = 'none';

/**
 * Every judge request a problem has made, by request key: its verdict once
 * one is in, NO_VERDICT when its reply gave none, null while it is out or
 * when its call failed for good.
 */
export type AskedRequests = Readonly<Record<string, boolean | null | typeof NO_VERDICT>>;

/** What an iteration stores of its judge requests, by request key: the verdict, or null for a reply that gave none. */
export type StoredVerdicts = Record<string, boolean | null>;

/** A stage with nothing asked yet. */
export function idleJudgeStage(iteration = -1): JudgeStage {
  return { iteration, verdicts: {}, silent: [], ruled: [], pending: 0, keys: {}, deferred: {}, failures: {}, reused: [] };
}

/**
 * The verdicts a stage holds, by request key (null: its reply gave none):
 * what its iteration adds to the problem's registry `asked`. Stored with the
 * iteration, so a resume knows them again and reuses a verdict, or its lack,
 * exactly where the run, uninterrupted, would have.
 */
export function stageVerdicts(stage: JudgeStage, asked: AskedRequests): StoredVerdicts {
  const verdicts: StoredVerdicts = {};
  for (const [candidate, keys] of Object.entries(stage.keys)) {
    keys.forEach((key, pass) => {
      const verdict = stage.verdicts[Number(candidate)]?.[pass];
      if (typeof verdict === 'boolean') verdicts[key] = verdict;
      else if (asked[key] === NO_VERDICT) verdicts[key] = null;
    });
  }
  return verdicts;
}

/** The reuse key of a judge request: everything the judge is sent and the response it is about, never the iteration. */
function requestKey(request: MessageOf<'judge.requested'>, text: string): string {
  const { iteration: _iteration, correlation: _correlation, ...asked } = request;
  return hashOf({ asked, text }, 32);
}

/** The stage of `iteration`: `stage` when it is that iteration's, else a fresh one. */
export function stageOf(stage: JudgeStage, iteration: number): JudgeStage {
  return stage.iteration === iteration ? stage : idleJudgeStage(iteration);
}

/** The judge requests of a candidate with a response, each with its reuse key. */
function requestsOf(input: ProblemInput, iteration: number, response: JudgedResponse & { text: string }): Array<{ message: MessageOf<'judge.requested'>; key: string }> {
  const base = { run: input.run, problem: input.problem.id, iteration };
  const requests = judgeRequests({ problem: input.problem, settings: input.settings, base }, response);
  return requests.flatMap((message) => (message.type === 'judge.requested' ? [{ message, key: requestKey(message, response.text) }] : []));
}

/**
 * Notes that `candidate` holds a verdict asked in an earlier iteration (once, however many of its
 * passes do). A verdict learned in this run was asked in an earlier iteration, the stage's own being
 * asked once; one stored before a resume was asked in the first iteration that stored it, which
 * is this one when a baseline starts again at 0 and meets its own iteration's verdicts.
 */
function markReused(stage: JudgeStage, input: ProblemInput, key: string, candidate: number): void {
  const stored = Object.entries(input.start.judged ?? {}).flatMap(([iteration, verdicts]) => (key in verdicts ? [Number(iteration)] : []));
  if (stored.length > 0 && Math.min(...stored) >= stage.iteration) return;
  if (!stage.reused.includes(candidate)) stage.reused.push(candidate);
}

/**
 * The verdict the stored run holds for an identical request (NO_VERDICT: its reply gave none), at
 * whatever iteration it stored it, when this run has not asked it. A resumed baseline starts again
 * at 0 and learns the stored verdicts as it goes; one whose iterations are cut otherwise than the
 * stored run's (majority's sample prefixes under a larger --max-iterations) meets a sample at
 * another iteration than the stored run judged it at, under another seed that no journal entry
 * answers (nor on the next resume, the sample then stored where no call of it was made): asked
 * again, its passes were paid twice and drew new verdicts for the same text, and an extended
 * table's MV@k moved with no new sample. A verdict stored at this very iteration is the one its
 * journaled call would give back.
 */
function storedVerdict(input: ProblemInput, key: string): boolean | typeof NO_VERDICT | undefined {
  for (const verdicts of Object.values(input.start.judged ?? {})) if (key in verdicts) return verdicts[key] ?? NO_VERDICT;
  return undefined;
}

/** The outcome of asking for responses to be judged: the stage and the registry after it, and the requests to post. */
export interface Asked {
  stage: JudgeStage;
  asked: AskedRequests;
  post: Message[];
}

/**
 * Asks for the passes of `responses` that the stage does not have yet.
 * `early`: the iteration is still running, so a pass whose identical request
 * was asked before waits for the stage (its verdict may still be out).
 */
export function judgeResponses(start: Asked, input: ProblemInput, responses: JudgedResponse[], early: boolean): Asked {
  const stage: JudgeStage = {
    ...start.stage,
    verdicts: { ...start.stage.verdicts },
    keys: { ...start.stage.keys },
    deferred: { ...start.stage.deferred },
    silent: [...start.stage.silent],
    ruled: [...start.stage.ruled],
    reused: [...start.stage.reused],
  };
  const asked: Record<string, AskedRequests[string]> = { ...start.asked };
  const post: Message[] = [...start.post];
  for (const response of responses) {
    if (stage.verdicts[response.candidate] !== undefined || stage.silent.includes(response.candidate)) continue;
    if (response.text === null) {
      stage.silent.push(response.candidate);
      continue;
    }
    if (ruledByRule(input, response, stage.iteration)) stage.ruled.push(response.candidate);
    const requests = requestsOf(input, stage.iteration, { ...response, text: response.text });
    const verdicts: Array<boolean | null> = [];
    const deferred: number[] = [];
    requests.forEach(({ message, key }, pass) => {
      const stored = asked[key] === undefined ? storedVerdict(input, key) : undefined;
      // First shown in this iteration of this run: the verdict counts here, not as one reused.
      if (stored !== undefined) asked[key] = stored;
      const known = asked[key];
      verdicts.push(typeof known === 'boolean' ? known : null);
      if (typeof known === 'boolean') {
        if (stored === undefined) markReused(stage, input, key, response.candidate);
        return;
      }
      if (known === NO_VERDICT) return;
      if (known === null && early) {
        deferred.push(pass);
        return;
      }
      asked[key] = null;
      stage.pending++;
      post.push(message);
    });
    stage.verdicts[response.candidate] = verdicts;
    stage.keys[response.candidate] = requests.map(({ key }) => key);
    if (deferred.length > 0) stage.deferred[response.candidate] = deferred;
  }
  return { stage, asked, post };
}

/**
 * Settles the passes that waited for the stage: every earlier iteration's
 * verdicts are in now, so each reuses its identical request's verdict (or its
 * lack of one), or is asked again when that request's call failed for good.
 */
export function settleDeferred(start: Asked, input: ProblemInput, responses: JudgedResponse[]): Asked {
  const stage: JudgeStage = { ...start.stage, verdicts: { ...start.stage.verdicts }, deferred: {}, reused: [...start.stage.reused] };
  const asked: Record<string, AskedRequests[string]> = { ...start.asked };
  const post: Message[] = [...start.post];
  for (const [candidate, passes] of Object.entries(start.stage.deferred).map(([c, p]) => [Number(c), p] as const)) {
    const response = responses.find((r) => r.candidate === candidate);
    if (response === undefined || response.text === null) continue;
    const requests = requestsOf(input, stage.iteration, { ...response, text: response.text });
    const verdicts = [...(stage.verdicts[candidate] ?? [])];
    for (const pass of passes) {
      const request = requests[pass];
      if (request === undefined) continue;
      const known = asked[request.key];
      if (typeof known === 'boolean') {
        verdicts[pass] = known;
        markReused(stage, input, request.key, candidate);
        continue;
      }
      if (known === NO_VERDICT) continue;
      asked[request.key] = null;
      stage.pending++;
      post.push(request.message);
    }
    stage.verdicts[candidate] = verdicts;
  }
  return { stage, asked, post };
}

/** Records one pass's verdict (null: none, or a failed call with its `failure`), and learns it, or a reply's lack of one, for later iterations. */
export function recordVerdict(start: { stage: JudgeStage; asked: AskedRequests }, reply: { candidate: number; pass: number; verdict: boolean | null; failure?: string }): { stage: JudgeStage; asked: AskedRequests } {
  const { stage } = start;
  const verdicts = [...(stage.verdicts[reply.candidate] ?? [])];
  verdicts[reply.pass] = reply.verdict;
  const failures = reply.failure === undefined ? stage.failures : { ...stage.failures, [reply.candidate]: [...(stage.failures[reply.candidate] ?? []), reply.failure] };
  const key = stage.keys[reply.candidate]?.[reply.pass];
  const learned: boolean | typeof NO_VERDICT | null = reply.verdict ?? (reply.failure === undefined ? NO_VERDICT : null);
  const asked = key === undefined || learned === null ? start.asked : { ...start.asked, [key]: learned };
  return { stage: { ...stage, verdicts: { ...stage.verdicts, [reply.candidate]: verdicts }, failures, pending: Math.max(0, stage.pending - 1) }, asked };
}

/**
 * The candidates with their judge grade (judge-grade.ts): every pass's verdict and their mean; the
 * rule's grade for a candidate the rule decides under `--judge-when unsure`; a candidate without a
 * response is wrong.
 */
export function gradeCandidates(candidates: CandidateResult[], stage: JudgeStage, input: ProblemInput): CandidateResult[] {
  const passes = judgePassesOf(input);
  return candidates.map((result): CandidateResult => {
    const failures = stage.failures[result.candidate] ?? [];
    const withFailures = failures.length === 0 ? {} : { failures: [...result.failures, ...failures] };
    const verdicts = Array.from({ length: passes }, (_, pass) => stage.verdicts[result.candidate]?.[pass] ?? null);
    const answered = !stage.silent.includes(result.candidate);
    const reused = stage.reused.includes(result.candidate) ? { reusedVerdict: true as const } : {};
    return { ...result, ...judgeGradeOf({ answered, correct: result.correct, ruled: answered && stage.ruled.includes(result.candidate) }, verdicts), ...withFailures, ...reused };
  });
}
