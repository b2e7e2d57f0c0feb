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
 * The file is longer than most because the reader is one class: its methods
 * share the token position and cannot sensibly live apart.
 */
import {
  DECORATIONS, FUNCTIONS, FUNCTION_LETTERS, INVERSES, LETTER_COMMANDS, NAME_PREFIXES, NON_FACTOR_COMMANDS,
  identifierFragment, startsFactorCommand,
} from './latex-commands.ts';
import { tokenize, type Token } from './latex-tokens.ts';

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

/** Raised for LaTeX the translator does not cover; callers fall back to text comparison. */
export class TranslateError extends Error {}

class Reader {
  private pos = 0;
  private absDepth = 0;
  readonly vars = new Set<string>();
  readonly funcs = new Set<string>();
  hasFloat = false;
  hasInfinity = false;

  constructor(private readonly toks: Token[]) {}

  atEnd(): boolean {
    return this.pos >= this.toks.length;
  }

  private peek(offset = 0): Token | undefined {
    return this.toks[this.pos + offset];
  }

  private isOp(v: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return tok?.t === 'op' && tok.v === v;
  }

  private isCmd(v: string): boolean {
    const tok = this.peek();
    return tok?.t === 'cmd' && tok.v === v;
  }

  private next(): Token {
    const tok = this.toks[this.pos];
    if (tok === undefined) throw new TranslateError('unexpected end');
    this.pos += 1;
    return tok;
  }

  private expectOp(v: string): void {
    if (!this.isOp(v)) throw new TranslateError(`expected ${v}`);
    this.pos += 1;
  }

  /** Sum: terms joined by + and -. */
  expr(): string {
    let left = this.term();
    for (;;) {
      if (this.isOp('+')) {
        this.pos += 1;
        left = `(${left} + ${this.term()})`;
      } else if (this.isOp('-')) {
        this.pos += 1;
        left = `(${left} - ${this.term()})`;
      } else return left;
    }
  }

  /** Product: factors joined by *, \cdot, \times, /, \div or juxtaposition. */
  private term(): string {
    let left = this.signed();
    for (;;) {
      const tok = this.peek();
      if (tok === undefined) return left;
      if ((tok.t === 'op' && tok.v === '*') || (tok.t === 'cmd' && (tok.v === 'cdot' || tok.v === 'times'))) {
        this.pos += 1;
        left = `(${left} * ${this.signed()})`;
      } else if ((tok.t === 'op' && tok.v === '/') || (tok.t === 'cmd' && tok.v === 'div')) {
        this.pos += 1;
        left = `(${left} / ${this.signed()})`;
      } else if (this.startsFactor(tok)) {
        left = `(${left} * ${this.factor()})`;
      } else return left;
    }
  }

  private signed(): string {
    if (this.isOp('-')) {
      this.pos += 1;
      return `(-${this.signed()})`;
    }
    if (this.isOp('+')) {
      this.pos += 1;
      return this.signed();
    }
    return this.factor();
  }

  /** Can `tok` begin a factor that multiplies the one before it? */
  private startsFactor(tok: Token): boolean {
    if (tok.t === 'num' || tok.t === 'id') return true;
    if (tok.t === 'cmd') return startsFactorCommand(tok.v) || !NON_FACTOR_COMMANDS.has(tok.v);
    if (tok.v === '(' || tok.v === '{') return true;
    // Inside |...| a bar closes; outside it opens a new absolute value.
    if (tok.v === '|') return this.absDepth === 0;
    return false;
  }

  /** A primary with its postfix operators: ^, !, !!, %. */
  private factor(): string {
    let base = this.primary();
    for (;;) {
      if (this.degreeAhead()) {
        // "180^\circ - 2\alpha": a degree mark inside an expression is a unit, read as 1.
        this.pos += this.isOp('{', 1) ? 4 : 2;
      } else if (this.isOp('^')) {
        this.pos += 1;
        base = `(${base} ^ ${this.exponent()})`;
      } else if (this.isOp('!')) {
        this.pos += 1;
        if (this.isOp('!')) {
          this.pos += 1;
          base = `dfact(${base})`;
        } else base = `factorial(${base})`;
      } else if (this.isOp('%')) {
        this.pos += 1;
        base = `(${base} / 100)`;
      } else if (this.isOp("'")) {
        this.pos += 1; // a prime after a value (not a function name) is notation only
      } else return base;
    }
  }

