/**
 * A last sentence that gives two quantities, each under its name: "The roots
 * are $1$ and $2$; sum $3$.", "The smaller root is $2$; the larger is $5$."
 * Which of them answers depends on the question, which the extraction does
 * not read: it took the first, and the grade was sure of it either way (the
 * right sum 3 graded different; a wrong larger root passed where the smaller
 * was asked). The grade reads these clauses with the question (grade.ts).
 */
import { endWindow } from './end-window.ts';
import { joinedUpTo } from './joined-values.ts';
import { mathSegments, sentencesOf } from './segments.ts';

/** One clause of such a sentence: the name it gives its value ("roots", "sum", "larger") and the value. */
export interface LabelledClause {
  label: string;
  value: string;
  /** Whether the clause states a count of what it names: "The number of handshakes is $45$". */
  counts: boolean;
}

/** Words around a name that name nothing: articles, possessives, the verb that states the value, a link. */
const NOT_A_NAME = /^(?:the|a|an|its|their|his|her|our|is|are|was|were|equals?|be|becomes?|then|and|so|thus|hence|therefore|we|get|have|has|value|of|respectively|it|follows|that|finally)$/i;

/** Words that open a condition, a reason or a case, not a name: "for $n = 3$ the construction fails". */
const NO_NAME = /^(?:for|with|when|if|at|in|on|to|by|from|since|because|where|which|as|but|or|not|whereas|while)$/i;

/** What may follow a clause's value: its unit or counter in a word or two, and the full stop. */
const CLOSES_ON_VALUE = /^[\s.!)*]*(?:\p{L}+[\s.!]*){0,2}$/u;

/** Where a clause naming another quantity starts after "and": "…, and the maximum is $9$", "and the smallest value is $12$". */
const AND_NAMED = /,?\s+and\s+(?=(?:the|its|their)\s+\p{L}+(?:\s+\p{L}+)?\s+(?:is|are|was|equals?)\b)/giu;

/** A clause that opens on a quantity's name and the verb that states it: "The largest is $13$", "and the area was $12$". */
const NAMED_AS = /^\s*(?:the|its|their)\s+\p{L}+(?:\s+\p{L}+)?\s+(?:is|are|was|equals?)\s*\$/iu;

/** A value stated under a letter of its own: "$x = 2$". */
const LETTER_VALUE = /^\s*([a-zA-Z])\s*=/;

/** The sentences of the last paragraph of `text`. */
function lastSentences(text: string): string[] {
  // A paragraph looped until the window was full is read at its end only (end-window.ts).
  const paragraph = endWindow(text.trim().split(/\n\s*\n/).pop() ?? '');
  return sentencesOf(paragraph).map((sentence) => sentence.text.trim()).filter((sentence) => sentence !== '');
}

/** A clause's name: its last word in prose before its first math that names something, else the letter its value is stated under. */
function labelOf(clause: string, firstMath: { start: number; text: string }, single: boolean): string | null {
  const words = (clause.slice(0, firstMath.start).match(/\p{L}+/gu) ?? []).filter((word) => !NOT_A_NAME.test(word));
  const name = words[words.length - 1];
  if (name !== undefined) return NO_NAME.test(name) ? null : name.toLowerCase().replace(/s$/, '');
  const letter = single ? LETTER_VALUE.exec(firstMath.text)?.[1] : undefined;
  return letter === undefined ? null : `$${letter}$`;
}

/** The clause `text` is when it states one value under its name; null otherwise. */
function clauseOf(text: string): LabelledClause | null {
  const own = mathSegments(text);
  const first = own[0];
  const last = own[own.length - 1];
  if (first === undefined || last === undefined || !CLOSES_ON_VALUE.test(text.slice(last.end))) return null;
  const label = labelOf(text, first, own.length === 1);
  const counts = /\b(?:number|count|total)\b/i.test(text.slice(0, first.start));
  return label === null ? null : { label, value: joinedUpTo(text, own, own.length - 1), counts };
}

/** Where `sentence` divides into clauses: its semicolons (unless `andOnly`), and "and" before a clause naming another quantity, outside math. */
function clauseCuts(sentence: string, andOnly = false): Array<{ at: number; width: number }> {
  const math = mathSegments(sentence);
  const outside = (at: number): boolean => !math.some((s) => s.start <= at && at < s.end);
  const semicolons = andOnly ? [] : [...sentence.matchAll(/;/g)].map((m) => ({ at: m.index, width: 1 }));
  const ands = [...sentence.matchAll(AND_NAMED)].map((m) => ({ at: m.index, width: m[0].length }));
  return [...semicolons, ...ands].filter((cut) => outside(cut.at)).sort((a, b) => a.at - b.at);
}

/** The clauses of `sentence`, or null when one of them names no quantity. */
function clausesOf(sentence: string, andOnly = false): LabelledClause[] | null {
  const clauses: LabelledClause[] = [];
  let start = 0;
  for (const cut of [...clauseCuts(sentence, andOnly), { at: sentence.length, width: 0 }]) {
    const clause = clauseOf(sentence.slice(start, cut.at));
    if (clause === null) return null;
    clauses.push(clause);
    start = cut.at + cut.width;
  }
  return clauses;
}

/**
 * The quantities the end of `text` names, when it gives two or more under different names: the clauses of its last
 * sentence (joined by semicolons or by "and the … is"), or its last sentences that each state one ("The minimum is
 * $5$. The maximum is $9$."); null for any other ending.
 */
