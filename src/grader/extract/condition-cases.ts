/**
 * An answer by cases whose conditions come before their values, in the last
 * sentences of a reply: "If $n$ is even, the answer is $0$. If $n$ is odd, the
 * answer is $1$.", "When $n$ is even the count is $0$, and when $n$ is odd it
 * is $1$.", "For even $n$ it is $0$; otherwise it is $1$." Read as its last
 * math, the last case's value was the answer: a reference 1 was graded equal,
 * sure of it. Read as cases, it compares case by case (parse/cases.ts), and
 * against one value it is `unsure`.
 */
import { mathSegments, numbers, sentencesOf } from './segments.ts';

/** A clause that opens on its condition: "If $n$ is even, …", "For odd $n$ the count is …", "When $n > 2$ then …". */
const CONDITION_FIRST = /^(?:and|but|while)?\s*(?:if|when|whenever|for)\s+(.+?)(?:\s*[,:]\s*|\s+then\s+|\s+(?=(?:the|there|it|its|we|one|this|our|each|every|exactly|no)\b))(.*)$/dis;

/** A clause that opens on the case left: "Otherwise, it is $1$.", "In all other cases the answer is $1$." */
const OTHERWISE_FIRST = /^(?:and|but)?\s*(?:otherwise|else|in\s+all\s+other\s+cases)\b\s*,?\s*(.*)$/is;

/**
 * Where a sentence holds a second case: "…; if $n$ is odd, …", "…, and when $n$ is odd …", "…; otherwise …". No white
 * space around the mark: a leading "\s*" tried every run of spaces from each of its starts, and a reply of 70,000
 * spaces took five seconds to split (its parts are trimmed where they are read).
 */
const CASE_BOUNDARY = /;|,(?=\s*(?:and|but|while)\s+(?:if|when|whenever|for|otherwise)\b)/i;

/**
 * A condition states something a case can turn on: mathematics, a number, or a word of parity or sign ("for even $n$"
 * has its math; "If we check, $5^2 = 25$." has none before its comma, and "we check" is no condition of an answer).
 */
const STATES_CONDITION = /\$|\\\(|\d|\b(?:even|odd|positive|negative|prime|composite|zero)\b/i;

/** A condition that names one value of a letter ("$n = 6$"): a case of that kind checks a point, it ranges nothing. */
const POINT = /^[a-zA-Z]\s*=\s*-?\d+$/;

interface CaseClause {
  condition: string | null;
  value: string;
}

/** The value a clause's words after its condition state: its last math, or its last number outside math. */
function valueOf(rest: string): string | null {
  const math = mathSegments(rest);
  const last = math[math.length - 1];
  // "we get $\boxed{4}$": the box marks the value, it is no part of it.
  if (last !== undefined) return last.text.replace(/\\boxed\s*\{([^{}]*)\}/g, '$1').trim();
  const plain = numbers(rest);
  return plain[plain.length - 1]?.text ?? null;
}

/** `text` with each math segment but its first and last characters replaced by letters: its commas hidden. */
function masked(text: string): string {
  const pieces: string[] = [];
  let at = 0;
  for (const s of mathSegments(text)) {
    pieces.push(text.slice(at, s.start + 1), 'M'.repeat(Math.max(0, s.end - s.start - 2)));
    at = Math.max(s.start + 1, s.end - 1);
  }
  pieces.push(text.slice(at));
  return pieces.join('');
}

/** A clause read as one case, or null when it opens on no condition or states no value. */
function caseOf(clause: string): CaseClause | null {
  // "- If $n$ is even: $0$": a case set as a list item.
  const text = clause.trim().replace(/[.!]$/, '').replace(/^(?:[-*•]|\d{1,2}[.)])\s+/, '').replace(/\*\*/g, '');
  const otherwise = OTHERWISE_FIRST.exec(text);
  if (otherwise !== null) {
    const value = valueOf(otherwise[1] ?? '');
    return value === null ? null : { condition: null, value };
  }
  // Read with each math segment masked, so that a comma inside it ("If $n \in \{1, 2\}$, …") ends no condition.
  const opened = CONDITION_FIRST.exec(masked(text));
  const [conditionAt, restAt] = [opened?.indices?.[1], opened?.indices?.[2]];
  if (conditionAt === undefined || restAt === undefined) return null;
  const condition = text.slice(...conditionAt);
  // "For $b$ we get $3$": a lone letter names what the clause is about; it states no condition.
  if (!STATES_CONDITION.test(condition) || /^\$?\s*[a-zA-Z]\s*\$?$/.test(condition.trim())) return null;
  const value = valueOf(text.slice(...restAt));
  if (value === null) return null;
  return { condition: condition.replace(/\$([^$]*)\$/g, '$1').replace(/\\\((.*?)\\\)/g, '$1').trim(), value };
}

