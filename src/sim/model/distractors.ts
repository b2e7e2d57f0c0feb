/**
 * Plausible wrong answers for a problem: the mistakes a solver makes (off by
 * one, a case counted twice, a sign error, an inverted ratio). A small fixed
 * set per problem means wrong candidates often agree with each other, so
 * majority voting has something to do and can be fooled.
 */
import { sameAnswer } from './grade.ts';
import type { Rng } from './random.ts';

/** The mistake behind a wrong answer; pitfall texts describe it. */
export type MistakeKind = 'off-by-one' | 'doubled' | 'sign' | 'fraction';

/** One wrong answer and how attractive it is. */
export interface Distractor {
  answer: string;
  kind: MistakeKind;
  /** Relative weight among the problem's distractors. */
  weight: number;
}

const MAX_DISTRACTORS = 4;

function integerVariants(n: bigint): Array<[string, MistakeKind]> {
  return [
    [String(n + 1n), 'off-by-one'],
    [String(n - 1n), 'off-by-one'],
    [String(2n * n), 'doubled'],
    [String(-n), 'sign'],
    [String(n + 2n), 'off-by-one'],
  ];
}

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function fractionVariants(a: bigint, b: bigint, latex: boolean): Array<[string, MistakeKind]> {
  // Reduced, with the sign in front and whole numbers plain, as a solver would write it.
  const show = (p: bigint, q: bigint): string => {
    const d = gcd(p, q) || 1n;
    const [x, y] = [(p < 0n ? -p : p) / d, (q < 0n ? -q : q) / d];
    const sign = p * q < 0n ? '-' : '';
    if (y === 1n) return `${sign}${x}`;
    return latex ? `${sign}\\frac{${x}}{${y}}` : `${sign}${x}/${y}`;
  };
  const variants: Array<[string, MistakeKind]> = [
    [show(a + 1n, b), 'off-by-one'],
    [show(2n * a, b), 'doubled'],
    [show(-a, b), 'sign'],
  ];
  if (a !== 0n) variants.push([show(b, a), 'fraction']);
  variants.push([show(a, b + 1n), 'off-by-one']);
  return variants;
}

function decimalVariants(text: string): Array<[string, MistakeKind]> {
  const digits = text.split('.')[1]?.length ?? 0;
  const x = Number(text);
  return [
    [(x + 1).toFixed(digits), 'off-by-one'],
    [(2 * x).toFixed(digits), 'doubled'],
    [(-x).toFixed(digits), 'sign'],
    [(x / 2).toFixed(digits + 1), 'fraction'],
  ];
}

function symbolicVariants(answer: string): Array<[string, MistakeKind]> {
  // One "term" (\\sqrt{2}, x, 2\\pi) takes a coefficient or sign directly; anything longer is parenthesised.
  const term = !/[+\-\s,=<>]/.test(answer) && !/^\d/.test(answer);
  const wrapped = term ? answer : `(${answer})`;
  const lastNumber = [...answer.matchAll(/\d+/g)].at(-1);
  const bumped =
    lastNumber?.index === undefined
      ? `${answer}+1`
      : `${answer.slice(0, lastNumber.index)}${BigInt(lastNumber[0]) + 1n}${answer.slice(lastNumber.index + lastNumber[0].length)}`;
  return [
    [bumped, 'off-by-one'],
    [`2${wrapped}`, 'doubled'],
    [`-${wrapped}`, 'sign'],
    [`\\frac{${answer}}{2}`, 'fraction'],
  ];
}

function variantsOf(reference: string): Array<[string, MistakeKind]> {
  const text = reference.trim();
  if (/^-?\d+$/.test(text)) return integerVariants(BigInt(text));
  const latex = /^(-?)\\d?frac\{(-?\d+)\}\{(\d+)\}$/.exec(text);
  if (latex?.[2] && latex[3]) return fractionVariants(BigInt(`${latex[1]}${latex[2]}`), BigInt(latex[3]), true);
  const plain = /^(-?\d+)\/(\d+)$/.exec(text);
  if (plain?.[1] && plain[2]) return fractionVariants(BigInt(plain[1]), BigInt(plain[2]), false);
  if (/^-?\d+\.\d+$/.test(text)) return decimalVariants(text);
  return symbolicVariants(text);
}

/**
 * The distractors of a problem with reference answer `reference`. One of them
 * (chosen by `rng`, which is keyed by the problem) is the attractive mistake
 * and weighs three times the others.
 */
export function distractorsFor(reference: string, rng: Rng): Distractor[] {
  const chosen: Distractor[] = [];
  for (const [answer, kind] of variantsOf(reference)) {
    if (chosen.length >= MAX_DISTRACTORS) break;
    if (sameAnswer(answer, reference) || chosen.some((d) => sameAnswer(answer, d.answer))) continue;
    chosen.push({ answer, kind, weight: 1 });
  }
  if (chosen.length === 0) {
    // Only reachable for answers every variant grades equal to (none known); keep the wire format alive.
    chosen.push({ answer: `${reference}+1`, kind: 'off-by-one', weight: 1 });
  }
  const attractive = chosen[rng.int(chosen.length)];
  if (attractive) attractive.weight = 3;
  return chosen;
}
