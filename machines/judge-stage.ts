/**
 * The judge as a grading stage of the program machine (the baselines): once a
 * program's iteration is complete, every candidate goes to the LLM judge for
 * the configured passes before the iteration is saved, so every strategy is
 * graded as TMAS is. Pure helpers over the stage's state.
 *
 * A candidate whose response the problem actor already had judged (the same
 * candidate with the same response, as `majority`'s growing sample prefixes
 * and a stopped `mas-ceo` problem carry forward) keeps its verdicts: the same
 * question is not paid for twice.
 */
import type { CandidateResult, Message } from '../src/kernel/protocol.ts';
import type { ProblemInput } from './contract.ts';
import { judgeGradeOf } from './judge-grade.ts';
import { judgePassesOf, judgeRequests, ruledByRule } from './judging.ts';

/** What the judge reads of a candidate. */
export interface JudgedResponse {
  candidate: number;
  text: string | null;
  answer: string | null;
}

/** The judge stage of one iteration, and the verdicts of responses judged before. */
export interface JudgeStage {
  /** Verdicts per candidate of this iteration (null: no verdict, or a failed call). */
  verdicts: Record<number, Array<boolean | null>>;
  /** Candidates of this iteration with no response: wrong without asking. */
  silent: number[];
  pending: number;
  /** Earlier verdicts by candidate and response. */
  known: Record<string, Array<boolean | null>>;
  /** This iteration's keys of `known`, by candidate. */
  keys: Record<number, string>;
}

/** A stage with nothing in flight. */
export function idleJudgeStage(): JudgeStage {
  return { verdicts: {}, silent: [], pending: 0, known: {}, keys: {} };
}

function keyOf(response: JudgedResponse, proof: boolean): string {
  return `${response.candidate}\u0000${proof ? response.text : response.answer}`;
}

/** Starts judging an iteration's responses: the requests to post and the stage awaiting them. */
export function startJudging(stage: JudgeStage, input: ProblemInput, iteration: number, responses: JudgedResponse[]): { stage: JudgeStage; post: Message[] } {
  const proof = input.settings.proof === true;
  const next: JudgeStage = { verdicts: {}, silent: [], pending: 0, known: stage.known, keys: {} };
  const post: Message[] = [];
  const base = { run: input.run, problem: input.problem.id, iteration };
  for (const response of responses) {
    if (response.text === null) {
      next.silent.push(response.candidate);
      continue;
    }
    const key = keyOf(response, proof);
    next.keys[response.candidate] = key;
    const known = stage.known[key];
    if (known !== undefined) {
      next.verdicts[response.candidate] = known;
      continue;
    }
    const requests = judgeRequests({ problem: input.problem, settings: input.settings, base }, { candidate: response.candidate, text: response.text, answer: response.answer });
    next.verdicts[response.candidate] = requests.map(() => null);
    next.pending += requests.length;
    post.push(...requests);
  }
  return { stage: next, post };
}

/** Records one pass's verdict. */
export function recordVerdict(stage: JudgeStage, candidate: number, pass: number, verdict: boolean | null): JudgeStage {
  const verdicts = [...(stage.verdicts[candidate] ?? [])];
  verdicts[pass] = verdict;
  return { ...stage, verdicts: { ...stage.verdicts, [candidate]: verdicts }, pending: Math.max(0, stage.pending - 1) };
}

/** The save effect with every candidate's judge grade, and the verdicts kept for later iterations. */
export function judged<C extends { effect: { kind: string; candidates?: CandidateResult[] }; judging: JudgeStage; input: ProblemInput }>(context: C): Partial<C> {
  const { effect, judging, input } = context;
  if (effect.kind !== 'save' || effect.candidates === undefined) return {};
  const passes = judgePassesOf(input);
  const known = { ...judging.known };
  const candidates = effect.candidates.map((result): CandidateResult => {
    if (judging.silent.includes(result.candidate)) return { ...result, judge: { verdicts: Array.from({ length: passes }, () => null) }, correctJudge: 0 };
    const verdicts = judging.verdicts[result.candidate] ?? Array.from({ length: passes }, () => null);
    const key = judging.keys[result.candidate];
    // Only complete verdicts are reused: a pass that failed is asked again when the response comes back.
    if (key !== undefined && verdicts.every((verdict) => verdict !== null)) known[key] = verdicts;
    return { ...result, ...judgeGradeOf({ answered: true, correct: result.correct, ruled: ruledByRule(input, result) }, verdicts) };
  });
  return { effect: { ...effect, candidates }, judging: { ...judging, known } } as Partial<C>;
}
