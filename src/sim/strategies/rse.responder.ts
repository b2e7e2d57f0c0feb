/**
 * The simulated agents of `rse`. The Rollout agent answers as the Solution
 * agent would with the experience bank of its system prompt (the
 * `<experience>` lines), so true propositions and pitfalls move its odds as in
 * TMAS. The Distill agent grades the rollout with the verifiers' accuracy and
 * writes a proposition (judged right) or a pitfall (judged wrong) in strict
 * JSON, except for an occasional malformed reply that exercises the retries.
 * With `distillTokens` it also writes records of realistic size after that
 * one (distilled-records.ts), so that the bank grows as a real one does.
 */
import { classifyAnswer } from '../model/catalogue.ts';
import { conclusionText, pitfallText } from '../model/records.ts';
import { distilledRecords } from './distilled-records.ts';
import type { Responder } from '../responders/responder.ts';
import { respondSolution } from '../responders/solution.responder.ts';
import { reviewSolution } from './judging.ts';

/** Share of Distill replies that are not valid JSON. */
export const DISTILL_MALFORMED = 0.15;

/** Answers a Rollout-agent request. */
export const respondRollout: Responder = (input) => {
  const bank = /^<experience>$[\s\S]*?^<\/experience>$/m.exec(input.system ?? '')?.[0];
  // Exploit mode reads the bank; an empty rollouts block means "no earlier attempts shown".
  const rest = bank === undefined ? '' : `\n\n<rollouts>\n</rollouts>\n\n${bank}`;
  return respondSolution({ ...input, rest });
};

/** Answers a Distill-agent request. */
export const respondDistill: Responder = (input) => {
  const { seed, problem, rng } = input;
  const { answer, saysCorrect } = reviewSolution(input);
  if (rng.next() < DISTILL_MALFORMED) return '{"verified_propositions": ["the attempt is sound up to the last step"], "critical_pitfalls": [';
  const propositions: string[] = [];
  const pitfalls: string[] = [];
  if (answer !== null) {
    const about = classifyAnswer(problem, answer);
    const score = saysCorrect ? 0.7 + 0.3 * rng.next() : 0.3 * rng.next();
    if (saysCorrect) propositions.push(conclusionText(seed, problem, about, 0, score));
    else pitfalls.push(pitfallText(seed, problem, about, 0, score));
  }
  // Drawn after the marked record, so that without them (0) the reply is the one it always was.
  if (input.distillTokens > 0) {
    const more = distilledRecords(input.distillTokens, rng);
    propositions.push(...more.propositions);
    pitfalls.push(...more.pitfalls);
  }
  return JSON.stringify({ verified_propositions: propositions, critical_pitfalls: pitfalls });
};
