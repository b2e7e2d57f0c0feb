/**
 * Structural equivalence of two parsed answers. The rules, in order: equal
 * text; answers by cases case by case; a family's parameter range
 * ("k \in \mathbb{Z}") on both sides or neither; labelled equations against
 * their value; relations against relations or the sets they describe; lists
 * and sets without order, tuples with it; intervals and unions by
 * membership; quantities under their readings (percent, units) and
 * expressions numerically.
 */
import { compiled, exprEqual } from '../math/expr-equal.ts';
import { casesVerdict } from '../parse/cases.ts';
import { isLabel, leavesUnsolved, statesAwayFromVariable } from '../parse/labels.ts';
import { coreInGoldParameter, splitParameterRanges } from '../parse/parameters.ts';
import { bindArguments, inequalitiesInOneLetter } from '../parse/parse.ts';
import { equalUpToRenaming } from './renaming.ts';
import { isNamedReals, sameRealSet, toRealSet } from './real-sets.ts';
import { relationsEqual } from './relations.ts';
import { rawText, textKey } from './text-key.ts';
import { labelKey, pairedByName } from './named-parts.ts';
import { byLetter, isVector, ratioIs, ratioTerms, vectorVerdict } from './tuple-readings.ts';
import type { Answer, ResolvedOptions } from '../parse/types.ts';
import { quantityReadings } from '../parse/quantity-readings.ts';
import { openRunVerdict } from './open-runs.ts';
import { oneSaysMore } from './text-overlap.ts';
import { repeatsDiffer, sameMembers, samePositions } from './members.ts';
import { unitPower, unitScale } from '../math/unit-table.ts';
import { canonicalUnit } from '../math/units.ts';

type Relation = Extract<Answer, { kind: 'relation' }>;

/** The value an equation with a name on the left states ("x = 5" → 5). */
function labelledRhs(r: Relation): Answer | null {
  if (r.ops.length !== 1 || (r.ops[0] !== '=' && r.ops[0] !== '\\in')) return null;
  const [lhs, rhs] = r.parts;
  if (lhs === undefined || rhs === undefined) return null;
  const name = lhs.kind === 'expr' ? lhs.tex : lhs.kind === 'tuple' ? rawText(lhs) : null;
  return name !== null && isLabel(name) ? bindArguments(name, rhs) : null;
}

function isAssignmentList(items: readonly Answer[]): boolean {
  return items.length > 1 && items.every((i) => i.kind === 'relation' && labelledRhs(i) !== null && i.ops[0] === '=' && !statesAwayFromVariable(leftOf(i)));
}

/** Whether a relation's left side is a name no formula reads ("\min", "\text{sum}"), not a letter or a function. */
function namesNoFormula(r: Relation): boolean {
  const lhs = r.parts[0];
  return lhs?.kind === 'expr' && compiled(lhs.tex) === null;
}

/** The left side of a relation of two sides, as written; null for another relation. */
function leftOf(r: Relation): string | null {
  const lhs = r.parts[0];
  return lhs === undefined || r.parts.length !== 2 ? null : rawText(lhs);
}

/** Answers that describe a set of reals: intervals, unions, finite sets, "\\mathbb{R} \\setminus \\{0\\}". */
const isIntervalLike = (a: Answer): boolean =>
  a.kind === 'union' || (a.kind === 'tuple' && a.items.length === 2) || a.kind === 'set' || (a.kind === 'expr' && (/\\setminus/.test(a.tex) || isNamedReals(a.tex)));

/** Compares two answers; `gold` and `pred` roles matter for equations only. */
export class AnswerComparer {
  /**
   * Set when some comparison on the way could not be decided (free text,
   * notation the translator does not read, values that agree only in
   * floating point): a "not equal" is then `unsure`.
   */
  unsure = false;

  constructor(private readonly options: ResolvedOptions) {}

