/**
 * TTS metrics as a fold over the message stream: a bus subscriber that keeps
 * small per-(problem, iteration) figures, never the messages themselves.
 *
 * Per iteration (as the paper measures it): Pass@1 = mean correctness over the N
 * candidates, averaged over problems; majority vote; best-verified (the
 * candidate with the highest calibrated score); oracle pass@N (any correct).
 *
 * Grades. A candidate has a rule-based grade (`correct`, the grader against
 * the reference answer) and, when the LLM judge ran, a judge grade
 * (`correctJudge`, the mean of its passes' verdicts). When a problem was
 * judged, the judge grade is the headline one: Pass@1 is the mean of
 * `correctJudge` over candidates (= over candidates × passes when every pass
 * gave a verdict). For majority, best-verified and pass@N an answer counts as
 * correct when more than half of the judge passes over all candidates giving
 * that answer (or one the grader finds equal) said so: one noisy pass on one candidate does not
 * decide an answer. Both grades are kept (`pass1Rule`, `pass1Judge`); a
 * candidate is a disagreement when its rule-based grade differs from the
 * judge's (more than half of its own passes; a tie counts as not equivalent).
 *
 * Flips: a problem's answer at iteration t is its majority-vote answer (and,
 * counted apart, its best-verified answer). A flip is a change of that
 * answer's correctness between iterations t-1 and t of the same problem:
 * right→wrong or wrong→right, counted at iteration t.
 */
import { answerClasses } from './answer-classes.ts';
import type { BankShown, CandidateResult } from '../kernel/protocol.ts';
import type { FaultCounts } from './fault-counts.ts';
import type { RoleOutputs } from './role-outputs.ts';

/** Right→wrong and wrong→right changes of an answer's correctness between consecutive iterations. */
export interface Flips {
  rightToWrong: number;
  wrongToRight: number;
}

/** Figures of one iteration, over the problems that have a reference answer. */
export interface IterationMetrics {
  iteration: number;
  /** Problems that finished this iteration. */
  problems: number;
  /** Problems among them with a grade (the denominators below). */
  graded: number;
  /** The headline Pass@1: the judge's when the run has a judge (over the candidates it judged), else the rule-based one. */
  pass1: number | null;
  /** Which grade `pass1` and the majority, best-verified and pass@N shares are: never a mix. */
  grade: 'judge' | 'rule';
  /** Share of the candidates with a grade under judge grading (a pass with a verdict, the rule's where `--judge-when unsure` left it, or no answer at all); null without a judge. */
  judgeCoverage: number | null;
  /** Share of the candidates sent to the LLM judge: 1 unless `--judge-when unsure` left some to the rule-based grader; null without a judge. */
  judgeAsked: number | null;
  /** Pass@1 by the rule-based grader alone. */
  pass1Rule: number | null;
  /** Pass@1 by the LLM judge alone (mean over candidates × passes); null when no judge ran. */
  pass1Judge: number | null;
  majority: number | null;
  bestVerified: number | null;
  oracle: number | null;
  meanScore: number | null;
  /** Candidates graded by both the rule and the judge, and how many of them the two grades disagree on. */
  judged: number;
  disagreements: number;
  /** Of those, the ones the rule was sure of (all under --judge-when always; the audited ones under unsure), a final answer read, and their disagreements: the rule's accuracy where it decides alone. */
  sureJudged: number;
  sureDisagreements: number;
  /** Candidates left out of those counts because their verdict was reused from an earlier iteration (counted there, once); absent in runs made before. */
  reusedVerdicts?: number;
  /** Candidates the rule-based grader was unsure of (counted as not correct by the rule; the judge decides when it ran). */
  unsure: number;
  /** Correctness changes of the majority-vote and the best-verified answers since the previous iteration. */
  flips: { majority: Flips; bestVerified: Flips };
  experienceBank: number;
  guidelineBank: number;
  /** Mean prompt tokens of the exploit prompts (R(t-1) and E(t-1)); null when none ran. How much of the window the banks take. */
  exploitPromptTokens: number | null;
  /**
   * RSE: the experience bank its rollouts' prompts held and showed once fitted to the window, and the
   * tokens of those records' texts, each a mean over the iteration's rollouts; null when none had a bank.
   */
  rseBank: BankShown | null;
  tokens: Record<string, { prompt: number; completion: number }>;
  calls: number;
  failures: number;
  trims: number;
  /** Truncated, empty and unusable answers, context-length errors and parse retries. */
  faults: FaultCounts;
  /** Per role: the completions it received and how many of them it could not use (role-outputs.ts). */
  outputsByRole: Record<string, RoleOutputs>;
  /** Seconds from the iteration's first message to its last, over all problems. */
  wallSeconds: number;
  /** Mean seconds one problem spent on this iteration. */
  problemSeconds: number | null;
}

