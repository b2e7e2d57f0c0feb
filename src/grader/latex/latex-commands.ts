/**
 * What the LaTeX → mathjs translator knows about commands: which are
 * functions (and their mathjs names), which are symbols, which end an
 * expression.
 */

/** LaTeX function commands and the mathjs function each becomes. */
export const FUNCTIONS: Readonly<Record<string, string>> = {
  sin: 'sin', cos: 'cos', tan: 'tan', sec: 'sec', csc: 'csc', cot: 'cot',
  arcsin: 'asin', arccos: 'acos', arctan: 'atan', asin: 'asin', acos: 'acos', atan: 'atan',
  sinh: 'sinh', cosh: 'cosh', tanh: 'tanh',
  // \log without a base is read as natural here; expr-equal.ts also reads it as
  // common (base 10) and is unsure where the two readings disagree.
  ln: 'log', log: 'log', lg: 'log10', exp: 'exp', abs: 'abs', sqrt: 'sqrt',
  max: 'max', min: 'min', gcd: 'gcd', lcm: 'lcm', det: 'det',
};

/** Inverse trig for `\sin^{-1}`. */
export const INVERSES: Readonly<Record<string, string>> = {
  sin: 'asin', cos: 'acos', tan: 'atan', sec: 'asec', csc: 'acsc', cot: 'acot',
};

/** Greek and other letter commands that are plain symbols. */
export const LETTER_COMMANDS = new Set([
  'alpha', 'beta', 'gamma', 'delta', 'epsilon', 'varepsilon', 'zeta', 'eta', 'theta', 'vartheta', 'iota',
  'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'rho', 'varrho', 'sigma', 'varsigma', 'tau', 'upsilon',
  'phi', 'varphi', 'chi', 'psi', 'omega', 'Gamma', 'Delta', 'Theta', 'Lambda', 'Xi', 'Pi', 'Sigma',
  'Upsilon', 'Phi', 'Psi', 'Omega', 'ell', 'hbar', 'aleph',
]);

/** Decorations whose argument is a name ("\overline{AB}" is one symbol). */
export const DECORATIONS = new Set([
  'overline', 'bar', 'hat', 'widehat', 'vec', 'overrightarrow', 'tilde', 'widetilde', 'dot', 'ddot',
  'mathbb', 'mathcal', 'mathfrak', 'mathscr', 'underline', 'overleftrightarrow', 'arc', 'overarc',
]);

/** Prefix commands followed by a name ("\angle ABC", "\triangle PQR"). */
export const NAME_PREFIXES = new Set(['angle', 'triangle', 'measuredangle', 'odot', 'square']);

/** Commands that can start a factor, so juxtaposition before them is multiplication. */
export function startsFactorCommand(name: string): boolean {
  return (
    name === 'frac' || name === 'sqrt' || name === 'binom' || name === 'pi' || name === 'infty' ||
    name === 'lfloor' || name === 'lceil' || name === 'operatorname' || name === 'begin' ||
    name === 'sum' || name === 'prod' || name === '{' ||
    name in FUNCTIONS || LETTER_COMMANDS.has(name) || DECORATIONS.has(name) || NAME_PREFIXES.has(name)
  );
}

/** Commands that never start a factor: operators, relations, closers, text. */
export const NON_FACTOR_COMMANDS = new Set([
  'cdot', 'times', 'div', 'pm', 'mp', 'le', 'ge', 'ne', 'in', 'notin', 'to', 'approx', 'equiv', 'cup', 'cap',
  'setminus', 'dots', 'ldots', 'cdots', 'text', 'rfloor', 'rceil', 'end', 'right', 'left', 'mid', 'colon',
  'quad', 'qquad', 'emptyset', 'int', 'lim', 'iint', 'oint', 'partial', 'nabla', 'forall', 'exists', 'wedge',
  'vee', 'land', 'lor', 'neg', 'implies', 'iff', 'Rightarrow', 'Leftarrow', 'Leftrightarrow', 'sim', 'simeq',
  'cong', 'parallel', 'perp', 'subset', 'subseteq', 'supset', 'supseteq', 'mod', 'bmod', 'pmod', 'circ',
  '}', '|', ',', '!', ';', ':', '%', '&', '#', '_', 'prime', 'underbrace', 'overbrace', 'underset', 'overset',
  'stackrel', 'substack', 'tag', 'label', 'hline', 'cline', 'multicolumn', 'newline', 'cr',
]);

/** Letters that are function names whenever "(" follows: f(x + 1). */
export const FUNCTION_LETTERS = new Set(['f', 'g', 'h']);

/** Makes an arbitrary name a valid mathjs identifier fragment, deterministically. */
export function identifierFragment(name: string): string {
  let out = '';
  for (const ch of name) {
    if (/[a-zA-Z0-9_]/.test(ch)) out += ch;
    else if (ch === '-') out += 'm';
    else if (ch === '+') out += 'p';
    else if (ch === ' ') continue;
    else out += `x${ch.codePointAt(0)?.toString(16) ?? ''}`;
  }
  return out;
}