  equal(gold: Answer, pred: Answer): boolean {
    if (this.sameText(gold, pred)) return true;
    if (gold.kind === 'cases' || pred.kind === 'cases') return this.casesCase(gold, pred);
    const g = splitParameterRanges(gold);
    const p = splitParameterRanges(pred);
    if (g.core !== gold || p.core !== pred) {
      if (g.ranges === p.ranges) return this.equal(g.core, coreInGoldParameter(g, p));
      // The formulas may agree while only one side says where the parameter ranges.
      if (this.equal(g.core, coreInGoldParameter(g, p))) this.unsure = true;
      return false;
    }
    const open = openRunVerdict(gold, pred);
    if (open !== null) return this.settle(open);
    if (gold.kind === 'list' && gold.items.length === 1 && gold.items[0] !== undefined) return this.equal(gold.items[0], pred);
    if (pred.kind === 'list' && pred.items.length === 1 && pred.items[0] !== undefined) return this.equal(gold, pred.items[0]);
    // "\{5\}" against "5": a set of one answer is that answer, as a list of one is.
    if (gold.kind === 'set' && gold.items[0] !== undefined && gold.items.length === 1 && pred.kind !== 'set' && pred.kind !== 'list') return this.equal(gold.items[0], pred);
    if (pred.kind === 'set' && pred.items[0] !== undefined && pred.items.length === 1 && gold.kind !== 'set' && gold.kind !== 'list') return this.equal(gold, pred.items[0]);
    if (gold.kind === 'relation' || pred.kind === 'relation') return this.relationCase(gold, pred);
    if (gold.kind === 'list' || pred.kind === 'list') return this.listCase(gold, pred);
    if (isIntervalLike(gold) !== isIntervalLike(pred) && this.realSets(gold, pred)) return true;
    // "\mathbb{R}" against "(-\infty, \infty)": a set named or built against one written out; or two read ("\mathbb{R} \setminus \{1\}" against "\mathbb{R} \setminus \{0\}").
    if (isIntervalLike(gold) && isIntervalLike(pred) && (gold.kind !== pred.kind ? gold.kind === 'expr' || pred.kind === 'expr' : gold.kind === 'expr' && toRealSet(gold) !== null && toRealSet(pred) !== null)) return this.namedRealSets(gold, pred);
    if (gold.kind === 'set' && pred.kind === 'set') return sameMembers(gold.items, pred.items, (x, y) => this.equal(x, y));
    if (gold.kind === 'tuple' && pred.kind === 'tuple') return this.tuples(gold, pred);
    if (gold.kind === 'tuple' && pred.kind === 'expr' && isVector(pred.tex)) return this.settle(vectorVerdict(gold, pred.tex, this.options.precision));
    if (pred.kind === 'tuple' && gold.kind === 'expr' && isVector(gold.tex)) return this.settle(vectorVerdict(pred, gold.tex, this.options.precision));
    if (gold.kind === 'union' || pred.kind === 'union') return this.realSets(gold, pred);
    if (gold.kind === 'expr' && pred.kind === 'expr') return this.exprs(gold, pred);
    // "3:4" against "\frac34": a ratio states a value only if the question asks for one.
    if (gold.kind === 'tuple' && pred.kind === 'expr') return this.onlyUnsure(ratioIs(gold, pred.tex, this.options.precision));
    if (pred.kind === 'tuple' && gold.kind === 'expr') return this.onlyUnsure(ratioIs(pred, gold.tex, this.options.precision));
    return false;
  }

  private sameText(gold: Answer, pred: Answer): boolean {
    if (this.options.units === 'strict' && unitOf(gold) !== unitOf(pred)) return false;
    // "3 cm" and "3 mm" read the same without their units: the values decide.
    if (knownUnit(gold) && knownUnit(pred) && unitOf(gold) !== unitOf(pred)) return false;
    // "5 square units" and "5 cubic units": an area is not a volume, whatever the unit.
    if (gold.kind === 'expr' && pred.kind === 'expr' && gold.unit !== null && pred.unit !== null && unitPower(gold.unit) !== unitPower(pred.unit)) return false;
    // The same formula under arguments in another order is another function.
    if (gold.kind === 'expr' && pred.kind === 'expr' && rebinds(gold, pred)) return false;
    const words = gold.kind === 'text' || pred.kind === 'text';
    const g = textKey(gold, words);
    if (g !== '' && g === textKey(pred, words)) return true;
    // Words beyond a name or a choice letter are free text: nobody here can say they differ.
    if (isFreeText(gold) || isFreeText(pred) || oneSaysMore(gold, pred)) this.unsure = true;
    return false;
  }

