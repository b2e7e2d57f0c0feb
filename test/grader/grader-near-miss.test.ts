/**
 * The grader never changes a reference answer and never calls a near miss
 * equal, checked on the IMO-AnswerBench references (public data that is not
 * part of the repository: where the test looks for it is `imoFile` below, and
 * a fresh clone skips these tests with a message).
 *
 * - Each reference, normalised, still grades equal to its own raw form, or,
 *   where the normal form prints an irrational value to ten digits, `unsure`
 *   (an approximation, which the grader leaves to a judge), never different.
 * - Near misses generated from each reference (off by one, sign flip,
 *   swapped tuple, renamed-but-wrong function, neighbouring floor, dropped
 *   factor) must never grade equal. A generated variant can happen to be
 *   equivalent (a symmetric tuple swapped); those are counted apart by
 *   checking the variant against the reference in exact arithmetic where
 *   possible, and otherwise listed for reading.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gradeAnswer, normalizeAnswer } from '../../src/grader/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const imoFile = path.resolve(repoRoot, '..', 'shared', 'data', 'imo_answerbench.jsonl');
const mathFile = path.resolve(repoRoot, '..', 'shared', 'data', 'math500.jsonl');
const hasImo = existsSync(imoFile);
const hasMath = existsSync(mathFile);
if (!hasImo) console.log(`grader-near-miss: skipping, ${imoFile} is absent (it is not part of the repository)`);
if (!hasMath) console.log(`grader-near-miss: skipping the MATH-500 check, ${mathFile} is absent (it is not part of the repository)`);

function answers(file = imoFile): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const row: unknown = JSON.parse(line);
      return typeof row === 'object' && row !== null ? String(Reflect.get(row, 'answer')) : '';
    });
}

/** Replaces the `k`-th match of `pattern` in `text` by `by(match)`; null when there is no k-th match. */
function replaceNth(text: string, pattern: RegExp, k: number, by: (m: string) => string): string | null {
  let seen = -1;
  let done = false;
  const out = text.replace(pattern, (m) => {
    seen += 1;
    if (seen !== k) return m;
    done = true;
    return by(m);
  });
  return done ? out : null;
}

/** Near misses of a reference answer, each with the kind of change made. */
export function nearMisses(answer: string): Array<{ kind: string; text: string }> {
  const out: Array<{ kind: string; text: string }> = [];
  const add = (kind: string, text: string | null): void => {
    if (text !== null && text !== answer) out.push({ kind, text });
  };
  // Off by one on each of the first three integers not in a subscript, exponent of a label or command.
  for (let k = 0; k < 3; k += 1) add('off by one', replaceNth(answer, /(?<![_\\a-zA-Z{^.\d])\d+(?![\d.])/g, k, (m) => String(BigInt(m) + 1n)));
  // Sign flip: negate a whole expression answer.
  const math = /^\s*\$?([^$]*?)\$?\s*\.?\s*$/.exec(answer)?.[1] ?? answer;
  const zero = /^\s*0\s*$/.test(math);
  if (!zero && !/[,=<>]|\\le|\\ge|\\in|\\cup|[a-z]{3,}/.test(math.replace(/\\[a-zA-Z]+/g, '')) && /\d|[a-z]/i.test(math)) add('sign flip', `$-(${math})$`);
  // Swapped tuple: the first two items of the first parenthesised tuple.
  add('swapped tuple', replaceNth(answer, /\(([^(),]+),([^(),]+)((?:,[^(),]+)*)\)/g, 0, (m) => {
    const inner = /\(([^(),]+),([^(),]+)((?:,[^(),]+)*)\)/.exec(m);
    if (inner === null || inner[1]?.trim() === inner[2]?.trim()) return m;
    return `(${inner[2]},${inner[1]}${inner[3] ?? ''})`;
  }));
  // Renamed but wrong function: f(x)=RHS becomes f(x)=RHS with x replaced by x+1.
  // The first definition whose right side uses its variable (a constant function is the same under any name).
  const fn = [...answer.matchAll(/([A-Za-z]\((x|n)\)\s*=\s*)([^,$]+)/g)].find((m) => new RegExp(`(?<![a-zA-Z\\\\])${m[2] ?? 'x'}(?![a-zA-Z])`).test(m[3] ?? ''));
  if (fn?.[1] !== undefined && fn[2] !== undefined && fn[3] !== undefined) {
    const v = fn[2];
    const shifted = fn[3].replace(new RegExp(`(?<![a-zA-Z\\\\])${v}(?![a-zA-Z])`, 'g'), `(${v === 'x' ? 'y' : 'm'}+1)`);
    add('renamed-but-wrong function', answer.replace(fn[0], `${fn[1].replace(`(${v})`, `(${v === 'x' ? 'y' : 'm'})`)}${shifted}`));
  }
  // Neighbouring floor or ceiling: the argument plus one.
  add('neighbouring floor', replaceNth(answer, /\\l(floor|ceil)/g, 0, (m) => `${m} 1 + `));
  // A dropped factor: the last single-letter factor of a product removed.
  add('dropped factor', replaceNth(answer, /(?<=[\d}a-zA-Z)])\s?([a-zA-Z])(?=\^?\{?\d?\}?\s*\$)/g, 0, () => ''));
  return out;
}

