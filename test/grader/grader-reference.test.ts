/**
 * The grader against public reference data (not part of the repository:
 * where the test looks for it is `dataDir` below, and a fresh clone skips
 * these tests with a message).
 *
 * - equiv/dev.jsonl: answer-equivalence cases from the test suites of other
 *   graders, with their labels. We report agreement on the cases not marked
 *   disputed, following each row's stated settings where our options can.
 * - imo_answerbench.jsonl: every reference answer must grade equal to itself
 *   and to an obviously equivalent rewriting of it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { extractFinalMath, gradeAnswer, type GradeOptions } from '../../src/grader/index.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataDir = path.resolve(repoRoot, '..', 'shared', 'data');
const devFile = path.join(dataDir, 'equiv', 'dev.jsonl');
const imoFile = path.join(dataDir, 'imo_answerbench.jsonl');

const hasDev = existsSync(devFile);
const hasImo = existsSync(imoFile);
if (!hasDev) console.log(`grader-reference: skipping the dev.jsonl agreement test, ${devFile} is absent (it is not part of the repository)`);
if (!hasImo) console.log(`grader-reference: skipping the IMO-AnswerBench test, ${imoFile} is absent (it is not part of the repository)`);

function readJsonl(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as unknown);
}

interface DevRow {
  id: string;
  gold: string;
  pred: string;
  equal: boolean;
  tags: string[];
  settings: Record<string, unknown>;
  policy: string[];
  disputed: boolean;
}

function toDevRow(value: unknown): DevRow {
  const get = (key: string): unknown => (typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined);
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
  const settings = get('settings');
  return {
    id: String(get('id')),
    gold: String(get('gold')),
    pred: String(get('pred')),
    equal: get('equal') === true,
    tags: strings(get('tags')),
    settings: typeof settings === 'object' && settings !== null ? Object.fromEntries(Object.entries(settings)) : {},
    policy: strings(get('policy')),
    disputed: get('disputed') === true,
  };
}

/** Words of two letters or more outside math, commands, and list or percent words. */
function proseWords(text: string): number {
  const outside = text
    .replace(/\$\$[\s\S]*?\$\$|\\\[[\s\S]*?\\\]|\\\([^\n]*?\\\)|\$[^$\n]*\$/g, ' ')
    .replace(/\\[a-zA-Z]+/g, ' ')
    .replace(/\b(?:and|or|percent|percentage|pct)\b/gi, ' ');
  return (outside.match(/\p{L}{2,}/gu) ?? []).length;
}

/**
 * The answer a side of a row states. A whole response (tagged free-form, or
 * boxed, or announcing "answer", or written in sentences) is reduced by the
 * looser extractor, as a grader of model outputs would; a bare answer is
 * graded as it is. Rows whose upstream grader only reads LaTeX
 * (`match_types` without "expr") do not fall back to bare numbers in prose.
 */
function isResponse(text: string, row: DevRow, isPred: boolean): boolean {
  return (isPred && row.tags.includes('freeform_pred')) || /\\(?:boxed|fbox)/.test(text) || /answer|réponse|答案/i.test(text) || proseWords(text) >= 2;
}

function answerSide(text: string, row: DevRow, isPred: boolean): string | null {
  const matchTypes = row.settings.match_types;
  const latexOnly = Array.isArray(matchTypes) && !matchTypes.includes('expr');
  if (!isResponse(text, row, isPred)) return text;
  return extractFinalMath(text, { numbers: !latexOnly }) ?? (isPred ? null : text);
}

/** Our options matching the conventions a row says its label was made under. */
function optionsFor(row: DevRow): GradeOptions {
  const options: GradeOptions = {};
  if (typeof row.settings.precision === 'number') options.precision = row.settings.precision;
  // Qwen2.5-Math's math_equal compares with a relative tolerance of 1e-4.
  if (typeof row.settings.api === 'string' && row.settings.api.startsWith('math_equal')) options.precision = 4;
  // hendrycks/math's is_equiv compares lists as strings, in order.
  if (row.policy.includes('ordered_list_semantics')) options.lists = 'ordered';
  if (row.settings.allow_set_relation_comp === false) options.relationsAsSets = false;
  return options;
}