  private casesCase(gold: Answer, pred: Answer): boolean {
    const verdict = casesVerdict(gold, pred, (x, y) => this.equal(x, y));
    if (verdict === 'unsure') this.unsure = true;
    return verdict === 'equal';
  }

  private relationCase(gold: Answer, pred: Answer): boolean {
    if (gold.kind === 'relation' && pred.kind === 'relation') return this.relations(collapse(gold), collapse(pred));
    return this.relationOnOneSide(gold, pred);
  }

  private relations(gold: Relation, pred: Relation): boolean {
    const gv = labelledRhs(gold);
    const pv = labelledRhs(pred);
    // "x = 5" against "y = 5" differ, but a value list "W(n) = 1" against
    // "W(x) = 1" should still meet.
    // "x = (0, 9) \\cup (9, 36)" and "x \\in (0, 9) \\cup (9, 36)" both name the set the label ranges over.
    if (gv !== null && pv !== null && this.sameLabel(gold, pred)) return this.equal(gv, pv);
    // "\min = 4" against "\max = 4": two names no formula reads are two quantities; weighed as formulas, every
    // pairing of the parts of "\min = 4, \max = 9" against "\min = 9, \max = 4" left the list unsure, never different.
    if (gv !== null && pv !== null && namesNoFormula(gold) && namesNoFormula(pred)) return false;
    const same = relationsEqual(gold, pred, this.options, (x, y) => this.equal(x, y));
    // "f(x+1) = x + 2" is "f(x) = x + 1", which sampling an unknown f cannot show.
    if (same === 'unsure' || (!same && (statesAwayFromVariable(leftOf(gold)) || statesAwayFromVariable(leftOf(pred))))) this.unsure = true;
    return same === true;
  }

  private relationOnOneSide(gold: Answer, pred: Answer): boolean {
    if (gold.kind === 'relation') {
      const value = labelledRhs(gold);
      if (value !== null) return statesAwayFromVariable(leftOf(gold)) ? this.onlyUnsure(this.equal(value, pred)) : this.equal(value, pred);
      if (gold.ops.length > 1 && gold.ops.every((op) => op === '=')) {
        const last = gold.parts[gold.parts.length - 1];
        return last !== undefined && this.equal(last, pred);
      }
      return this.options.relationsAsSets && isIntervalLike(pred) && this.realSets(gold, pred);
    }
    if (pred.kind === 'relation') {
      // A derivation ending in the answer ("\frac12 = \frac{10}{20}"): a
      // prediction's equation states its last side, whatever the left is.
      if (pred.ops.every((op) => op === '=')) {
        const last = pred.parts[pred.parts.length - 1];
        const matches = last !== undefined && this.equal(gold, last);
        return statesAwayFromVariable(leftOf(pred)) || leavesUnsolved(leftOf(pred)) ? this.onlyUnsure(matches) : matches;
      }
      const value = labelledRhs(pred);
      if (value !== null) return this.equal(gold, value);
      return this.options.relationsAsSets && isIntervalLike(gold) && this.realSets(gold, pred);
    }
    return false;
  }

  /** A verdict of a part as this comparison's answer: `unsure` is remembered, and only `equal` is a match. */
  private settle(verdict: 'equal' | 'different' | 'unsure'): boolean {
    if (verdict === 'unsure') this.unsure = true;
    return verdict === 'equal';
  }

