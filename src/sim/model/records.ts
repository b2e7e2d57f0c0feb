/**
 * The texts the simulated Experience agent writes, and how the simulated
 * Solution agent reads them back. Each record is readable English with one
 * hidden handle, `[ref xxxxxx]`: a token of (server seed, problem, answer).
 * It tells the solution responder whether a conclusion belongs to this problem
 * and whether it supports the right answer, without any state on the server.
 */
import type { KnownAnswer, SimProblem } from './catalogue.ts';
import { markerOf } from './catalogue.ts';
import type { MistakeKind } from './distractors.ts';
import { rngOf } from './random.ts';

const MARKER = /\[ref ([0-9a-f]{6})\]/;

/** Intermediate steps a conclusion can claim; two are chosen per (problem, answer) so texts differ. */
const STEPS = [
  'the substitution reduces the problem to a quadratic in one variable',
  'the residues repeat with a short period, so only one period needs checking',
  'the quantity preserved by every move pins down the final state',
  'the extremal configuration is attained at the symmetric point',
  'the sum telescopes once each term is split into partial fractions',
  'the boundary cases n = 1 and n = 2 behave like the general case',
  'the count splits into two disjoint families that are counted separately',
  'the inequality is tight exactly when all the variables are equal',
  'the recurrence has a closed form that is checked by induction',
  'the divisibility condition forces every prime factor to be small',
  'the polynomial factors over the integers after a shift of the variable',
  'the angle chase shows that the four points are concyclic',
  'the generating function has a simple pole that gives the growth rate',
  'the parity argument rules out every odd configuration',
  'the area ratio follows from the two similar triangles',
  'the functional equation forces the function to be linear',
] as const;

const MISTAKES: Record<MistakeKind | 'other', string> = {
  'off-by-one': 'an off-by-one error in the final count',
  doubled: 'counting every configuration twice',
  sign: 'a sign error in the last simplification',
  fraction: 'inverting the ratio in the last step',
  other: 'an unjustified step that the verifiers flagged',
};

/** The marker token of a record about `answer`. */
export function recordMarker(seed: number, problem: SimProblem, answer: KnownAnswer): string {
  return markerOf(seed, problem.id, answer.answer);
}

/** A conclusion record for a well-scored rollout. True or false, it reads the same: only the marker knows. */
export function conclusionText(seed: number, problem: SimProblem, answer: KnownAnswer, candidate: number, score: number): string {
  const rng = rngOf(seed, 'conclusion-steps', problem.id, answer.answer);
  const first = rng.int(STEPS.length);
  const second = (first + 1 + rng.int(STEPS.length - 1)) % STEPS.length;
  return (
    `Verified step [ref ${recordMarker(seed, problem, answer)}] (candidate ${candidate}, score ${score.toFixed(2)}): ` +
    `${STEPS[first]}, and ${STEPS[second]}; this supports the final answer ${answer.answer}.`
  );
}

/** A pitfall record for a poorly scored rollout, naming its answer and the mistake behind it. */
export function pitfallText(seed: number, problem: SimProblem, answer: KnownAnswer, candidate: number, score: number): string {
  // A pitfall about the right answer (the verifiers were fooled) blames a mistake that looks like any other.
  const kinds = Object.keys(MISTAKES) as Array<keyof typeof MISTAKES>;
  const kind = answer.kind === 'reference' ? rngOf(seed, 'pitfall-kind', problem.id).pick(kinds) : answer.kind;
  return (
    `Pitfall [ref ${recordMarker(seed, problem, answer)}] (candidate ${candidate}, score ${score.toFixed(2)}): ` +
    `the answer ${answer.answer} is wrong; it comes from ${MISTAKES[kind]}.`
  );
}

/** The answer a record is about, if its marker belongs to this problem. */
export function answerOfRecord(problem: SimProblem, text: string): KnownAnswer | null {
  const marker = MARKER.exec(text)?.[1];
  return marker === undefined ? null : (problem.markers.get(marker) ?? null);
}

/** The marker of a record, whatever problem it belongs to. */
export function markerOfRecord(text: string): string | null {
  return MARKER.exec(text)?.[1] ?? null;
}
