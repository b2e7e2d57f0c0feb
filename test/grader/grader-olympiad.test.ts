/**
 * The grader on olympiad-style answers it was not written around (issue 35):
 * pairs of a reference and a model's final answer in the classes where it
 * failed (units and quantities, answers qualified by text or conditions,
 * sets of functions written in other forms, intervals, near misses), in
 * test/fixtures/grader-olympiad.jsonl. Every pair is written for this
 * project. A wrong "equal" inflates Pass@1 silently, so none is allowed;
 * "unsure" hands a pair to the judge and counts here as a disagreement.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gradeAnswer } from '../../src/grader/index.ts';

interface Pair {
  class: string;
  gold: string;
  pred: string;
  equal: boolean;
  why: string;
}

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'grader-olympiad.jsonl');

function pairs(): Pair[] {
  return readFileSync(fixture, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Pair);
}

describe('grader on olympiad answers of the classes of issue 35', () => {
  const rows = pairs();

  it('has pairs of every class, both equal and not', () => {
    const classes = new Set(rows.map((r) => r.class));
    expect([...classes].sort()).toEqual(['functions', 'intervals', 'near-miss', 'qualified', 'units']);
    for (const c of ['functions', 'qualified', 'units']) {
      expect(rows.some((r) => r.class === c && r.equal)).toBe(true);
      expect(rows.some((r) => r.class === c && !r.equal)).toBe(true);
    }
  });

  it('never grades a pair equal that is not, and agrees with at least 92% of the labels', () => {
    const falseEqual: string[] = [];
    const misses: string[] = [];
    const byClass = new Map<string, { total: number; agreed: number }>();
    for (const row of rows) {
      const grade = gradeAnswer(row.pred, row.gold);
      const agreed = grade.verdict === (row.equal ? 'equal' : 'different');
      const entry = byClass.get(row.class) ?? { total: 0, agreed: 0 };
      entry.total += 1;
      if (agreed) entry.agreed += 1;
      byClass.set(row.class, entry);
      if (grade.equal && !row.equal) falseEqual.push(`${row.pred} graded equal to ${row.gold} (${row.why})`);
      if (!agreed) misses.push(`[${row.class}] ${grade.verdict}: ${row.pred} against ${row.gold} (${row.why})`);
    }
    const agreed = rows.length - misses.length;
    console.log(`grader-olympiad: agreement ${agreed}/${rows.length}, false equal ${falseEqual.length}; by class ${JSON.stringify(Object.fromEntries(byClass))}`);
    if (misses.length > 0) console.log(`grader-olympiad: disagreements:\n  ${misses.join('\n  ')}`);
    expect(falseEqual).toEqual([]);
    expect(agreed / rows.length).toBeGreaterThanOrEqual(0.92);
  });
});