describe.skipIf(!hasDev)('grader against equiv/dev.jsonl', () => {
  it('agrees with the upstream labels on at least 95% of the undisputed cases', () => {
    const rows = readJsonl(devFile).map(toDevRow).filter((row) => !row.disputed);
    const misses: DevRow[] = [];
    for (const row of rows) {
      // A whole response is also read as a run reads it: several different final answers are unsure.
      const context = isResponse(row.pred, row, true) ? { response: row.pred } : undefined;
      const grade = gradeAnswer(answerSide(row.pred, row, true), answerSide(row.gold, row, false) ?? row.gold, optionsFor(row), context);
      if (grade.equal !== row.equal) misses.push(row);
    }
    const agreed = rows.length - misses.length;
    const byTag = new Map<string, number>();
    for (const row of misses) for (const tag of row.tags.length > 0 ? row.tags : ['(untagged)']) byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
    console.log(`grader-reference: dev.jsonl agreement ${agreed}/${rows.length} (${((100 * agreed) / rows.length).toFixed(1)}%)`);
    console.log(`grader-reference: disagreements by tag: ${JSON.stringify(Object.fromEntries(byTag))}`);
    console.log(`grader-reference: disagreeing rows: ${misses.map((r) => `${r.id} (label ${r.equal})`).join(', ') || 'none'}`);
    expect(agreed / rows.length).toBeGreaterThanOrEqual(0.95);
  });
});

/** Splits at commas outside brackets and braces. */
function topLevelItems(text: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\') {
      i += 1;
      if (text[i] === '{') depth += 1;
      if (text[i] === '}') depth -= 1;
    } else if (ch === '(' || ch === '[' || ch === '{') depth += 1;
    else if (ch === ')' || ch === ']' || ch === '}') depth -= 1;
    else if (ch === ',' && depth === 0) {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  items.push(text.slice(start));
  return items.map((item) => item.trim());
}

/**
 * A rewriting a person would call the same answer: `\dfrac` as `\frac`,
 * spaces around `=`, `+` and after commas, `\left( \right)` around innermost
 * parentheses, and the items of a bare list of math (no words) or of a
 * `\{...\}` set in reverse order.
 */
function rewrite(answer: string): { text: string; reordered: boolean } {
  let s = answer.replace(/\\dfrac/g, '\\frac').replace(/,(?! )/g, ', ').replace(/([=+])/g, ' $1 ');
  s = s.replace(/(?<!\\left)\(([^()]*)\)/g, '\\left($1\\right)');
  // Reorder only an answer that is one piece of math (no prose around it).
  const single = /^\s*\$([^$]*)\$\s*$/.exec(s);
  const math = single?.[1]?.trim() ?? (s.includes('$') ? null : s.trim());
  if (math === null || /[a-zA-Z]{3,}/.test(math.replace(/\\[a-zA-Z]+/g, ' '))) return { text: s, reordered: false };
  if (/^\\\{.*\\\}$/.test(math)) {
    const items = topLevelItems(math.slice(2, -2));
    if (items.length > 1) return { text: `$\\{${items.reverse().join(', ')}\\}$`, reordered: true };
  }
  const items = topLevelItems(math);
  if (items.length > 1) return { text: `$${items.reverse().join(', ')}$`, reordered: true };
  return { text: s, reordered: false };
}

describe.skipIf(!hasImo)('grader against IMO-AnswerBench answers', () => {
  it('grades every reference answer equal to itself and to an equivalent rewriting', () => {
    const answers = readJsonl(imoFile).map((row) =>
      typeof row === 'object' && row !== null ? String(Reflect.get(row, 'answer')) : '',
    );
    let selfEqual = 0;
    let rewrittenEqual = 0;
    let reordered = 0;
    const failures: string[] = [];
    for (const answer of answers) {
      if (gradeAnswer(answer, answer).equal) selfEqual += 1;
      else failures.push(`self: ${answer}`);
      const variant = rewrite(answer);
      if (variant.reordered) reordered += 1;
      if (gradeAnswer(variant.text, answer).equal) rewrittenEqual += 1;
      else failures.push(`rewrite: ${answer} => ${variant.text}`);
    }
    console.log(
      `grader-reference: IMO-AnswerBench self-equivalence ${selfEqual}/${answers.length}, ` +
        `rewritten ${rewrittenEqual}/${answers.length} (${reordered} with list or set order reversed)`,
    );
    if (failures.length > 0) console.log(`grader-reference: IMO failures:\n  ${failures.join('\n  ')}`);
    expect(selfEqual).toBe(answers.length);
    expect(rewrittenEqual / answers.length).toBeGreaterThanOrEqual(0.97);
  });
});
