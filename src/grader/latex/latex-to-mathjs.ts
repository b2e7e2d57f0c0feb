/**
 * Translates one LaTeX math expression (no lists, relations or intervals:
 * the answer parser splits those off first) into mathjs source with every
 * multiplication explicit. A recursive-descent reader: mathjs then does the
 * real work of parsing, compiling and evaluating (numbers, complex values,
 * matrices, gamma and friends).
 *
 * Names are prefixed so that nothing a model writes can collide with a mathjs
 * built-in: variables become `v_x`, unknown functions `uf_f`; only constants
 * we choose (`pi`, `e`, `i`, `Infinity`) are left bare. As in SymPy-based
 * graders, a bare `e` is Euler's number and a bare `i` the imaginary unit.
 *
 * This file reads the arithmetic (sums, products, signs, powers, factorials,
 * numbers, symbols, groups, absolute values); commands and what they take
 * (fractions, roots, functions, matrices) are read by latex-command-reader.ts,
 * through the LatexGrammar interface (latex-grammar.ts), over one token
 * cursor (latex-cursor.ts).
 */
import { FUNCTION_LETTERS, NON_FACTOR_COMMANDS, identifierFragment, startsFactorCommand } from './latex-commands.ts';
import { readCommand } from './latex-command-reader.ts';
import { TokenCursor, TranslateError } from './latex-cursor.ts';
import type { LatexGrammar } from './latex-grammar.ts';
import { tokenize, type Token } from './latex-tokens.ts';

export { TranslateError } from './latex-cursor.ts';

/** mathjs source for an expression and what it refers to. */
export interface Translation {
  code: string;
  /** Variable identifiers used (already prefixed). */
  vars: string[];
  /** Unknown function identifiers used (already prefixed). */
  funcs: string[];
  /** True when a decimal literal occurs: the comparison then uses `precision`. */
  hasFloat: boolean;
  /** True when `\infty` occurs. */
  hasInfinity: boolean;
}

/** Most characters of source all the sums and products of one expression are written out to. */
const WRITTEN_BUDGET = 20_000;

/** The expression reader: the arithmetic here, the commands in latex-command-reader.ts. */
class Reader implements LatexGrammar {
  readonly cursor: TokenCursor;
  private absDepth = 0;
  /** Inside the argument of a trigonometric function, where a degree mark converts to radians. */
  private angleDepth = 0;
  readonly vars = new Set<string>();
  readonly funcs = new Set<string>();
  /** Characters of source written out for sums and products so far. */
  private written = 0;
  /** The indices of the sums being read: letters that are no constant there. */
  private readonly indices = new Set<string>();
  hasFloat = false;
  hasInfinity = false;

  constructor(toks: Token[]) {
    this.cursor = new TokenCursor(toks);
  }

  expr(): string {
    const cursor = this.cursor;
    let left = this.term();
    for (;;) {
      if (cursor.isOp('+')) {
        cursor.skip();
        left = `(${left} + ${this.term()})`;
      } else if (cursor.isOp('-')) {
        cursor.skip();
        left = `(${left} - ${this.term()})`;
      } else return left;
    }
  }

  /** Product: factors joined by *, \cdot, \times, /, \div or juxtaposition. */
  private term(): string {
    const cursor = this.cursor;
    let left = this.signed();
    for (;;) {
      const tok = cursor.peek();
      if (tok === undefined) return left;
      if ((tok.t === 'op' && tok.v === '*') || (tok.t === 'cmd' && (tok.v === 'cdot' || tok.v === 'times'))) {
        cursor.skip();
        left = `(${left} * ${this.signed()})`;
      } else if ((tok.t === 'op' && tok.v === '/') || (tok.t === 'cmd' && tok.v === 'div')) {
        cursor.skip();
        left = `(${left} / ${this.signed()})`;
      } else if (this.startsFactor(tok)) {
        // "1 2 3", "2\quad 3", "$1$ $2$ $3$": numerals side by side are a list without its commas, or one
        // numeral spaced out, never a product; read as one, "1 2 3" was 6 and graded equal to it.
        if (tok.t === 'num' && cursor.peek(-1)?.t === 'num') throw new TranslateError('numerals side by side');
        left = `(${left} * ${this.factor()})`;
      } else return left;
    }
  }

  private signed(): string {
    const cursor = this.cursor;
    if (cursor.isOp('-')) {
      cursor.skip();
      return `(-${this.signed()})`;
    }
    if (cursor.isOp('+')) {
      cursor.skip();
      return this.signed();
    }
    return this.factor();
  }