  /** A condition that leaves the comparison to a reader: remembered as `unsure`. */
  private onlyUnsureIf(condition: boolean): boolean {
    if (condition) this.unsure = true;
    return condition;
  }

  /** Two readings of one comparison: a match under both is a match, under one only `unsure`. */
  private bothOrders(written: boolean, alphabetical: boolean): boolean {
    if (written !== alphabetical) this.unsure = true;
    return written && alphabetical;
  }

  /** A match that only shows the values might agree: `unsure`, never `equal`. */
  private onlyUnsure(matches: boolean): false {
    if (matches) this.unsure = true;
    return false;
  }

  /**
   * Same name on the left: "W(n)" and "W(x)" in lists of solutions, and
   * "f(x)" and "g(x)" (a function's letter is not the answer) both count;
   * "f(1)" and "f(2)", or "f(2x)" and "f(x)", are other places of one function.
   */
  private sameLabel(a: Relation, b: Relation): boolean {
    return labelKey(a) === labelKey(b);
  }

  private listCase(gold: Answer, pred: Answer): boolean {
    // Conditions that all hold describe one set of reals, the intersection of theirs.
    if ((gold.kind === 'list' && gold.all === true) || (pred.kind === 'list' && pred.all === true)) return this.namedRealSets(gold, pred);
    const eq = (x: Answer, y: Answer): boolean => this.equal(x, y);
    const items = (a: Answer): Answer[] | null =>
      a.kind === 'list' || a.kind === 'set' ? a.items : a.kind === 'tuple' ? a.items : null;
    const g = items(gold);
    const p = items(pred);
    // "a \le -1 or a \ge 1" against "a \le -1, a \ge 1": a list of inequalities in one letter states the same union.
    const pieces = gold.kind === 'list' ? g : p;
    if ((gold.kind === 'union' || pred.kind === 'union') && pieces !== null && inequalitiesInOneLetter(pieces)) {
      const union: Answer = { kind: 'union', parts: pieces };
      return gold.kind === 'list' ? this.realSets(union, pred) : this.realSets(gold, union);
    }
    // "x = 1, x = 1" against "1": as sets, repeats do not count.
    // "\max = 13, \min = 12" against 12: one of the parts it names in words, which only the question says was asked.
    const namedInWords = (items: Answer[]): boolean => isAssignmentList(items) && items.every((i) => i.kind === 'relation' && namesNoFormula(i));
    if (g === null && p !== null && pred.kind === 'list' && namedInWords(p) && p.some((y) => eq(gold, y))) return this.onlyUnsure(true);
    if (g === null && p !== null && pred.kind === 'list') return p.every((y) => eq(gold, y));
    if (p === null && g !== null && gold.kind === 'list') return g.every((x) => eq(x, pred)) && !this.onlyUnsureIf(repeatsDiffer(g, [pred], eq));
    if (g === null || p === null) return false;
    if (gold.kind === 'tuple' || pred.kind === 'tuple') return this.tupleAgainstItems(gold, pred, g, p);
    const assignG = isAssignmentList(g);
    const assignP = isAssignmentList(p);
    // "a = 2, b = 3" against "b = 3, a = 2" or "a = 3, b = 2": the same names pair by name alone (named-parts.ts).
    const byName = assignG && assignP ? pairedByName(g, p, eq) : null;
    if (byName !== null) return byName;
    if (assignG !== assignP) {
      const values = (list: Answer[], assign: boolean): Answer[] =>
        assign ? list.map((i) => (i.kind === 'relation' ? (labelledRhs(i) ?? i) : i)) : list;
      return samePositions(values(g, assignG), values(p, assignP), eq);
    }
    if (this.options.lists === 'ordered' && gold.kind === 'list' && pred.kind === 'list') return samePositions(g, p, eq);
    return sameMembers(g, p, eq) && !(gold.kind === 'list' && pred.kind === 'list' && this.onlyUnsureIf(repeatsDiffer(g, p, eq)));
  }

