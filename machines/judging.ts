/**
 * The LLM judge's part of the problem actor, as pure helpers: when a problem
 * is judged, and the judge requests of a candidate (judge-stage.ts records the verdicts).
 *
 * A problem is judged when judge passes > 0 and it has a reference: the short
 * answer with `--no-proof`, the reference solution in proof mode. A
 * candidate's passes are requested as soon as its solution arrives; the
 * iteration completes only once they are all in (or failed for good).
 */
import type { Message } from '../src/kernel/protocol.ts';
import { MAX_JUDGE_PASSES } from './roles/judge.role.ts';

/** What the judge needs to know about the problem and the settings. */
export interface JudgeSetup {
  problem: { id: string; question: string; answer?: string; solution?: string };
  settings: { judgePasses?: number; proof?: boolean };
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

/** The judge requests of one candidate whose solution just arrived (none when the problem is not judged). */
export function judgeRequests(
  setup: JudgeSetup & { base: { run: string; problem: string; iteration: number } },
  candidate: { candidate: number; text: string; answer: string | null },
): Message[] {
  const reference = judgeReference(setup);
  if (reference === undefined) return [];
  return Array.from({ length: judgePassesOf(setup) }, (_, pass) => ({
    type: 'judge.requested' as const,
    ...setup.base,
    correlation: `${setup.base.problem}/${setup.base.iteration}/judge/${candidate.candidate}.${pass}`,
    candidate: candidate.candidate,
    pass,
    question: setup.problem.question,
    reference,
    response: setup.settings.proof ? candidate.text : candidate.answer,
  }));
}

/** The candidate and pass of a judge call index (candidate × 100 + pass). */
export function fromJudgeIndex(index: number): { candidate: number; pass: number } {
  return { candidate: Math.floor(index / MAX_JUDGE_PASSES), pass: index % MAX_JUDGE_PASSES };
}
