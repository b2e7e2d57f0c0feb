/**
 * A value offered as an alternative to the one before it, at the end of an
 * unannounced answer: "Hence we get $12$ (or possibly $13$).", "So it is $12$,
 * though it could be $13$." Read as the last math, the hedge's value was taken
 * for the answer, sure of it: a wrong reference 13 was graded equal. The
 * statement from the value before is read instead, hedge and all, as an
 * announced one is (statement.ts), so that the grade is unsure.
 */
import { ALTERNATIVE, OTHERWISE_ANOTHER, statementAt } from './statement.ts';
import { JOINER } from './joined-values.ts';
import { mathSegments, numbers, type Segment } from './segments.ts';
import { lastBoxedAnswer, lastBoxEnd } from './boxes.ts';

/** The statement from the math before the last of `paragraph` when the last is offered as its alternative, else null. */
export function offeredAlternative(paragraph: string, math: readonly Segment[]): string | null {
  const lastMath = math[math.length - 1];
  const previous = math[math.length - 2];
  if (lastMath === undefined || previous === undefined) return null;
  const gap = paragraph.slice(previous.end, lastMath.start);
  // "Hence $x = 7$. Alternatively, $x = 8$ if …": a sentence that offers another value hedges the one before it.
  if (ALTERNATIVE_SENTENCE.test(gap) && valueStated(previous.text) !== valueStated(lastMath.text)) {
    return paragraph.slice(previous.start).replace(/\$/g, '').replace(/\s+/g, ' ').trim();
  }
  // "So we get $12$, but $15$ is too.": a clause that gives a second value as a result as well offers two.
  const addedAsWell = (CLAUSE_JOINER.test(gap) && AS_WELL_AT_END.test(clauseAfter(paragraph, lastMath.end))) || (SO_DOES.test(gap) && /^\s*[.!]?\s*$/.test(clauseAfter(paragraph, lastMath.end)));
  if (addedAsWell && valueStated(previous.text) !== valueStated(lastMath.text)) {
    return paragraph.slice(previous.start).replace(/\$/g, '').replace(/\s+/g, ' ').trim();
  }
  // "$x = 2$ or $x = 3$": a plain "or" joins the two into one answer already.
  // "$7$, though $8$ might also work": the words after the offered value say it is offered.
  // "$12$ if rotations count as distinct, otherwise $3$": the other case's value is offered as well.
  const offered = paragraph.slice(previous.end, lastMath.end + ALTERNATIVE_REACH);
  if (JOINER.test(gap) || ![ALTERNATIVE, OTHERWISE_ANOTHER].some((words) => words.test(offered))) return null;
  return statementAt(paragraph, previous.start);
}

/**
 * Between two values, the words that open a clause or a sentence on the second: ", but", ", and", "; ", ". But". A bare
 * "and" is not one: "$x = 1$ and $x = 2$ work too" joins the two into one answer already (joined-values.ts).
 */
const CLAUSE_JOINER = /^\s*(?:[,;.]\s*(?:but|and|though|although|while|yet)?|(?:but|though|although|while|yet))\s*$/i;

/** "$12$ works, but so does $15$.": the second value said to do what the first does, with nothing after it. */
const SO_DOES = /^[^$\n.]{0,40}?[,;]?\s*(?:but|and)\s+so\s+(?:does|do|is|are|would)\s*$/i;

/**
 * The rest of a second value's clause that says it is a result as well, and nothing more: "is too", "works too", "is also
 * a solution", "as well". Read as the last math, the added 15 of "So we get $12$, but $15$ is too." was the answer,
 * graded equal to a reference 15, sure of it. "is too large", "too, fails" and "is also too big" reject it (denied.ts);
 * "is also $\le 20$" and "too many" say more than that it is a result.
 */
const AS_WELL_AT_END =
  /^\s*(?:(?:is|are|was|would\s+be|works?|holds?|qualifies|counts|fits|satisfies\s+(?:it|this|the\s+\w+))\s+)?(?:(?:also|too|as\s+well)(?:\s+(?:works?|holds?|(?:a|an|one|another)\s+(?:valid\s+)?(?:solution|answer|root|possibility|candidate)|valid|possible))?|(?:a|an)\s+(?:valid\s+)?(?:solution|answer|root)\s+(?:too|as\s+well))\s*[.!]?\s*$/i;