export function labelledClauses(text: string): LabelledClause[] | null {
  const sentences = lastSentences(text);
  let clauses = clausesOf(sentences[sentences.length - 1] ?? '') ?? [];
  for (let k = sentences.length - 2; k >= Math.max(0, sentences.length - 3) && clauses.length === 1; k -= 1) {
    const before = clausesOf(sentences[k] ?? '');
    if (before === null || before.length !== 1) break;
    clauses = [...before, ...clauses];
  }
  return clauses.length >= 2 && new Set(clauses.map((c) => c.label)).size === clauses.length ? clauses : null;
}

/**
 * The quantities one last sentence names in words, each in its clause that "and the … is" joins: "The largest is $13$
 * and the smallest is $12$."; null for any other ending (a letter's value, a semicolon's remark, several sentences).
 */
export function andJoinedClauses(text: string): LabelledClause[] | null {
  const sentences = lastSentences(text);
  const sentence = sentences[sentences.length - 1] ?? '';
  // Each clause names its quantity and states it: "the largest is", not "We find $x = 3$ and so …".
  const parts = sentence.split(AND_NAMED);
  if (parts.length < 2 || !parts.every((part) => NAMED_AS.test(part))) return null;
  const clauses = clausesOf(sentence, true);
  if (clauses === null || clauses.length < 2 || clauses.some((clause) => clause.label.startsWith('$'))) return null;
  return new Set(clauses.map((c) => c.label)).size === clauses.length ? clauses : null;
}

/** Words that ask for a quantity. */
const ASKS = /\b(?:find|compute|determine|calculate|evaluate|what|which|give|state|how)\b/i;

/** The sentence of a question that asks, from its asking word: its last one with one ("Find", "What is", "Compute"). */
export function askingSentence(question: string): string {
  // Split as a response's sentences are (segments.ts): a dot inside the question's mathematics ends none.
  const asking = sentencesOf(question).map((s) => s.text).filter((s) => ASKS.test(s)).pop() ?? '';
  // "Given $x$ and $y$, find $x$.": what the sentence asks for follows its asking word.
  return asking.slice(Math.max(0, asking.search(ASKS)));
}

/** Where the asking sentence names a clause's quantity: its word ("sum", "roots"), or its letter set as math ("$x$"). */
function namedAt(asking: string, label: string, counts: boolean): { at: number; end: number } | null {
  const pattern = label.startsWith('$') ? new RegExp(String.raw`\$\s*${label.slice(1, -1)}\s*\$|\\\(\s*${label.slice(1, -1)}\s*\\\)`) : new RegExp(String.raw`\b${label}s?\b`);
  const found = pattern.exec(asking);
  if (found === null) return null;
  // "How many integers $n$ …", "Find the sum of all $n$": the letter names what is counted or summed, not what is asked.
  if (label.startsWith('$') && COUNTED_BEFORE.test(asking.slice(0, found.index))) return null;
  // "How many ordered pairs …", "the sum of the roots": the word names what is counted or added up, not what is asked,
  // unless the clause states that count ("The number of handshakes is $45$").
  if (!label.startsWith('$') && !counts && COUNTED_WORD_BEFORE.test(asking.slice(0, found.index))) return null;
  return { at: found.index, end: found.index + found[0].length };
}

/**
 * Words right before a name (a few words between: "how many ordered pairs") that make it what the question counts or
 * adds up. Read as the quantity asked, "How many ordered pairs …" graded the list of pairs, not their count: the
 * right count was graded different, sure of it. "Find all roots" still asks for the roots.
 */
const COUNTED_WORD_BEFORE = /\b(?:how\s+many|(?:number|count|sum|product|average|mean)\s+of)\s+(?:\p{L}+\s+){0,3}$/iu;

/** Words before a letter that make it what the question counts or adds up, not the quantity it asks for. */
const COUNTED_BEFORE = /\b(?:how\s+many|number|numbers|sum|product|count|all|every|each|average|mean)\b/i;

/**
 * The clauses whose quantities the question's asking sentence names, in the order it names them: one, or several
 * joined as one request ("Find $x$ and $y$.", "the smallest and the largest"); null when it names none.
 */
export function askedClauses(clauses: readonly LabelledClause[], question: string): LabelledClause[] | null {
  const asking = askingSentence(question).toLowerCase();
  const named = clauses
    .map((clause) => ({ clause, where: namedAt(asking, clause.label.toLowerCase(), clause.counts) }))
    .filter((n): n is { clause: LabelledClause; where: { at: number; end: number } } => n.where !== null)
    .sort((a, b) => a.where.at - b.where.at);
  const [first] = named;
  if (first === undefined) return null;
  const joined = [first];
  for (const next of named.slice(1)) {
    const previous = joined[joined.length - 1];
    if (previous === undefined || !/^[\s$]*(?:,|and|&|or)[\s$]*(?:the\s+)?$/.test(asking.slice(previous.where.end, next.where.at))) break;
    joined.push(next);
  }
  return joined.map((n) => n.clause);
}

/** The clause whose quantity the question's asking sentence names first; null when it names none, or several as one request. */
export function askedClause(clauses: readonly LabelledClause[], question: string): LabelledClause | null {
  const asked = askedClauses(clauses, question);
  return asked?.length === 1 ? (asked[0] ?? null) : null;
}