  /**
   * A tuple against a list, read in order, and in its letters' order for assignments ("y = 2, x = 1"
   * against "(1, 2)" leaves it open). A list is no interval with a bracket, nor values of one unknown a tuple.
   */
  private tupleAgainstItems(gold: Answer, pred: Answer, g: Answer[], p: Answer[]): boolean {
    const eq = (x: Answer, y: Answer): boolean => this.equal(x, y);
    const matches = (): boolean => this.bothOrders(samePositions(g, p, eq), samePositions(byLetter(g), byLetter(p), eq));
    const tuple = gold.kind === 'tuple' ? gold : pred.kind === 'tuple' ? pred : null;
    const list = gold.kind === 'list' ? gold : pred.kind === 'list' ? pred : null;
    if (tuple === null || list === null) return matches();
    // "x = -6 or x = 5": the solutions of one unknown, not the pair (-6, 5) nor the interval [-6, 5].
    if (list.oneUnknown === true) return false;
    // "[-6, 5]" against "-6, 5": an interval is not its ends; "(0, 1)" is more often a point, written "0, 1" too.
    const interval = tuple.items.length === 2 && (tuple.open === '[' || tuple.close === ']');
    return !(interval && !isAssignmentList(list.items)) && matches();
  }

  private tuples(gold: Extract<Answer, { kind: 'tuple' }>, pred: Extract<Answer, { kind: 'tuple' }>): boolean {
    const bracketed = (t: typeof gold): boolean => t.open === '[' || t.close === ']';
    if (gold.items.length === 2 && (bracketed(gold) || bracketed(pred))) {
      if (gold.open !== pred.open || gold.close !== pred.close) return false;
    }
    const same = samePositions(gold.items, pred.items, (x, y) => this.equal(x, y));
    // "6:8" against "3:4": the same ratio in other terms, or two times of day ("12:30", "6:15").
    if (!same && gold.ratio === true && pred.ratio === true) {
      const [a, b] = ratioTerms(gold) ?? [];
      if (a !== undefined && b !== undefined) this.onlyUnsure(ratioIs(pred, `\\frac{${a}}{${b}}`, this.options.precision));
    }
    return same;
  }

  private realSets(gold: Answer, pred: Answer): boolean {
    const a = toRealSet(gold);
    const b = toRealSet(pred);
    if (a === null || b === null) return false;
    return sameRealSet(a, b) === true;
  }

  /** Two descriptions of a set of reals, one by name or by conditions: one the rule cannot read ("\mathbb{R}^+") is `unsure`. */
  private namedRealSets(gold: Answer, pred: Answer): boolean {
    const a = toRealSet(gold);
    const b = toRealSet(pred);
    const same = a === null || b === null ? null : sameRealSet(a, b);
    // Only a description the rule cannot read leaves it open; a number or a tuple that is no set of reals is another answer.
    const unread = (set: unknown, side: Answer): boolean =>
      set === null && ((side.kind === 'expr' && (isNamedReals(side.tex) || side.tex.includes('\\setminus'))) || (side.kind === 'list' && side.all === true));
    if (same === null && ((a !== null && b !== null) || unread(a, gold) || unread(b, pred))) this.unsure = true;
    return same === true;
  }