/** The text after `from` to the end of its sentence. */
function clauseAfter(paragraph: string, from: number): string {
  return paragraph.slice(from).split(/[.!?](?:\s|$)|\n/)[0] ?? '';
}

/**
 * What a math segment comes to, after its last "=": "x = 7" and "10 - 3 = 7" are both 7. "Hence $x = 7$.
 * Alternatively, one can count complements: $10 - 3 = 7$." finds the same value another way, and compared whole, the
 * two were read as a hedge between values: the right 7 graded unsure.
 */
function valueStated(tex: string): string {
  return (tex.split('=').pop() ?? tex).replace(/\s+/g, '');
}

/**
 * Between two values, the start of a sentence that offers the second instead: "… $x = 7$. Alternatively, $x = 8$ …",
 * "… $12$. Or perhaps $13$.", "… $12$. Maybe $13$, though." Read as the last math, the offered 8 was graded equal to
 * a reference 8, sure of it; the two are read as one hedged statement, which only a reader settles.
 */
const ALTERNATIVE_SENTENCE = /^[^\n$]{0,60}?[.!?]\s+(?:alternatively|or\s+(?:perhaps|maybe|possibly|else)|perhaps|maybe|possibly)\b[^.\n$]{0,40}$/i;

/**
 * Whether the last box of `final` is followed, in its sentence, by another value it offers (one that `sameValue` finds
 * the box's own is a restatement): "$\boxed{12}$, or perhaps
 * $13$", "\boxed{12} (or possibly 13)", "$\boxed{12}$, though it could be $13$". The box is then one of two candidate
 * answers and the reply hedges between them: read alone, the box's 12 was graded equal to a reference 12, sure of it.
 */
export function alternativeAfterLastBox(final: string, sameValue: (a: string, b: string) => boolean = () => false): boolean {
  const end = lastBoxEnd(final);
  if (end < 0) return false;
  const after = final.slice(end, end + ALTERNATIVE_REACH);
  // The math that closes around the box ("$\boxed{12}$, or …") is no value offered after it.
  const opened = after.replace(/^\s*(?:\$\$?|\\[)\]])/, '');
  // "$\boxed{\frac{1}{2}}$, or $50\%$": the box again in another notation restates it; read as an alternative, the
  // right 1/2 was graded unsure.
  const restated = (): boolean => {
    const next = mathSegments(opened)[0]?.text ?? numbers(opened)[0]?.text;
    return next !== undefined && sameValue(next, lastBoxedAnswer(final) ?? '');
  };
  if (ALTERNATIVE.test(after) && OFFERED_NEXT.test(opened) && !restated()) return true;
  // "$\boxed{12}$ (if rotations count as distinct; otherwise $3$)": the value of the other case is offered too.
  if (OTHERWISE_ANOTHER.test(after)) return true;
  // "$\boxed{12}$.\n\nOr perhaps $13$?": a sentence after the box that offers another value hedges it as well.
  const offered = OFFERED_AFTER_BOX.exec(after)?.[1];
  const squeezed = (tex: string): string => tex.replace(/[\s$]+/g, '');
  return offered !== undefined && squeezed(offered) !== squeezed(lastBoxedAnswer(final) ?? '');
}

/** A sentence or a paragraph right after a box that opens on a hedge and offers a value: the value. */
const OFFERED_AFTER_BOX = /^[^\n]{0,10}?(?:[.!?]\s+|\n\s*)(?:alternatively|or\s+(?:perhaps|maybe|possibly|else)|perhaps|maybe|possibly)\b[^.\n$\d]{0,20}(\$[^$\n]{1,40}\$|\d[\d.,/]*)/i;

/**
 * The hedge after a box offers a value right after its words ("or perhaps $13$", "(maybe $13$ if …)", "; possibly
 * $13$", "though it could be $13$", "although $13$ is also possible"), in the box's line. ALTERNATIVE alone also took
 * "(perhaps easiest via $2 + 2$)", ", or perhaps more simply $2 + 2$", "(possibly written as $4$ …)" and a next
 * paragraph's "Perhaps surprisingly, … $4$" for a second answer: a right box graded unsure.
 */