/** The clauses of a paragraph, in order, with where each starts: its sentences, each cut where it opens a second case. */
function clausesOf(paragraph: string): Array<{ start: number; text: string }> {
  return sentencesOf(paragraph).flatMap((sentence) => {
    const out: Array<{ start: number; text: string }> = [];
    let at = 0;
    for (const part of sentence.text.split(CASE_BOUNDARY)) {
      const offset = sentence.text.indexOf(part, at);
      at = offset + part.length;
      if (part.trim() !== '') out.push({ start: sentence.start + offset, text: part.trim() });
    }
    return out;
  });
}

/** The right-hand side of a value ("f(-1) = 4" gives 4), without spaces; the value itself when it states no equation. */
function lastSide(value: string): string {
  return (value.split('=').pop() ?? value).replace(/\s+/g, '');
}

/** A condition that quantifies its letter ("for each $k$", "for all $n \ge 2$") sets a domain; it splits off no case. */
const QUANTIFIED = /^(?:each|every|all|any|some)\b/i;

/** "t = 2", "x=5": a value that solves for one letter. */
const SOLVED_LETTER = /^\s*([a-zA-Z])\s*=/;

/**
 * Clauses that open on conditions but are steps of one argument, not alternatives: a condition that restates an
 * earlier clause's value ("If $A'(t) = 0$, then $t = 2$. When $t = 2$, the area is $8$."), one that repeats an
 * earlier condition ("If $k = 3$, then $4k = 12$. For $k = 3$ the constraint holds, so the answer is $12$."), one
 * that quantifies ("For each $k$ the sum is $k(k+1)/2$. When $k = 3$ it is $6$."), or a value that solves for a letter
 * the conditions name ("If $x \neq 5$, then $f(x) \neq 0$. Otherwise $f(x) = 0$, so $x = 5$."). Read as cases, a right
 * last value was graded unsure.
 */
function isDerivation(cases: readonly CaseClause[]): boolean {
  const flat = (tex: string): string => tex.replace(/[\s$]/g, '');
  const conditions = cases.flatMap((c) => (c.condition === null ? [] : [c.condition]));
  const named = new Set(conditions.join(' ').replace(/\\[a-zA-Z]+/g, ' ').match(/\b[a-zA-Z]\b/g) ?? []);
  // What earlier clauses stated, values and conditions alike, flattened: a later condition may not restate any.
  const stated = new Set<string>();
  for (const c of cases) {
    const solved = SOLVED_LETTER.exec(c.value)?.[1];
    if (solved !== undefined && named.has(solved)) return true;
    if (c.condition !== null) {
      const condition = flat(c.condition);
      if (QUANTIFIED.test(c.condition) || stated.has(condition)) return true;
      stated.add(condition);
    }
    stated.add(flat(c.value));
  }
  return false;
}

/**
 * The answer by cases that the last clauses of `paragraph` give, each opening on its condition, as the grader reads
 * cases ("if n is even, 0; if n is odd, 1"), with where the first of them starts and whether each names one value of
 * a letter ("If $n = 6$, …; if $n = 8$, …": checks of points, after an answer); null unless two or more such
 * clauses, one with a condition, end it.
 */
export function conditionFirstCases(paragraph: string): { answer: string; start: number; pointsOnly: boolean } | null {
  const clauses = clausesOf(paragraph);
  const cases: CaseClause[] = [];
  let start = paragraph.length;
  for (let k = clauses.length - 1; k >= 0; k -= 1) {
    const read = caseOf(clauses[k]?.text ?? '');
    if (read === null) break;
    cases.unshift(read);
    start = clauses[k]?.start ?? start;
  }
  if (cases.length < 2 || !cases.some((c) => c.condition !== null)) return null;
  // A lone "otherwise" must close the cases; one before another condition belongs to a case analysis that goes on.
  if (cases.slice(0, -1).some((c) => c.condition === null)) return null;
  if (isDerivation(cases)) return null;
  // "If $n$ is even, we get $4$. If $n$ is odd, we also get $4$.", "… $f(1) = 4$ … $f(-1) = 4$": cases that agree give their one value.
  const values = new Set(cases.map((c) => lastSide(c.value)));
  const answer = values.size === 1 ? lastSide(cases[0]?.value ?? '') : cases.map((c) => (c.condition === null ? `otherwise ${c.value}` : `if ${c.condition}, ${c.value}`)).join('; ');
  return { answer, start, pointsOnly: cases.every((c) => c.condition !== null && POINT.test(c.condition)) };
}

/**
 * The cases that close a response's last paragraph ({@link conditionFirstCases}), with where they start in the
 * whole response: an answer announced or boxed inside them ("If $n$ is even, the answer is $0$; …") is one case.
 */
export function closingCases(response: string): { answer: string; start: number; pointsOnly: boolean } | null {
  const trimmed = response.trimEnd();
  const paragraphStart = Math.max(0, ...[...trimmed.matchAll(/\n\s*\n/g)].map((m) => m.index + m[0].length));
  const found = conditionFirstCases(trimmed.slice(paragraphStart));
  return found === null ? null : { ...found, start: paragraphStart + found.start };
}