  startsFactor(tok: Token): boolean {
    if (tok.t === 'num' || tok.t === 'id') return true;
    if (tok.t === 'cmd') return startsFactorCommand(tok.v) || !NON_FACTOR_COMMANDS.has(tok.v);
    if (tok.v === '(' || tok.v === '{') return true;
    // Inside |...| a bar closes; outside it opens a new absolute value.
    if (tok.v === '|') return this.absDepth === 0;
    return false;
  }

  factor(): string {
    const cursor = this.cursor;
    let base = this.primary();
    for (;;) {
      if (this.degreeAhead()) {
        // "180^\circ - 2\alpha": a degree mark inside an expression is a unit, read as 1;
        // "\sin 30^\circ" is the sine of an angle, so there it is π/180.
        cursor.skip(cursor.isOp('{', 1) ? 4 : 2);
        if (this.angleDepth > 0) base = `(${base} * pi / 180)`;
      } else if (cursor.isOp('^')) {
        cursor.skip();
        base = `(${base} ^ ${this.exponent()})`;
      } else if (cursor.isOp('!')) {
        cursor.skip();
        if (cursor.isOp('!')) {
          cursor.skip();
          base = `dfact(${base})`;
        } else base = `factorial(${base})`;
      } else if (cursor.isOp('%')) {
        cursor.skip();
        base = `(${base} / 100)`;
      } else if (cursor.isOp("'")) {
        cursor.skip(); // a prime after a value (not a function name) is notation only
      } else return base;
    }
  }

  /** "^\circ" or "^{\circ}" next. */
  private degreeAhead(): boolean {
    const cursor = this.cursor;
    if (!cursor.isOp('^')) return false;
    const circ = (tok: Token | undefined): boolean => tok?.t === 'cmd' && tok.v === 'circ';
    return circ(cursor.peek(1)) || (cursor.isOp('{', 1) && circ(cursor.peek(2)) && cursor.isOp('}', 3));
  }