const OFFERED_NEXT =
  /^(?:[ \t(*—–]*|[^.\n]{0,40}?[,;(—–][ \t]*)(?:or[ \t]+(?:else[ \t]+)?|(?:though|although|but)[ \t]+(?:it[ \t]+(?:could|might|may)[ \t]+(?:also[ \t]+)?be[ \t]+)?)?(?:(?:perhaps|possibly|maybe)[ \t]+)?(?:(?:even|also|just|instead|rather)[ \t]+)?(?:\$|\\[([]|\\boxed|-?\d)/i;

/** How far after a box its alternative is looked for: the rest of its sentence. */
const ALTERNATIVE_REACH = 200;

/**
 * A sentence after the answer that offers another value as the answer under another reading of the problem ("Note: if
 * the problem meant ordered pairs, the answer would be $24$.") or as possible as well ("I'm fairly confident, though
 * $13$ is possible.", "However, I'm unsure whether $13$ should be counted."). Read past, the answer before it was graded equal to its reference, sure of it, where the reply
 * left the choice between the two to the reader. "If we had $n = 3$, the sum would be $9$" (a check) and "Though $12$
 * seems large, it is right" offer no other answer.
 */
export function offersOtherValue(sentence: string, answer: string): boolean {
  const granted = POSSIBLE_OTHER.exec(sentence) ?? DOUBTED_OTHER.exec(sentence);
  // "Although $9$ looks plausible at first, it fails", "I was unsure about $n = 0$ initially, but …": settled at once.
  const settled = granted !== null && (SETTLED_LATER.test(sentence) || SETTLED_AFTER.test(sentence.slice(granted.index + granted[0].length)));
  const offered = OTHER_READING.exec(sentence)?.[1] ?? (settled ? undefined : granted?.[1]);
  const squeezed = (tex: string): string => tex.replace(/[\s$]+/g, '').replace(/^[a-zA-Z]=/, '');
  return offered !== undefined && squeezed(offered) !== squeezed(answer);
}

/** A doubt or a grant of a value that the reply had only for a while: "at first", "initially". */
const SETTLED_LATER = /\b(?:at\s+first|initially|originally|for\s+a\s+moment)\b/i;

/** Words after a granted or doubted value that settle it in the same sentence: ", but it fails", "it violates …". */
const SETTLED_AFTER = /\b(?:but|yet|however|fails?|violates?|excluded|ruled\s+out|rejected|impossible)\b/i;

/** "if the problem meant …", "if order matters", "if the balls are distinguishable", then the value that reading gives. */
const OTHER_READING =
  /\bif\s+(?:the\s+(?:problem|question)\s+(?:meant|means|intends?|intended|asks?|asked|wants?|wanted)|order\s+(?:matters|mattered|does\s*n[o']t\s+matter)|(?:\w+\s+){1,3}(?:are|is|were|was)\s+(?:considered|counted|treated|regarded|distinguishable|indistinguishable|identical|distinct|allowed))\b[^.\n]{0,80}?\b(?:would|will|becomes?|is)\b[^.\n$\d]{0,30}(\$[^$\n]{1,40}\$|\d[\d.,/]*)/i;

/** "though $13$ is possible", "but 13 could also be correct": another value the reply grants may be the answer. */
const POSSIBLE_OTHER =
  /\b(?:though|although|but|however)\b[^.\n$\d]{0,30}?(\$[^$\n]{1,40}\$|\b\d[\d.,/]*)\s+(?:is|seems|looks|might|could|may)\s+(?:also\s+)?(?:be\s+)?(?:possible|plausible|correct|right|valid|the\s+(?:right\s+|correct\s+)?answer)\b/i;

/** "I'm unsure whether $13$ should be counted", "not sure if 13 is included": a doubt that names another value. */
const DOUBTED_OTHER =
  /\b(?:unsure|not\s+(?:entirely\s+|completely\s+)?(?:sure|certain)|uncertain|doubtful)\s+(?:whether|if|about)\b[^.\n$\d]{0,30}?(\$[^$\n]{1,40}\$|\b\d[\d.,/]*)/i;