  /** "^\circ" or "^{\circ}" next. */
  private degreeAhead(): boolean {
    if (!this.isOp('^')) return false;
    const circ = (tok: Token | undefined): boolean => tok?.t === 'cmd' && tok.v === 'circ';
    return circ(this.peek(1)) || (this.isOp('{', 1) && circ(this.peek(2)) && this.isOp('}', 3));
  }

  private exponent(): string {
    const tok = this.next();
    if (tok.t === 'op' && tok.v === '{') return this.groupUntil('}');
    if (tok.t === 'op' && tok.v === '(') return this.groupUntil(')');
    if (tok.t === 'op' && tok.v === '-') return `(-${this.exponent()})`;
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, false);
    if (tok.t === 'cmd') return this.command(tok.v);
    throw new TranslateError('bad exponent');
  }

  private groupUntil(close: string): string {
    const inner = this.expr();
    this.expectOp(close);
    return `(${inner})`;
  }

  private number(text: string): string {
    if (/[.eE]/.test(text)) this.hasFloat = true;
    // "204_5": a numeral in base 5.
    if (this.isOp('_')) {
      this.pos += 1;
      const baseTok = this.next();
      const baseText = baseTok.t === 'op' && baseTok.v === '{' ? this.rawUntil('}') : baseTok.v;
      const base = Number(baseText);
      if (!Number.isInteger(base) || base < 2 || base > 36) throw new TranslateError('bad base');
      if (!/^\d+$/.test(text) || [...text].some((d) => Number(d) >= base)) throw new TranslateError('digit outside base');
      return String(Number.parseInt(text, base));
    }
    // "2\frac{1}{2}" is a mixed number, two and a half, not a product.
    if (/^\d+$/.test(text) && this.mixedFractionAhead()) return `(${text} + ${this.command(this.next().v)})`;
    return text;
  }

  /** True when the next tokens are `\frac` with integer arguments. */
  private mixedFractionAhead(): boolean {
    const tok = this.peek();
    if (tok?.t !== 'cmd' || tok.v !== 'frac') return false;
    const a = this.peek(1);
    if (a?.t === 'num') return /^\d{2}$/.test(a.v); // "\frac12"
    const [open1, n1, close1, open2, n2, close2] = [1, 2, 3, 4, 5, 6].map((k) => this.peek(k));
    return (
      open1?.v === '{' && n1?.t === 'num' && /^\d+$/.test(n1.v) && close1?.v === '}' &&
      open2?.v === '{' && n2?.t === 'num' && /^\d+$/.test(n2.v) && close2?.v === '}'
    );
  }

  /** Raw token text up to a closing op, for names and subscripts. */
  private rawUntil(close: string): string {
    let depth = 0;
    let out = '';
    for (;;) {
      const tok = this.next();
      if (tok.t === 'op' && tok.v === '{') depth += 1;
      if (tok.t === 'op' && tok.v === close && depth === 0) return out;
      if (tok.t === 'op' && tok.v === '}') depth -= 1;
      out += tok.v;
    }
  }

  /** A subscript (after `_`), as raw text; "x_12" reads as x_{12}, as models mean it. */
  private subscript(): string {
    const tok = this.next();
    return tok.t === 'op' && tok.v === '{' ? this.rawUntil('}') : tok.v;
  }

  /** A letter or letter command, with subscript and primes; maybe a function call. */
  private symbol(letter: string, allowCall: boolean): string {
    let name = letter;
    if (this.isOp('_')) {
      this.pos += 1;
      name += `_${identifierFragment(this.subscript())}`;
    }
    let primes = 0;
    while (this.isOp("'")) {
      this.pos += 1;
      primes += 1;
    }
    if (primes > 0) name += 'p'.repeat(primes);
    if (name === 'e') return 'e';
    if (name === 'i') return 'i';
    if (allowCall && this.isOp('(') && (FUNCTION_LETTERS.has(letter) || primes > 0 || this.simpleArgumentsAhead(letter))) {
      this.pos += 1;
      const args = this.argumentList(')');
      const fn = `uf_${identifierFragment(name)}`;
      this.funcs.add(fn);
      return `${fn}(${args.join(', ')})`;
    }
    const id = `v_${identifierFragment(name)}`;
    this.vars.add(id);
    return id;
  }

  /**
   * "P(x)", "T(p, q, r)", "W(2)": a capital letter applied to plain names or
   * numbers is a function; "R(1+\sqrt2)" is a product.
   */
  private simpleArgumentsAhead(letter: string): boolean {
    if (!/^[A-Z]$/.test(letter)) return false;
    for (let k = 1; ; k += 2) {
      const arg = this.peek(k);
      const sep = this.peek(k + 1);
      if (arg === undefined || (arg.t !== 'id' && arg.t !== 'num')) return false;
      if (sep?.t === 'op' && sep.v === ')') return true;
      if (sep?.t !== 'op' || sep.v !== ',') return false;
    }
  }

  private argumentList(close: string): string[] {
    const args = [this.expr()];
    while (this.isOp(',')) {
      this.pos += 1;
      args.push(this.expr());
    }
    this.expectOp(close);
    return args;
  }

  private primary(): string {
    const tok = this.next();
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, true);
    if (tok.t === 'cmd') return this.command(tok.v);
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
        this.expectOp('|');
        this.absDepth -= 1;
        return `abs(${inner})`;
      }
      default:
        throw new TranslateError(`unexpected ${tok.v}`);
    }
  }

  /** A `\frac` / `\sqrt` argument: a braced group or a single token ("\frac12"). */
  private argument(): string {
    const tok = this.peek();
    if (tok === undefined) throw new TranslateError('missing argument');
    if (tok.t === 'op' && tok.v === '{') {
      this.pos += 1;
      return this.groupUntil('}');
    }
    if (tok.t === 'num' && tok.v.length > 1 && !tok.v.startsWith('.')) {
      // "\frac12": the argument is one digit; the rest stays in the stream.
      this.toks[this.pos] = { t: 'num', v: tok.v.slice(1) };
      return tok.v.slice(0, 1);
    }
    this.pos += 1;
    if (tok.t === 'num') return this.number(tok.v);
    if (tok.t === 'id') return this.symbol(tok.v, false);
    if (tok.t === 'cmd') return this.command(tok.v);
    throw new TranslateError('bad argument');
  }

  private command(name: string): string {
    switch (name) {
      case 'frac': {
        const num = this.argument();
        const den = this.argument();
        return `(${num} / ${den})`;
      }
      case 'sqrt': {
        if (this.isOp('[')) {
          this.pos += 1;
          const index = this.expr();
          this.expectOp(']');
          return `nthRoot(${this.argument()}, ${index})`;
        }
        return `sqrt(${this.argument()})`;
      }
      case 'binom': {
        const n = this.argument();
        const k = this.argument();
        return `binom(${n}, ${k})`;
      }
      case 'pi':
        return 'pi';
      case 'infty':
        this.hasInfinity = true;
        return 'Infinity';
      case 'lfloor':
      case 'lceil': {
        const inner = this.expr();
        const close = this.next();
        if (close.t !== 'cmd' || close.v !== (name === 'lfloor' ? 'rfloor' : 'rceil')) {
          throw new TranslateError('unclosed floor');
        }
        return `${name === 'lfloor' ? 'floor' : 'ceil'}(${inner})`;
      }
      case 'operatorname': {
        this.expectOp('{');
        const op = this.rawUntil('}');
        return op in FUNCTIONS ? this.fn(op) : this.named(`op_${op}`);
      }
      case 'begin':
        return this.matrix();
      case 'sum':
      case 'prod':
        return this.bigOperator(name);
      case '{':
        return this.groupUntilCmd('}');
      default:
        break;
    }
    if (name in FUNCTIONS) return this.fn(name);
    // "\Gamma(n+1)" is the gamma function; a bare \Gamma stays a symbol.
    if (name === 'Gamma' && this.isOp('(')) {
      this.pos += 1;
      return `gamma(${this.argumentList(')').join(', ')})`;
    }
    if (LETTER_COMMANDS.has(name)) return this.symbol(name, true);
    if (DECORATIONS.has(name)) {
      const inner = this.isOp('{') ? (this.pos += 1, this.rawUntil('}')) : this.next().v;
      return this.named(`${name}_${inner}`);
    }
    if (NAME_PREFIXES.has(name)) {
      let label = '';
      while (this.peek()?.t === 'id') label += this.next().v;
      return this.named(`${name}_${label}`);
    }
    if (NON_FACTOR_COMMANDS.has(name)) throw new TranslateError(`unsupported \\${name}`);
    // An unknown command is most likely a symbol the model invented (\zzz).
    return this.named(`cmd_${name}`);
  }

  private named(name: string): string {
    const id = `v_${identifierFragment(name)}`;
    this.vars.add(id);
    return id;
  }

  private groupUntilCmd(close: string): string {
    const inner = this.expr();
    const tok = this.next();
    if (tok.t !== 'cmd' || tok.v !== close) throw new TranslateError('unclosed group');
    return `(${inner})`;
  }

  /** `\sin^2 x`, `\log_2 8`, `\sin(x)`, `\max(a, b)`. */
  private fn(name: string): string {
    let power: string | null = null;
    let base: string | null = null;
    for (;;) {
      if (this.isOp('^')) {
        this.pos += 1;
        power = this.exponent();
      } else if (this.isOp('_')) {
        this.pos += 1;
        base = this.argument();
      } else break;
    }
    let args: string[];
    if (this.isOp('(')) {
      this.pos += 1;
      args = this.argumentList(')');
    } else if (this.isOp('{')) {
      this.pos += 1;
      args = [this.groupUntil('}')];
    } else {
      // "\sin 2x" is sin(2x): the argument runs over juxtaposed factors but
      // stops at the next function ("\sin x \cos y").
      let arg = this.factor();
      for (;;) {
        const tok = this.peek();
        if (tok === undefined || !this.startsFactor(tok)) break;
        if (tok.t === 'cmd' && (tok.v in FUNCTIONS || tok.v === 'frac')) break;
        arg = `(${arg} * ${this.factor()})`;
      }
      args = [arg];
    }
    const mathName = FUNCTIONS[name] ?? name;
    if (name === 'log' && base !== null) return wrapPower(`log(${args.join(', ')}, ${base})`, power);
    if (power !== null && /^\(?\(?-1\)?\)?$/.test(power.replace(/\s/g, '')) && name in INVERSES) {
      return `${INVERSES[name] ?? name}(${args.join(', ')})`;
    }
    return wrapPower(`${mathName}(${args.join(', ')})`, power);
  }

  /** `\sum_{k=0}^{n} body`: an uninterpreted function of the body, keyed by its limits. */
  private bigOperator(name: string): string {
    let limits = name;
    for (;;) {
      if (this.isOp('_') || this.isOp('^')) {
        limits += this.next().v;
        const tok = this.next();
        limits += tok.t === 'op' && tok.v === '{' ? this.rawUntil('}') : tok.v;
      } else break;
    }
    let body = this.factor();
    for (;;) {
      const tok = this.peek();
      if (tok === undefined || !this.startsFactor(tok)) break;
      body = `(${body} * ${this.factor()})`;
    }
    const fn = `uf_${identifierFragment(limits)}`;
    this.funcs.add(fn);
    return `${fn}(${body})`;
  }

  /** `\begin{pmatrix} a & b \\ c & d \end{pmatrix}` → `[[a, b], [c, d]]`. */
  private matrix(): string {
    this.expectOp('{');
    const env = this.rawUntil('}');
    if (!/^(?:[pbBvV]?matrix|smallmatrix|array)\*?$/.test(env)) throw new TranslateError(`unsupported ${env}`);
    if (env === 'array' && this.isOp('{')) {
      this.pos += 1;
      this.rawUntil('}');
    }
    const rows: string[][] = [[]];
    for (;;) {
      if (this.isCmd('end')) break;
      if (this.isOp('&') || this.isOp('\\\\')) {
        // An empty cell; only happens with trailing separators.
        const sep = this.next().v;
        if (sep === '\\\\') rows.push([]);
        continue;
      }
      rows[rows.length - 1]?.push(this.expr());
      if (this.isOp('&')) this.pos += 1;
      else if (this.isOp('\\\\')) {
        this.pos += 1;
        rows.push([]);
      } else if (!this.isCmd('end')) throw new TranslateError('bad matrix cell');
    }
    this.pos += 1;
    this.expectOp('{');
    this.rawUntil('}');
    const filled = rows.filter((r) => r.length > 0);
    const width = filled[0]?.length ?? 0;
    if (width === 0 || filled.some((r) => r.length !== width)) throw new TranslateError('ragged matrix');
    const code = `[${filled.map((r) => `[${r.join(', ')}]`).join(', ')}]`;
    return env.startsWith('v') || env.startsWith('V') ? `det(${code})` : code;
  }
}

function wrapPower(call: string, power: string | null): string {
  return power === null ? call : `(${call} ^ ${power})`;
}

/**
 * mathjs source for one LaTeX expression.
 *
 * @throws TranslateError when the LaTeX is outside what the translator covers.
 */
export function latexToMathjs(tex: string): Translation {
  const reader = new Reader(tokenize(tex));
  if (reader.atEnd()) throw new TranslateError('empty');
  const code = reader.expr();
  if (!reader.atEnd()) throw new TranslateError('trailing input');
  return {
    code,
    vars: [...reader.vars],
    funcs: [...reader.funcs],
    hasFloat: reader.hasFloat,
    hasInfinity: reader.hasInfinity,
  };
}
