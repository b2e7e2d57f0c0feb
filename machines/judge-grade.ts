/**
 * A candidate's judge grade from its verdicts, the same for TMAS
 * (candidates.ts) and the baselines' judge stage (judge-stage.ts).
 */
import type { CandidateResult } from '../src/kernel/protocol.ts';

/**
 * The judge's part of a candidate's result line from its verdicts: their
 * mean over the parseable ones (null when none is); the rule's grade when
 * the rule's verdict stands for it (`ruled`); 0 for a candidate with no
 * response, wrong without asking.
 */
export function judgeGradeOf(
  candidate: { answered: boolean; correct: boolean | null; ruled: boolean },
  verdicts: Array<boolean | null>,
): Pick<CandidateResult, 'judge' | 'correctJudge' | 'ruled'> {
  if (candidate.answered && candidate.ruled) return { judge: { verdicts: [] }, correctJudge: candidate.correct === true ? 1 : 0, ruled: true };
  const parsed = verdicts.filter((verdict): verdict is boolean => verdict !== null);
  const correctJudge = !candidate.answered ? 0 : parsed.length === 0 ? null : parsed.filter(Boolean).length / parsed.length;
  return { judge: { verdicts }, correctJudge };
}
