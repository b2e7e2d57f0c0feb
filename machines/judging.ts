/**
 * The LLM judge's part of the problem actor, as pure helpers: when a problem
 * is judged, which candidates go to the judge, what it reads of each, and the
 * judge requests of a candidate (judge-stage.ts records the verdicts).
 *
 * A problem is judged when judge passes > 0 and it has a reference: the short
 * answer with `--no-proof`, the reference solution in proof mode. A
 * candidate's passes are requested as soon as its solution arrives; the
 * iteration completes only once they are all in (or failed for good). Under
 * `--judge-when unsure` a candidate the rule-based grader is sure of gets no
 * pass: the rule's verdict is its grade (`ruled`).
 *
 * The judge reads one view of every response, whatever the strategy and the
 * mode (docs/concepts/shared-grading.md): its final text, what follows the
 * reasoning, bounded in tokens by the judge's prompt (JUDGE_VIEW_TOKENS in
 * roles/judge.role.ts), and whether the model was cut off at its length
 * limit. With `--no-proof` the judge finds the final answer in that text
 * itself: an extracted answer can be an intermediate value ("12 solutions,
 * attained when n = 5" extracts `n = 5`) or one part of several, so it is never
 * what the judge reads.
 */
import { afterReasoning } from '../src/grader/index.ts';
import type { Message } from '../src/kernel/protocol.ts';
import type { JudgeWhen } from './contract.ts';
import { MAX_JUDGE_PASSES } from './roles/judge.role.ts';
import { auditedByJudge } from './judge-audit.ts';
import { ruleGrade, type RuleGraded } from './rule-grade.ts';

/** What the judge needs to know about the problem and the settings. */
export interface JudgeSetup {
  problem: { id: string; question: string; answer?: string; solution?: string };
  settings: { judgePasses?: number; proof?: boolean; judgeWhen?: JudgeWhen; judgeAudit?: number; seed?: number };
}

/** What decides whether a candidate goes to the judge: what the rule reads of it, and whether its reply was cut at the length limit. */
interface JudgedCandidate extends RuleGraded {
  candidate: number;
  cut: boolean;
}

/** The reference the judge compares against, or undefined when the problem is not judged. */
export function judgeReference({ problem, settings }: JudgeSetup): string | undefined {
  if ((settings.judgePasses ?? 0) <= 0) return undefined;
  return settings.proof ? problem.solution : problem.answer;
}

/** Judge passes per candidate for this problem: 0 when it is not judged. */
export function judgePassesOf(setup: JudgeSetup): number {
  return judgeReference(setup) === undefined ? 0 : Math.min(setup.settings.judgePasses ?? 0, MAX_JUDGE_PASSES);
}

/**
 * Whether `--judge-when unsure` lets the rule-based grader decide this
 * problem's candidates where it is sure. Never in proof mode, where the rule
 * grades nothing, nor for a problem without a short answer or not judged.
 */
function ruleMayDecide(setup: JudgeSetup): boolean {
  const { settings, problem } = setup;
  return settings.judgeWhen === 'unsure' && settings.proof !== true && problem.answer !== undefined && judgePassesOf(setup) > 0;
}

/**
 * Whether the judge is not asked about this candidate, the rule's verdict
 * standing for it. A reply cut at its length limit or by a content filter,
 * always, in every mode: it has no final answer (no method takes one from it,
 * answerFields in reply.ts), and a judge told to grade "what it does state"
 * credited the box it wrote before the cut, so one candidate was both unusable
 * and right, and a model that fills its window moved the table through the
 * judge. Else, with `--judge-when unsure`: it has an extracted answer that the
 * grader, reading the question and the response (rule-grade.ts), finds equal
 * or different with confidence.
 */
export function ruledByRule(setup: JudgeSetup, candidate: JudgedCandidate, iteration: number): boolean {
  if (candidate.cut) return true;
  const reference = setup.problem.answer;
  if (!ruleMayDecide(setup) || reference === undefined) return false;
  const grade = ruleGrade(candidate, reference, setup.problem.question);
  if (grade === null || grade.verdict === 'unsure') return false;
  // The audit (--judge-audit): a seeded share of the candidates the rule is sure of goes to the judge too.
  const audit = setup.settings.judgeAudit ?? 0;
  return audit === 0 || !auditedByJudge(setup.settings.seed ?? 0, `${setup.problem.id}/${iteration}/${candidate.candidate}`, audit);
}

/** Judge passes for one candidate: the problem's, or 0 when the rule's verdict stands for it. */
export function judgePassesFor(setup: JudgeSetup & { base: { iteration: number } }, candidate: JudgedCandidate): number {
  return ruledByRule(setup, candidate, setup.base.iteration) ? 0 : judgePassesOf(setup);
}

/**
 * The text of a response after its reasoning (the grader's afterReasoning:
 * what follows its last `</think>`, else all of it), without the blank lines
 * around it (a server that splits off a leading reasoning block leaves the
 * newline after it).
 */
export function finalText(text: string): string {
  return afterReasoning(text).trim();
}

/**
 * What the judge reads of a candidate, in every mode: its final text, whether
 * the model was cut off before its end, and, only for a cut by the provider's
 * content filter, that it was (the request of every other candidate, and so
 * its prompt and its verdict-reuse key, is as it was before the filter was told).
 */
export function judgeViewOf(candidate: { text: string; cut: boolean; filtered: boolean }): { response: string; cut: boolean; filtered?: true } {
  return { response: finalText(candidate.text), cut: candidate.cut, ...(candidate.cut && candidate.filtered ? { filtered: true as const } : {}) };
}

/** The judge requests of one candidate whose solution just arrived (none when the problem is not judged, or the rule's verdict stands). */
export function judgeRequests(
  setup: JudgeSetup & { base: { run: string; problem: string; iteration: number } },
  candidate: { candidate: number; text: string; answer: string | null; cut: boolean; filtered: boolean },
): Message[] {
  const reference = judgeReference(setup);
  if (reference === undefined) return [];
  const view = judgeViewOf(candidate);
  return Array.from({ length: judgePassesFor(setup, candidate) }, (_, pass) => ({
    type: 'judge.requested' as const,
    ...setup.base,
    correlation: `${setup.base.problem}/${setup.base.iteration}/judge/${candidate.candidate}.${pass}`,
    candidate: candidate.candidate,
    pass,
    question: setup.problem.question,
    reference,
    ...view,
  }));
}

/** The candidate and pass of a judge call index (candidate × 100 + pass). */
export function fromJudgeIndex(index: number): { candidate: number; pass: number } {
  return { candidate: Math.floor(index / MAX_JUDGE_PASSES), pass: index % MAX_JUDGE_PASSES };
}