  exponent(): string {
    const tok = this.cursor.next();
    if (tok.t === 'op' && tok.v === '{') return this.groupUntil('}');
    if (tok.t === 'op' && tok.v === '(') return this.groupUntil(')');
    if (tok.t === 'op' && tok.v === '-') return `(-${this.exponent()})`;
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, false);
    if (tok.t === 'cmd') return readCommand(this, tok.v);
    throw new TranslateError('bad exponent');
  }

  groupUntil(close: string): string {
    const inner = this.expr();
    this.cursor.expectOp(close);
    return `(${inner})`;
  }

  private number(text: string): string {
    const cursor = this.cursor;
    // "204_5": a numeral in base 5; "FF_{16}" (one token, latex-tokens.ts) in base 16.
    if (cursor.isOp('_')) {
      cursor.skip();
      const baseTok = cursor.next();
      const baseText = baseTok.t === 'op' && baseTok.v === '{' ? cursor.rawUntil('}') : baseTok.v;
      const base = Number(baseText);
      if (!Number.isInteger(base) || base < 2 || base > 36) throw new TranslateError('bad base');
      if (!/^[0-9A-Z]+$/.test(text) || [...text].some((d) => Number.parseInt(d, 36) >= base)) throw new TranslateError('digit outside base');
      return String(Number.parseInt(text, base));
    }
    if (/[.eE]/.test(text)) this.hasFloat = true;
    // "2\frac{1}{2}" is a mixed number, two and a half, not a product.
    if (/^\d+$/.test(text) && this.mixedFractionAhead()) return `(${text} + ${readCommand(this, cursor.next().v)})`;
    return text;
  }

  /** True when the next tokens are `\frac` with integer arguments. */
  private mixedFractionAhead(): boolean {
    const cursor = this.cursor;
    const tok = cursor.peek();
    if (tok?.t !== 'cmd' || tok.v !== 'frac') return false;
    const a = cursor.peek(1);
    if (a?.t === 'num') return /^\d{2}$/.test(a.v); // "\frac12"
    const [open1, n1, close1, open2, n2, close2] = [1, 2, 3, 4, 5, 6].map((k) => cursor.peek(k));
    return (
      open1?.v === '{' && n1?.t === 'num' && /^\d+$/.test(n1.v) && close1?.v === '}' &&
      open2?.v === '{' && n2?.t === 'num' && /^\d+$/.test(n2.v) && close2?.v === '}'
    );
  }

  symbol(letter: string, allowCall: boolean): string {
    const cursor = this.cursor;
    let name = letter;
    if (cursor.isOp('_')) {
      cursor.skip();
      name += `_${identifierFragment(cursor.subscript())}`;
    }
    let primes = 0;
    while (cursor.isOp("'")) {
      cursor.skip();
      primes += 1;
    }
    if (primes > 0) name += 'p'.repeat(primes);
    // Unless a sum runs over it ("\sum_{i=0}^{3} 2^i").
    if ((name === 'e' || name === 'i') && !this.indices.has(name)) return name;
    if (allowCall && cursor.isOp('(') && (FUNCTION_LETTERS.has(letter) || primes > 0 || this.simpleArgumentsAhead(letter))) {
      cursor.skip();
      const args = this.argumentList(')');
      return `${this.unknownFunction(name)}(${args.join(', ')})`;
    }
    return this.named(name);
  }

  /**
   * "P(x)", "T(p, q, r)", "W(2)": a capital letter applied to plain names or
   * numbers is a function; "R(1+\sqrt2)" is a product.
   */
  private simpleArgumentsAhead(letter: string): boolean {
    if (!/^[A-Z]$/.test(letter)) return false;
    for (let k = 1; ; k += 2) {
      const arg = this.cursor.peek(k);
      const sep = this.cursor.peek(k + 1);
      if (arg === undefined || (arg.t !== 'id' && arg.t !== 'num')) return false;
      if (sep?.t === 'op' && sep.v === ')') return true;
      if (sep?.t !== 'op' || sep.v !== ',') return false;
    }
  }

  argumentList(close: string): string[] {
    const args = [this.expr()];
    while (this.cursor.isOp(',')) {
      this.cursor.skip();
      args.push(this.expr());
    }
    this.cursor.expectOp(close);
    return args;
  }

  private primary(): string {
    const tok = this.cursor.next();
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, true);
    if (tok.t === 'cmd') return readCommand(this, tok.v);
    switch (tok.v) {
      case '(':
        return this.groupUntil(')');
      case '[':
        return this.groupUntil(']');
      case '{':
        return this.groupUntil('}');
      case '|': {
        this.absDepth += 1;
        const inner = this.expr();
        this.cursor.expectOp('|');
        this.absDepth -= 1;
        return `abs(${inner})`;
      }
      default:
        throw new TranslateError(`unexpected ${tok.v}`);
    }
  }

  argument(): string {
    const cursor = this.cursor;
    const tok = cursor.peek();
    if (tok === undefined) throw new TranslateError('missing argument');
    if (tok.t === 'op' && tok.v === '{') {
      cursor.skip();
      return this.groupUntil('}');
    }
    if (tok.t === 'num' && tok.v.length > 1 && !tok.v.startsWith('.')) {
      // "\frac12": the argument is one digit; the rest stays in the stream.
      cursor.replaceNext({ t: 'num', v: tok.v.slice(1) });
      return tok.v.slice(0, 1);
    }
    cursor.skip();
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, false);
    if (tok.t === 'cmd') return readCommand(this, tok.v);
    throw new TranslateError('bad argument');
  }

  named(name: string): string {
    const id = `v_${identifierFragment(name)}`;
    this.vars.add(id);
    return id;
  }

  boundIn<T>(letter: string, read: () => T): T {
    const id = `v_${identifierFragment(letter)}`;
    const free = this.vars.has(id);
    const outer = this.indices.has(letter);
    this.indices.add(letter);
    try {
      return read();
    } finally {
      if (!outer) this.indices.delete(letter);
      if (!free) this.vars.delete(id);
    }
  }

  spend(chars: number): void {
    this.written += chars;
    // Many sums, each short enough, would still write out more than an answer is worth evaluating.
    if (this.written > WRITTEN_BUDGET) throw new TranslateError('too much written out');
  }

  unknownFunction(name: string): string {
    const fn = `uf_${identifierFragment(name)}`;
    this.funcs.add(fn);
    return fn;
  }

  sawInfinity(): void {
    this.hasInfinity = true;
  }

  angle<T>(read: () => T): T {
    this.angleDepth += 1;
    try {
      return read();
    } finally {
      this.angleDepth -= 1;
    }
  }
}

/**
 * mathjs source for one LaTeX expression.
 *
 * @throws TranslateError when the LaTeX is outside what the translator covers.
 */
export function latexToMathjs(tex: string): Translation {
  const reader = new Reader(tokenize(tex));
  if (reader.cursor.atEnd()) throw new TranslateError('empty');
  const code = reader.expr();
  if (!reader.cursor.atEnd()) throw new TranslateError('trailing input');
  return {
    code,
    vars: [...reader.vars],
    funcs: [...reader.funcs],
    hasFloat: reader.hasFloat,
    hasInfinity: reader.hasInfinity,
  };
}
