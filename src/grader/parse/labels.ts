/**
 * Labels: the left-hand sides that name an answer rather than constrain it
 * ("x = 5", "f(x) = 2x+1", "(p, q) = (3, 2)", "AB:CD = 7:32", "|AB| = 1").
 * An equation with a label on the left equals its right-hand side alone;
 * "7 = 11a + c" or "a + 3z = 0" do not, because their left sides carry content.
 */

/** Strips `{}`-free parenthesised groups repeatedly: "f(x-1)" → "f()". */
function withoutArguments(tex: string): string {
  let out = tex;
  for (let guard = 0; guard < 10; guard += 1) {
    const next = out.replace(/\([^()]*\)/g, '()');
    if (next === out) break;
    out = next;
  }
  return out;
}

/** True when `tex` is a name-like expression that an equation's left side may carry. */
export function isLabel(tex: string): boolean {
  const t = tex
    .trim()
    .replace(/_\{[^{}]*\}|_\\?[a-zA-Z0-9]+/g, '')
    .replace(/\^\s*\{?\\prime\}?|'/g, '');
  if (!/[a-zA-Z]/.test(t)) return false;
  const bare = withoutArguments(t);
  if (/\d/.test(bare)) return false;
  if (/[+\-=<>*]|\\(?:cdot|times|pm|le|ge|ne|sqrt|infty|pi|mid)(?![a-zA-Z])/.test(bare)) return false;
  // A Greek or other single-letter command is a name; longer control
  // structures (\sum, \int) are not.
  const commands = bare.match(/\\[a-zA-Z]+/g) ?? [];
  return commands.every((c) => /^\\(?:frac|angle|overline|text|mathrm|[a-zA-Z]{2,8})$/.test(c) && !/^\\(?:sum|int|prod|lim)$/.test(c));
}

/**
 * The argument names of a function label ("f(x)" → ["x"], "T(p,q,r)" →
 * ["p","q","r"], "P'(n)" → ["n"]); null when the label is not a function
 * of plain variables ("f(2)", "x").
 */
export function functionArguments(label: string): string[] | null {
  const m = /^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?'*\s*\(([^()]*)\)\s*$/.exec(label);
  if (m?.[1] === undefined) return null;
  const args = m[1].split(',').map((a) => a.trim());
  return args.every((a) => /^(?:[A-Za-z]|\\[a-zA-Z]+)(?:_\{?[A-Za-z0-9]+\}?)?$/.test(a)) ? args : null;
}

/** True when `inner` is one balanced group: "1,2" and "(x+1)^2" are, "1)g(2" is not. */
function balanced(inner: string): boolean {
  let depth = 0;
  for (const ch of inner) {
    if (ch === '(') depth += 1;
    else if (ch === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/**
 * The arguments of a function label that are not plain variables, without
 * spaces ("f(2x)" → "2x", "f(1)" → "1", "g(x+1)" → "x+1"): such a label
 * states the function somewhere other than at its variable, so it does not
 * name the same thing as "f(x)". Null for a name ("x", "a_n") and for a
 * function of plain variables ("f(x)", "T(p,q,r)").
 */
export function fixedArguments(label: string): string | null {
  const m = /^\s*[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?'*\s*\((.*)\)\s*$/.exec(label);
  if (m?.[1] === undefined || !balanced(m[1]) || functionArguments(label) !== null) return null;
  return m[1].replace(/\s+/g, '');
}

/**
 * "f(2x) = x + 1", "f(x+1) = x + 2": the left side of an equation about a
 * function away from its variable. Its right side is not the function's
 * formula ("f(2x) = x + 1" is "f(x) = x/2 + 1"), and the rule does not
 * substitute, so a match of right sides says nothing either way.
 */
export function statesAwayFromVariable(left: string | null): boolean {
  const args = left === null ? null : fixedArguments(left);
  return args !== null && /[a-zA-Z]/.test(args.replace(/\\[a-zA-Z]+/g, ''));
}

/**
 * Marks around a letter that keep it a name: an angle, an accent, a bar, a
 * word set in text, a quantity of the object the letter is ("\angle A",
 * "\bar{x}", "\overline{x}", "\text{Area}", "\min f", "\det A", "\deg P").
 */
const NAME_MARKS =
  /\\(?:min|max|sup|inf|lim|det|deg|dim|rank|angle|measuredangle|overline|bar|hat|widehat|vec|overrightarrow|tilde|widetilde|dot|ddot|text|mathrm|mathit|mathbf|mathcal|mathscr|mathfrak|mathbb|mathsf|boldsymbol|operatorname)(?![a-zA-Z])|[{}\s]/g;

/** Greek letters that name a function ("\sigma(n)", "\varphi(n)", "\nu_2(n)"): a letter, as f is. \pi is a number. */
const GREEK_NAME =
  /\\(?:var)?(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta|iota|kappa|lambda|mu|nu|xi|rho|sigma|tau|upsilon|phi|chi|psi|omega|Gamma|Delta|Theta|Lambda|Xi|Sigma|Upsilon|Phi|Psi|Omega)(?![a-zA-Z])/g;

/**
 * The size of a set: "|S|", "\left|S\right|", "|\mathcal{F}|", "\#S". A set is
 * written in capitals; "|x|" and "|z|" are a number's absolute value, an
 * operation on the unknown.
 */
const SET_SIZE = /^(?:\|[A-Z]\||\\?#[a-zA-Z])$/;

/**
 * Whether `left` names one letter's own value: the letter, with an index,
 * primes or an accent ("x", "a_1", "x'", "\bar{x}", "\angle A"), a
 * function at its arguments ("f(2)", "f(x)", "\sigma(n)"), or the size of a
 * set ("|S|", "\#S"). "|x|", "x!", "\lfloor x \rfloor", "x^2" and "2x" are
 * operations on the letter, not its name.
 */
function namesLetter(left: string): boolean {
  const bare = withoutArguments(left.replace(/_\{[^{}]*\}|_\\?[a-zA-Z0-9]+/g, '').replace(/\^\s*\{?\s*(?:\\prime|\\ast|\\star|\*)\s*\}?|'/g, ''))
    .replace(/\\(?:left|right|middle)(?![a-zA-Z])|\\[lr]?vert(?![a-zA-Z])/g, (bar) => (bar.endsWith('vert') ? '|' : ''))
    .replace(NAME_MARKS, '');
  // "\sigma(n)" is the function sigma at n, as "f(n)" is f at n; "\sigma n" stays an operation on n.
  const greekNamed = bare.replace(GREEK_NAME, 'g');
  return /^[a-zA-Z](?:\(\))?$/.test(bare) || /^g\(\)$/.test(greekNamed) || SET_SIZE.test(bare);
}

/**
 * "x^2 = 25", "2x + 1 = 7", "|x| = 6", "n! = 120": the left side of an
 * equation in one unknown left unsolved, whose right side is no value of the
 * unknown. One rule for all of them: the left side holds one letter and does
 * not name it ("x = 2", "a_1 = 2", "\angle A = 30" are solved), so a match
 * of its right side is `unsure`. A named quantity of several letters, "m + n
 * = 107" or "|AB| = 1", still states its right side.
 */
export function leavesUnsolved(left: string | null): boolean {
  if (left === null) return false;
  const oneLetter = new Set(left.replace(/\\[a-zA-Z]+/g, ' ').match(/[a-zA-Z]/g) ?? []).size === 1;
  return oneLetter && !namesLetter(left.trim());
}
