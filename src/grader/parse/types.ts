/**
 * Public option and result types of the grader, and the parsed shape of an
 * answer that the comparison works on.
 */
import { NONE_DECLARED, type DeclaredLetters } from '../math/declared-letters.ts';

/** How `gradeAnswer` treats conventions on which graders disagree. */
export interface GradeOptions {
  /**
   * 'ignore' (default): a unit that names what is measured or counted is
   * dropped ("5 cm" and "7 ways" equal "5" and "7"); units of the same
   * dimension on both sides are converted ("30 cm" equals "300 mm", "3 cm"
   * is not "3 mm"); degrees and radians are converted ("60^\circ" equals
   * "\frac{\pi}{3}"). 'strict': units must match too.
   */
  units?: 'ignore' | 'strict';
  /**
   * 'lenient' (default): a reference "50\%" equals "50", "0.5" and
   * "\frac12", because models answering "what percent" often drop the sign;
   * a percent only in the prediction is its value ("10\%" equals 0.1, never
   * 10). 'value': "50\%" is 0.5 only. A per mille sign is always its value.
   */
  percent?: 'lenient' | 'value';
  /**
   * 'unordered' (default): a bare list "1, 2" is an answer set, so it equals
   * "2, 1". 'ordered': position matters (as in hendrycks/math's `is_equiv`).
   * Parenthesised tuples "(1, 2)" are always ordered.
   */
  lists?: 'unordered' | 'ordered';
  /**
   * Significant digits a decimal must carry to equal another decimal written
   * to more places that rounds to it ("0.6667" against "0.66667" needs 4),
   * and the most digits a decimal inside an expression is taken to be
   * rounded at. Default 6. A decimal never equals a closed form it is not
   * exactly ("0.333333" against "\frac13" is `unsure`); exact forms are
   * compared exactly (rationals) or to about 40 digits (other constants).
   * See decimals.ts.
   */
  precision?: number;
  /**
   * true (default): an inequality or membership statement equals the set it
   * describes ("x \le 3" equals "(-\infty, 3]").
   */
  relationsAsSets?: boolean;
}

/**
 * What the grader may know beyond the two answers, so as not to call equal
 * what it cannot know to be: without it, answers are compared as values.
 */
export interface GradeContext {
  /**
   * The problem's text. When it asks for a form ("Factor …", "in simplest
   * form", "in interval notation", "in the form …", "Express … as …"), a
   * prediction equal in value but written in another form than the reference
   * is `unsure` (asked-form.ts, form-key.ts).
   */
  question?: string;
  /**
   * The whole response the prediction was extracted from. When it gives
   * several final answers that are not all the same value (several boxes
   * apart, as in "(a) \boxed{No} … (c) \boxed{Yes}"), the verdict is
   * `unsure`: which one answers the question is for a reader to say.
   */
  response?: string;
}

/**
 * Verdict of a comparison: `unsure` when an answer could not be parsed or
 * compared with confidence (free text, notation beyond the rules), so that a
 * judge, or a person, decides.
 */
export type Verdict = 'equal' | 'different' | 'unsure';

/** Outcome of one comparison; `pred` and `gold` are the normalised forms. */
export interface Grade {
  /** True only for `verdict === 'equal'`. */
  equal: boolean;
  verdict: Verdict;
  pred: string;
  gold: string;
  /**
   * The reading of the prediction the grade compared, as written: the extracted answer, or the clause or the count its
   * question asks for (asked-answer.ts); null for no prediction. A result line shows it and a vote counts it, so that
   * neither reads the response a second time.
   */
  answer: string | null;
}

/** Comparison operators of a relation, after synonyms are unified. */
export type RelationOp = '=' | '<' | '>' | '\\le' | '\\ge' | '\\ne' | '\\in' | '\\to';

/** A parsed answer: the structure that comparison and printing walk. */
export type Answer =
  /** One mathematical expression, in cleaned LaTeX. */
  | {
      kind: 'expr';
      tex: string;
      percent: boolean;
      unit: string | null;
      /** The value without a trailing one-letter unit or variable ("4m" → "4"). */
      looseUnit?: string | null;
      /** The bound variables when this is the right side of "f(x) = ...": a function's other letters are its free constants. */
      bound?: string[];
    }
  /** Words ("odd", "\text{Evelyn}", a choice letter), compared as text. */
  | { kind: 'text'; text: string }
  /** "(a, b)" or "[a, b)": a tuple, or an interval when it has two items. */
  | {
      kind: 'tuple';
      items: Answer[];
      open: '(' | '[';
      close: ')' | ']';
      /** Written "a:b": a ratio, which other terms in proportion may state too. */
      ratio?: boolean;
    }
  /** "\{a, b\}": unordered, duplicates ignored. */
  | { kind: 'set'; items: Answer[] }
  /** A bare list "a, b" / "a and b": unordered unless options say otherwise. */
  | {
      kind: 'list';
      items: Answer[];
      /** Joined by "and" ("x > 0 and x \ne 3"): conditions that all hold, the intersection of their sets. */
      all?: boolean;
      /** "x = 2, x = 4", "n = 1, 2, 3": the values of one unknown, which no tuple or interval is. */
      oneUnknown?: boolean;
    }
  /** "A \cup B". */
  | { kind: 'union'; parts: Answer[] }
  /** "a < b \le c": parts.length === ops.length + 1. */
  | { kind: 'relation'; parts: Answer[]; ops: RelationOp[] }
  /** "1 if n is odd, 0 otherwise": each case's condition in one spelling (cases.ts) and its value. */
  | { kind: 'cases'; label: string | null; items: Array<{ when: string; value: Answer }> };

/** Options with every default filled in, and what the question declares its letters to be (declared-letters.ts). */
export type ResolvedOptions = Required<GradeOptions> & { declared: DeclaredLetters };

/** Fills in the documented defaults. */
export function resolveOptions(options: GradeOptions | undefined, declared: DeclaredLetters = NONE_DECLARED): ResolvedOptions {
  return {
    declared,
    units: options?.units ?? 'ignore',
    percent: options?.percent ?? 'lenient',
    lists: options?.lists ?? 'unordered',
    precision: options?.precision ?? 6,
    relationsAsSets: options?.relationsAsSets ?? true,
  };
}
