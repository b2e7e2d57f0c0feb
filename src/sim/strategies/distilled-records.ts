/**
 * Records of realistic size for the simulated Distill agent (SimOptions.distillTokens):
 * a real distillation writes several propositions and pitfalls of a hundred
 * tokens or more each, so an RSE bank of 20 iterations outgrows a 131k
 * window. Each record is a chain of clauses about quantities with drawn
 * numbers, so no two records share more than a few word shingles (the bank's
 * Jaccard deduplication keeps them all) and none carries a `[ref …]` marker:
 * the simulated rollout draws its odds from the marked records only.
 */
import { CHARS_PER_TOKEN } from '../model/filler.ts';
import type { Rng } from '../model/random.ts';
import { jitteredTokens } from '../responders/responder.ts';

/** About the tokens of one record: upstream's format asks for a self-contained statement, its conditions and its source. */
const RECORD_TOKENS = 150;

const VARIABLES = ['a', 'b', 'c', 'k', 'm', 'n', 'p', 'q', 'r', 's', 't', 'x', 'y', 'z'] as const;

const PROPOSITION_CLAUSES = [
  (v: string, i: number, j: number, l: number) => `for ${v} ≥ ${i}, the quantity ${j}${v} + ${l} is congruent to ${(i * j + l) % 97} modulo 97`,
  (v: string, i: number, j: number, l: number) => `the sum of the first ${i} values of ${v}_k equals ${j * l} when ${v}_1 = ${l}`,
  (v: string, i: number, j: number, l: number) => `substituting ${v} = ${i}u + ${j} turns the condition into a quadratic in u with discriminant ${l * l - 4 * i}`,
  (v: string, i: number, j: number, l: number) => `the map ${v} ↦ ${i}${v} − ${j} is a bijection on the residues modulo ${l + 1}`,
  (v: string, i: number, j: number, l: number) => `every admissible ${v} below ${i * l} satisfies ${v}² − ${j}${v} ≤ ${i + j + l}`,
] as const;

const PITFALL_CLAUSES = [
  (v: string, i: number, j: number, l: number) => `dividing by ${v} − ${i} at step ${j} without checking ${v} ≠ ${i} -> Potential Risk -> the case ${v} = ${i} was lost, which changes the count by ${l}`,
  (v: string, i: number, j: number, l: number) => `squaring both sides of ${v} + ${i} = ${j}√${l} -> Fatal Flaw -> an extraneous root ${v} = ${j * l - i} was kept`,
  (v: string, i: number, j: number, l: number) => `expanding the product over all ${i} factors of ${v} -> Dead End -> ${j} terms of degree ${l} that never cancel`,
  (v: string, i: number, j: number, l: number) => `assuming ${v}_${i} is increasing from the first ${j} terms -> Fatal Flaw -> the sequence turns at ${v}_${i + l}`,
] as const;

/** One clause with its own drawn variable and numbers. */
function clause(kind: 'proposition' | 'pitfall', rng: Rng): string {
  const write = kind === 'proposition' ? rng.pick(PROPOSITION_CLAUSES) : rng.pick(PITFALL_CLAUSES);
  return write(rng.pick(VARIABLES), 2 + rng.int(998), 2 + rng.int(998), 2 + rng.int(998));
}

/** One record of about `tokens` tokens: clauses joined until it is long enough, then its source. */
function record(kind: 'proposition' | 'pitfall', tokens: number, rng: Rng): string {
  const source = kind === 'proposition' ? ` (Source: derived at step ${1 + rng.int(60)} of the attempt.)` : '.';
  const clauses: string[] = [];
  let length = source.length;
  while (length < tokens * CHARS_PER_TOKEN) {
    const next = clause(kind, rng);
    clauses.push(next);
    length += next.length + 2;
  }
  const text = clauses.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}${source}`;
}

/**
 * Propositions and pitfalls of about `total` tokens in all (±30%), each of
 * about RECORD_TOKENS (±30%), the last one shorter when the total is reached.
 */
export function distilledRecords(total: number, rng: Rng): { propositions: string[]; pitfalls: string[] } {
  const propositions: string[] = [];
  const pitfalls: string[] = [];
  let left = jitteredTokens(total, rng);
  while (left > 0) {
    const tokens = Math.min(left, jitteredTokens(RECORD_TOKENS, rng));
    const kind = rng.next() < 0.5 ? 'proposition' : 'pitfall';
    (kind === 'proposition' ? propositions : pitfalls).push(record(kind, tokens, rng));
    left -= tokens;
  }
  return { propositions, pitfalls };
}