/** The figures of one problem's iteration (small: no texts beyond the majority answer). */
export interface ProblemIteration {
  pass1: number | null;
  /** The judge ran on this problem's candidates (its verdicts may still have failed). */
  judgeRan: boolean;
  /** Candidates with a judge grade, of `candidates`. */
  judgeCovered: number;
  /** Candidates sent to the judge (not `ruled`), of `candidates`. */
  judgeAsked: number;
  candidates: number;
  pass1Rule: number | null;
  pass1Judge: number | null;
  majority: boolean | null;
  bestVerified: boolean | null;
  oracle: boolean | null;
  meanScore: number | null;
  judged: number;
  disagreements: number;
  sureJudged: number;
  sureDisagreements: number;
  /** Candidates holding a verdict reused from an earlier iteration: graded, but not compared again. */
  reusedVerdicts: number;
  /** Candidates the rule-based grader was unsure of. */
  unsure: number;
  /** The majority-vote answer, as given by its first candidate. */
  answer: string | null;
}

/** The mean of the values; null when there are none. */
export function mean(values: number[]): number | null {
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Each candidate's answer class (null without an answer): what a vote counts, answers the grader finds equal as one (answer-classes.ts). */
export function answerKeys(candidates: CandidateResult[]): Map<CandidateResult, string | null> {
  return answerClasses(candidates, (candidate) => candidate.answer);
}

/** The candidate chosen by majority vote over answer classes (`keys`); ties go to the higher total score, then the lower index. */
export function majorityCandidate(candidates: CandidateResult[], keys = answerKeys(candidates)): CandidateResult | null {
  const groups = new Map<string, { votes: number; score: number; first: CandidateResult }>();
  for (const candidate of candidates) {
    const key = keys.get(candidate) ?? null;
    if (key === null) continue;
    const group = groups.get(key) ?? { votes: 0, score: 0, first: candidate };
    group.votes++;
    group.score += candidate.summaryScore ?? 0;
    groups.set(key, group);
  }
  let best: { votes: number; score: number; first: CandidateResult } | null = null;
  for (const group of groups.values()) {
    if (!best || group.votes > best.votes || (group.votes === best.votes && group.score > best.score)) best = group;
  }
  return best?.first ?? null;
}

/**
 * The candidate with an answer and the highest calibrated score (lowest index on ties); null when no
 * candidate with an answer has a score. A candidate no score ranked is never the verifier's pick.
 */
export function bestVerifiedCandidate(candidates: CandidateResult[]): CandidateResult | null {
  let best: CandidateResult | null = null;
  for (const candidate of candidates) {
    if (candidate.answer === null || candidate.summaryScore === null) continue;
    if (!best || candidate.summaryScore > (best.summaryScore ?? -Infinity)) best = candidate;
  }
  return best;
}

/** The judge's yes/no for a candidate: more than half its passes said equivalent. */
function judgeSays(candidate: CandidateResult): boolean | null {
  return candidate.correctJudge === null || candidate.correctJudge === undefined ? null : candidate.correctJudge > 0.5;
}

/**
 * The judge's yes/no for the answer of `chosen`: more than half of the verdicts on every
 * candidate that gave the same answer (`keys`: each candidate's answer class, answer-classes.ts).
 */
function judgeSaysOfAnswer(candidates: CandidateResult[], keys: Map<CandidateResult, string | null>, chosen: CandidateResult): boolean | null {
  const key = keys.get(chosen) ?? null;
  const same = key === null ? [chosen] : candidates.filter((c) => keys.get(c) === key);
  const value = mean(same.flatMap((c) => (c.correctJudge == null ? [] : [c.correctJudge])));
  return value === null ? null : value > 0.5;
}

/**
 * Whether the answer of `chosen` is right: under the judge (`judgeGraded`), by more than half of the verdicts
 * on every candidate that gave it; else by the rule-based grade. No candidate is not right.
 */
export function answerRight(candidates: CandidateResult[], keys: Map<CandidateResult, string | null>, judgeGraded: boolean, chosen: CandidateResult | null): boolean {
  if (chosen === null) return false;
  return judgeGraded ? judgeSaysOfAnswer(candidates, keys, chosen) === true : chosen.correct === true;
}

/** The metrics of one problem's iteration. */
export function scoreIteration(candidates: CandidateResult[]): ProblemIteration {
  const scores = candidates.flatMap((c) => (c.summaryScore === null ? [] : [c.summaryScore]));
  const ruleGraded = candidates.length > 0 && candidates.every((c) => c.correct !== null);
  // When the judge ran, its grade is the problem's, over the candidates it graded: a problem whose judge calls
  // all failed has no Pass@1 (its coverage says so), never the rule grade or 0 in its place.
  const judgeRan = candidates.length > 0 && candidates.every((c) => c.judge != null);
  const judgeCovered = judgeRan ? candidates.filter((c) => c.correctJudge != null).length : 0;
  const judgeGraded = judgeRan && judgeCovered > 0;
  const pass1Rule = ruleGraded ? candidates.filter((c) => c.correct).length / candidates.length : null;
  const pass1Judge = judgeGraded ? mean(candidates.flatMap((c) => (c.correctJudge == null ? [] : [c.correctJudge]))) : null;
  // A candidate the rule graded for the judge (`ruled`) agrees with itself: only the judge's own verdicts are compared,
  // each once: a candidate carried with a reused verdict was compared in the iteration that asked.
  const both = candidates.filter((c) => c.correct !== null && c.ruled !== true && c.reusedVerdict !== true && judgeSays(c) !== null);
  // A candidate without a final answer gave the rule nothing to compare: its "wrong" is its reply's format, not a sure
  // grade, and counted as sure it made every answerless reply the judge also failed an agreement (rule = judge rose with
  // --sim-break-formats). It stays in `judged` and `disagreements`, where a judge that finds an answer the rule missed shows.
  const sure = both.filter((c) => c.unsure !== true && c.answer !== null);
  const keys = answerKeys(candidates);
  const primary = (c: CandidateResult | null): boolean => answerRight(candidates, keys, judgeGraded, c);
  const majority = majorityCandidate(candidates, keys);
  const verifiedPick = bestVerifiedCandidate(candidates);
  const figures = {
    judgeRan,
    judgeCovered,
    judgeAsked: judgeRan ? candidates.filter((c) => c.ruled !== true).length : 0,
    candidates: candidates.length,
    pass1Rule,
    pass1Judge,
    meanScore: mean(scores),
    judged: both.length,
    disagreements: both.filter((c) => c.correct !== judgeSays(c)).length,
    sureJudged: sure.length,
    sureDisagreements: sure.filter((c) => c.correct !== judgeSays(c)).length,
    reusedVerdicts: candidates.filter((c) => c.reusedVerdict === true).length,
    unsure: candidates.filter((c) => c.unsure === true).length,
    answer: majority?.answer ?? null,
  };
  if (judgeRan ? !judgeGraded : !ruleGraded) return { ...figures, pass1: null, majority: null, bestVerified: null, oracle: null };
  return {
    ...figures,
    pass1: judgeGraded ? pass1Judge : pass1Rule,
    majority: primary(majority),
    // No usable score on a candidate with an answer (a strategy without verifiers, every verification unusable, or only
    // answerless candidates scored): nothing was verified to pick the candidate, and the problem is left out, not a miss.
    bestVerified: verifiedPick === null ? null : primary(verifiedPick),
    oracle: candidates.some((c) => primary(c)),
  };
}

/** Adds the flip between two consecutive correctness values of one answer. */
export function countFlip(flips: Flips, before: boolean | null | undefined, after: boolean | null): void {
  if (before === null || before === undefined || after === null || before === after) return;
  if (before) flips.rightToWrong++;
  else flips.wrongToRight++;
}
