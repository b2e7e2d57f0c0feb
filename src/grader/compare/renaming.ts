/**
 * Equality up to renaming: the bound variable of a function ("f(n) = n+1"
 * is "f(x) = x+1") and its free constants ("x^2 + C" is "x^2 + c",
 * "a(x-1)^2" is "c(x-1)^2" as a family of answers). Renaming is what makes
 * these equal, so it is allowed only where a function definition says which
 * letter is bound, or where both sides are expressions in x; otherwise a
 * match found only by renaming ("2a" against "2b", when the question may
 * name both) is `unsure`. Only letters conventionally used for constants
 * are renamed ("2x + y" against "2x + z" stays different).
 */
import { exprEqual, type ExprVerdict } from '../math/expr-equal.ts';
import { identifierFragment } from '../latex/latex-commands.ts';
import { compileLatex } from '../math/mathjs-env.ts';
import type { Answer } from '../parse/types.ts';

type Expr = Extract<Answer, { kind: 'expr' }>;

/** Letters used for arbitrary constants (a-d, k, A-D, C, K, with subscripts): never x, y, z, n, p, r, t... */
const CONSTANT_LIKE = /^v_(?:[a-dkA-DCK])(?:_[A-Za-z0-9]+)?$/;

/** More free constants than this are not permuted (4! = 24 comparisons at most). */
const MAX_FREE = 4;

/** mathjs identifier of a LaTeX variable name ("x" → "v_x", "\alpha" → "v_alpha"). */
function identifier(name: string): string {
  return `v_${identifierFragment(name.replace(/^\\/, '').replace(/[{}]/g, ''))}`;
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [items.slice()];
  return items.flatMap((item, k) => permutations([...items.slice(0, k), ...items.slice(k + 1)]).map((rest) => [item, ...rest]));
}

/**
 * A bare prediction whose one extra letter stands for the reference
 * function's variable: equal under that reading is `unsure`, because the
 * letter might as well be a constant ("c + 1" against "f(x) = x + 1").
 */
function boundByAnotherName(gold: Expr, pred: Expr, precision: number, letter: string, bound: string): ExprVerdict {
  const mapping = new Map([[letter, bound]]);
  return exprEqual(gold.tex, pred.tex, { precision, rename: mapping }) === 'equal' ? 'unsure' : 'different';
}

/**
 * Gold against pred when pred's bound variables take gold's names and some of
 * pred's free letters are those names: the free letters keep values of their
 * own, so only a function that does not depend on them can match.
 */
function freeApart(gold: Expr, pred: Expr, precision: number, rename: ReadonlyMap<string, string>, captured: readonly string[]): ExprVerdict {
  const mapping = new Map(rename);
  for (const name of captured) mapping.set(name, `${name}_free`);
  return exprEqual(gold.tex, pred.tex, { precision, rename: mapping });
}

/**
 * Whether gold and pred are equal once pred's bound variables take gold's
 * names and pred's other letters are matched one to one with gold's letters
 * that pred does not use. `different` when no renaming helps; null when a
 * side cannot be evaluated.
 */
export function equalUpToRenaming(gold: Expr, pred: Expr, precision: number): ExprVerdict {
  const cg = compileLatex(gold.tex.trim());
  const cp = compileLatex(pred.tex.trim());
  // Not an expression the translator reads: the caller compares text.
  if (cg === null || cp === null) return null;
  const rename = new Map<string, string>();
  const goldBound = (gold.bound ?? pred.bound ?? []).map(identifier);
  const predBound = (pred.bound ?? gold.bound ?? []).map(identifier);
  if (goldBound.length === predBound.length) predBound.forEach((name, k) => rename.set(name, goldBound[k] ?? name));
  const goldVars = new Set(cg.vars);
  const predVars = cp.vars.filter((v) => !rename.has(v));
  const boundTargets = new Set(rename.values());
  // "f(y) = x + 1" against "f(x) = x + 1": pred's free x is no bound variable, whatever gold names its own.
  const captured = predVars.filter((v) => boundTargets.has(v));
  if (captured.length > 0) return freeApart(gold, pred, precision, rename, captured);
  // Letters pred uses that gold does not, and gold's letters pred leaves free for them.
  const unmatched = predVars.filter((v) => !goldVars.has(v));
  const usedByPred = new Set([...predVars, ...boundTargets]);
  const open = cg.vars.filter((v) => !usedByPred.has(v) && !boundTargets.has(v));
  if (rename.size === 0 && unmatched.length === 0) return 'different';
  // "n + 1" against "f(x) = x + 1": a bare prediction may use another letter for the function's variable.
  const missingBound = pred.bound === undefined ? goldBound.filter((b) => !cp.vars.includes(b)) : [];
  if (missingBound.length === 1 && unmatched.length === 1 && open.length === 0) return boundByAnotherName(gold, pred, precision, unmatched[0] ?? '', missingBound[0] ?? '');
  if (unmatched.length !== open.length || unmatched.length > MAX_FREE) return 'different';
  // Only letters conventionally constants are matched; "2x + y" and "2x + z" name different variables.
  if (![...unmatched, ...open].every((name) => CONSTANT_LIKE.test(name))) return 'different';
  // Between bare expressions, an x on both sides is read as a function's variable ("x^2 + C").
  const inFunction = gold.bound !== undefined || pred.bound !== undefined || (cg.vars.includes('v_x') && cp.vars.includes('v_x') && !rename.has('v_x'));
  for (const order of permutations(open)) {
    const mapping = new Map(rename);
    unmatched.forEach((name, k) => mapping.set(name, order[k] ?? name));
    if ([...mapping].every(([from, to]) => from === to)) continue;
    if (exprEqual(gold.tex, pred.tex, { precision, rename: mapping }) === 'equal') return inFunction ? 'equal' : 'unsure';
  }
  return 'different';
}
