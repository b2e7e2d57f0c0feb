/**
 * What the readers of commands (latex-command-reader.ts and those it calls)
 * use of the expression reader (latex-to-mathjs.ts): its cursor, its entry
 * points, and the names it collects. A command's arguments are expressions,
 * and an expression's factors may be commands: the readers recurse through
 * this interface rather than through each other's files.
 */
import type { TokenCursor } from './latex-cursor.ts';
import type { Token } from './latex-tokens.ts';

/** The expression reader as the command readers see it; every method returns mathjs source. */
export interface LatexGrammar {
  readonly cursor: TokenCursor;
  /** Sum: terms joined by + and -. */
  expr(): string;
  /** A primary with its postfix operators: ^, !, !!, %. */
  factor(): string;
  /** Can `tok` begin a factor that multiplies the one before it? */
  startsFactor(tok: Token): boolean;
  /** What follows a `^`. */
  exponent(): string;
  /** A `\frac` / `\sqrt` argument: a braced group or a single token ("\frac12"). */
  argument(): string;
  /** Expressions separated by commas, up to the operator `close`. */
  argumentList(close: string): string[];
  /** An expression up to the operator `close`, parenthesised. */
  groupUntil(close: string): string;
  /** A letter or letter command, with subscript and primes; a function call when `allowCall` and one follows. */
  symbol(letter: string, allowCall: boolean): string;
  /** The variable named `name`. */
  named(name: string): string;
  /** What `read` reads with `letter` bound in it (a sum's index): not a variable of the expression. */
  boundIn<T>(letter: string, read: () => T): T;
  /** Counts `chars` of source written out for the expression (sums, products); throws past its budget. */
  spend(chars: number): void;
  /** The unknown function named `name`: its identifier. */
  unknownFunction(name: string): string;
  /** `\infty` occurred. */
  sawInfinity(): void;
  /** Reads the argument of a trigonometric function: a degree mark in it is π/180. */
  angle<T>(read: () => T): T;
}
