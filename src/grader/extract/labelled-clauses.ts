/**
 * A last sentence that gives two quantities, each under its name: "The roots
 * are $1$ and $2$; sum $3$.", "The smaller root is $2$; the larger is $5$."
 * Which of them answers depends on the question, which the extraction does
 * not read: it took the first, and the grade was sure of it either way (the
 * right sum 3 graded different; a wrong larger root passed where the smaller
 * was asked). The grade reads these clauses with the question (grade.ts).
 */
import { joinedUpTo } from './statement.ts';
import { mathSegments } from './segments.ts';

/** One clause of such a sentence: the name it gives its value ("roots", "sum", "larger") and the value. */
export interface LabelledClause {
  label: string;
  value: string;
}

/** Words around a name that name nothing: articles, possessives, the verb that states the value. */
const NOT_A_NAME = /^(?:the|a|an|its|their|his|her|our|is|are|was|were|equals?|be|becomes?|then|and|so|thus|hence|therefore|we|get|have|has|value|of|respectively)$/i;

/** Words that open a condition, a reason or a case, not a name: "for $n = 3$ the construction fails". */
const NO_NAME = /^(?:for|with|when|if|at|in|on|to|by|from|since|because|where|which|that|as|but|or|not|since|whereas|while)$/i;

/** What may follow a clause's value: its unit or counter in a word or two, and the full stop. */
const CLOSES_ON_VALUE = /^[\s.!)*]*(?:\p{L}+[\s.!]*){0,2}$/u;

/** The last sentence of the last paragraph of `text` (a full stop inside mathematics ends none). */
function lastSentence(text: string): string {
  const paragraph = text.trim().split(/\n\s*\n/).pop() ?? '';
  const math = mathSegments(paragraph);
  let start = 0;
  for (const m of paragraph.matchAll(/[.!?](?=\s)|\n/g)) {
    if (!math.some((s) => s.start <= m.index && m.index < s.end) && m.index < paragraph.trimEnd().length - 1) start = m.index + 1;
  }
  return paragraph.slice(start).trim();
}

/** A clause's name: its last word in prose before its first math that names something. */
function labelOf(clause: string, firstMath: number): string | null {
  const words = (clause.slice(0, firstMath).match(/\p{L}+/gu) ?? []).filter((word) => !NOT_A_NAME.test(word));
  const name = words[words.length - 1];
  return name === undefined || NO_NAME.test(name) ? null : name.toLowerCase().replace(/s$/, '');
}

/**
 * The clauses of the last sentence of `text` when it gives two quantities or more under different names, joined by
 * semicolons; null for any other sentence.
 */
export function labelledClauses(text: string): LabelledClause[] | null {
  const sentence = lastSentence(text);
  const math = mathSegments(sentence);
  const cuts = [...sentence.matchAll(/;/g)].map((m) => m.index).filter((at) => !math.some((s) => s.start <= at && at < s.end));
  if (cuts.length === 0) return null;
  const clauses: LabelledClause[] = [];
  for (const [k, start] of [0, ...cuts.map((at) => at + 1)].entries()) {
    const clause = sentence.slice(start, cuts[k] ?? sentence.length);
    const own = mathSegments(clause);
    const first = own[0];
    const label = first === undefined ? null : labelOf(clause, first.start);
    const last = own[own.length - 1];
    if (first === undefined || last === undefined || label === null || !CLOSES_ON_VALUE.test(clause.slice(last.end))) return null;
    clauses.push({ label, value: joinedUpTo(clause, own, own.length - 1) });
  }
  return new Set(clauses.map((c) => c.label)).size === clauses.length ? clauses : null;
}

/** The sentence of a question that asks: its last one with an asking word ("Find", "What is", "Compute"). */
function askingSentence(question: string): string {
  const sentences = question.split(/(?<=[.?!])\s+|\n/);
  return sentences.filter((s) => /\b(?:find|compute|determine|calculate|evaluate|what|which|give|state|how)\b/i.test(s)).pop() ?? '';
}

/** The clause whose name the question asks for first in its asking sentence; null when it names none of them. */
export function askedClause(clauses: readonly LabelledClause[], question: string): LabelledClause | null {
  const asking = askingSentence(question).toLowerCase();
  let best: { clause: LabelledClause; at: number } | null = null;
  for (const clause of clauses) {
    const at = asking.search(new RegExp(String.raw`\b${clause.label}`));
    if (at >= 0 && (best === null || at < best.at)) best = { clause, at };
  }
  return best?.clause ?? null;
}