  private exprs(gold: Extract<Answer, { kind: 'expr' }>, pred: Extract<Answer, { kind: 'expr' }>): boolean {
    if (this.options.units === 'strict' && canonicalUnit(gold.unit) !== canonicalUnit(pred.unit)) return false;
    const precision = this.options.precision;
    for (const reading of quantityReadings(gold, pred, this.options)) {
      const { scaleGold: scaleA, scalePred: scaleB } = reading;
      // "f(y, x) = x" against "f(x, y) = x": arguments pair by position, so the texts alone may agree wrongly.
      const byPosition = reading.asWritten && scaleA === scaleB && rebinds(gold, pred);
      let verdict = byPosition ? equalUpToRenaming(gold, pred, precision) : exprEqual(reading.gold, reading.pred, { precision, scaleA, scaleB, declared: this.options.declared });
      if (verdict === 'different' && !byPosition && reading.asWritten && scaleA === scaleB) {
        // "f(n) = n + 1" against "f(x) = x + 1", "+C" against "+c".
        const renamed = equalUpToRenaming(gold, pred, precision);
        if (renamed !== 'different') verdict = renamed;
      }
      if (verdict === 'equal' && reading.onMatch === 'equal') return true;
      if (verdict === 'equal' || verdict === 'unsure') this.unsure = true;
      if (verdict === 'different' && reading.asWritten && (this.unitLetterMatches(gold, pred) || this.referenceLetterIsUnit(gold, pred))) this.unsure = true;
      if (verdict === null) {
        // Not an expression we can evaluate (\dots, \int): same text, or nobody can say.
        if (textKey(gold) === textKey(pred) && reading.asWritten) return true;
        this.unsure = true;
        return false;
      }
    }
    return false;
  }

  /**
   * "4m" predicted against "4": the letter may be metres or a variable of
   * the question, which the grader does not see; unless the reference uses
   * that letter, a match without it is `unsure`, never `equal`. A letter in
   * the reference is the reference's variable, so only predictions are read so.
   */
  /**
   * "1.2 m" as the reference against "120 cm": the reference's letter is its
   * variable or a unit; read as the prediction's unit's kind, a match is `unsure`.
   */
  private referenceLetterIsUnit(gold: Extract<Answer, { kind: 'expr' }>, pred: Extract<Answer, { kind: 'expr' }>): boolean {
    if (gold.looseUnit == null) return false;
    const letter = unitScale(gold.tex.slice(gold.looseUnit.length).trim());
    const unit = unitScale(pred.unit);
    if (letter === null || unit === null || letter.dimension !== unit.dimension) return false;
    const inUnit = (tex: string, factor: string): string => `(${tex}) \\cdot ${factor}`;
    return exprEqual(inUnit(gold.looseUnit, letter.factor), inUnit(pred.tex, unit.factor), { precision: this.options.precision }) === 'equal';
  }

  private unitLetterMatches(gold: Extract<Answer, { kind: 'expr' }>, pred: Extract<Answer, { kind: 'expr' }>): boolean {
    const stripped = (a: typeof gold, other: typeof gold): string | null => {
      if (a.looseUnit == null) return null;
      const letter = a.tex.slice(a.looseUnit.length).trim().replace(/\^.*$/, '');
      return new RegExp(`(?<![\\\\a-zA-Z])${letter}(?![a-zA-Z])`).test(other.tex) ? null : a.looseUnit;
    };
    const p = stripped(pred, gold);
    return p !== null && exprEqual(gold.tex, p, { precision: this.options.precision }) === 'equal';
  }
}

/** "x = 5 + 5 + 1 = 11": a chain of equalities states its two ends. */
function collapse(r: Relation): Relation {
  if (r.ops.length < 2 || !r.ops.every((op) => op === '=')) return r;
  const first = r.parts[0];
  const last = r.parts[r.parts.length - 1];
  return first === undefined || last === undefined ? r : { kind: 'relation', parts: [first, last], ops: ['='] };
}

/** Text of three words or more: a sentence, not a name or a letter. */
function isFreeText(a: Answer): boolean {
  return a.kind === 'text' && a.text.trim().split(/\s+/).length >= 3;
}

/** Both sides define a function of as many variables, under other names or in another order. */
function rebinds(gold: Extract<Answer, { kind: 'expr' }>, pred: Extract<Answer, { kind: 'expr' }>): boolean {
  const g = gold.bound;
  const p = pred.bound;
  return g !== undefined && p !== undefined && g.length === p.length && g.some((name, k) => name !== p[k]);
}

function knownUnit(a: Answer): boolean {
  return a.kind === 'expr' && unitScale(a.unit) !== null;
}

function unitOf(a: Answer): string {
  return a.kind === 'expr' ? canonicalUnit(a.unit) : '';
}