/** An irrational value printed to ten significant digits (print.ts): a decimal of seven digits or more. */
const PRINTED_APPROXIMATION = /\d\.\d{6,}|\d{2,}\.\d{5,}/;

/**
 * Whether normalising changed the answer: it grades equal to its normal
 * form, or `unsure` where that form holds a printed approximation.
 */
function normalChanges(answer: string, normal: string): boolean {
  const verdict = gradeAnswer(normal, answer).verdict;
  return verdict === 'different' || (verdict === 'unsure' && !PRINTED_APPROXIMATION.test(normal));
}

describe.skipIf(!hasImo)('IMO-AnswerBench references under normalisation and near misses', () => {
  it('normalises every reference to a form that still equals it', () => {
    const refs = answers();
    const changed: string[] = [];
    let approximated = 0;
    for (const answer of refs) {
      const normal = normalizeAnswer(answer);
      if (normalChanges(answer, normal)) changed.push(`${answer} => ${normal}`);
      else if (!gradeAnswer(normal, answer).equal) approximated += 1;
    }
    console.log(`grader-near-miss: references that survive normalisation unchanged: ${refs.length - changed.length}/${refs.length} (${approximated} printed as approximations, unsure)`);
    if (changed.length > 0) console.log(`grader-near-miss: changed:\n  ${changed.join('\n  ')}`);
    expect(changed).toEqual([]);
  });

  it('grades no near miss equal', () => {
    const refs = answers();
    let total = 0;
    const byKind = new Map<string, { total: number; equal: number; unsure: number }>();
    const falsePositives: string[] = [];
    for (const answer of refs) {
      for (const miss of nearMisses(answer)) {
        total += 1;
        const grade = gradeAnswer(miss.text, answer);
        const entry = byKind.get(miss.kind) ?? { total: 0, equal: 0, unsure: 0 };
        entry.total += 1;
        if (grade.verdict === 'unsure') entry.unsure += 1;
        if (grade.equal) {
          entry.equal += 1;
          falsePositives.push(`[${miss.kind}] ${answer} <= ${miss.text}`);
        }
        byKind.set(miss.kind, entry);
      }
    }
    console.log(`grader-near-miss: ${total} near misses, ${falsePositives.length} graded equal; by kind ${JSON.stringify(Object.fromEntries(byKind))}`);
    if (falsePositives.length > 0) console.log(`grader-near-miss: graded equal:\n  ${falsePositives.join('\n  ')}`);
    expect(falsePositives).toEqual([]);
  });
});

describe.skipIf(!hasMath)('MATH-500 references under normalisation', () => {
  it('normalises every reference to a form that still equals it, and an off-by-one never equals it', () => {
    const refs = answers(mathFile);
    const failures: string[] = [];
    for (const answer of refs) {
      const normal = normalizeAnswer(answer);
      if (normalChanges(answer, normal)) failures.push(`changed: ${answer} => ${normal}`);
      const miss = nearMisses(answer).find((m) => m.kind === 'off by one');
      if (miss !== undefined && gradeAnswer(miss.text, answer).equal) failures.push(`equal: ${answer} <= ${miss.text}`);
    }
    console.log(`grader-near-miss: MATH-500 references unchanged by normalisation ${refs.length - failures.filter((f) => f.startsWith('changed')).length}/${refs.length}`);
    expect(failures).toEqual([]);
  });
});
