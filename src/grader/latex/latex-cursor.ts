/**
 * The translator's place in a LaTeX expression's tokens (latex-to-mathjs.ts):
 * looking ahead, taking tokens, and reading raw text up to a closing brace
 * for names and subscripts. Every reader of the translator moves through one
 * cursor.
 */
import type { Token } from './latex-tokens.ts';

/** Raised for LaTeX the translator does not cover; callers fall back to text comparison. */
export class TranslateError extends Error {}

/** A position in a token list. */
export class TokenCursor {
  private pos = 0;

  constructor(private readonly toks: Token[]) {}

  atEnd(): boolean {
    return this.pos >= this.toks.length;
  }

  /** The token `offset` places ahead, without taking it. */
  peek(offset = 0): Token | undefined {
    return this.toks[this.pos + offset];
  }

  /** Whether the token `offset` places ahead is the operator `v`. */
  isOp(v: string, offset = 0): boolean {
    const tok = this.peek(offset);
    return tok?.t === 'op' && tok.v === v;
  }

  /** Whether the next token is the command `\v`. */
  isCmd(v: string): boolean {
    const tok = this.peek();
    return tok?.t === 'cmd' && tok.v === v;
  }

  /** Takes the next token. */
  next(): Token {
    const tok = this.toks[this.pos];
    if (tok === undefined) throw new TranslateError('unexpected end');
    this.pos += 1;
    return tok;
  }

  /** Steps over `count` tokens already looked at. */
  skip(count = 1): void {
    this.pos += count;
  }

  /** Takes the operator `v`, or throws. */
  expectOp(v: string): void {
    if (!this.isOp(v)) throw new TranslateError(`expected ${v}`);
    this.pos += 1;
  }

  /** Puts `tok` in place of the next token: what is left of a token whose head was read. */
  replaceNext(tok: Token): void {
    this.toks[this.pos] = tok;
  }

  /** Raw token text up to a closing op, for names and subscripts. */
  rawUntil(close: string): string {
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
  subscript(): string {
    const tok = this.next();
    return tok.t === 'op' && tok.v === '{' ? this.rawUntil('}') : tok.v;
  }
}
