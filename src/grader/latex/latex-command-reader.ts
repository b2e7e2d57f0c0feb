/**
 * A LaTeX command inside an expression, as mathjs source: fractions, roots,
 * binomials, constants, floor and ceiling, `\operatorname`, matrices, big
 * operators, functions (latex-function-reader.ts), Greek and other letter
 * commands, decorated names (`\bar x`, `\angle ABC`), and an unknown command
 * read as a symbol the model invented.
 */
import { DECORATIONS, FUNCTIONS, LETTER_COMMANDS, NAME_PREFIXES, NON_FACTOR_COMMANDS } from './latex-commands.ts';
import { TranslateError } from './latex-cursor.ts';
import { readBigOperator, readFunction } from './latex-function-reader.ts';
import type { LatexGrammar } from './latex-grammar.ts';
import { readMatrix } from './latex-matrix-reader.ts';

/** The command `\name` (its backslash and name already taken) and its arguments. */
export function readCommand(grammar: LatexGrammar, name: string): string {
  const cursor = grammar.cursor;
  switch (name) {
    case 'frac': {
      const num = grammar.argument();
      const den = grammar.argument();
      return `(${num} / ${den})`;
    }
    case 'sqrt': {
      if (cursor.isOp('[')) {
        cursor.skip();
        const index = grammar.expr();
        cursor.expectOp(']');
        return `nthRoot(${grammar.argument()}, ${index})`;
      }
      return `sqrt(${grammar.argument()})`;
    }
    case 'binom': {
      const n = grammar.argument();
      const k = grammar.argument();
      return `binom(${n}, ${k})`;
    }
    case 'pi':
      return 'pi';
    case 'infty':
      grammar.sawInfinity();
      return 'Infinity';
    case 'lfloor':
    case 'lceil':
      return readFloorOrCeiling(grammar, name);
    case 'operatorname': {
      cursor.expectOp('{');
      const op = cursor.rawUntil('}');
      return op in FUNCTIONS ? readFunction(grammar, op) : grammar.named(`op_${op}`);
    }
    case 'begin':
      return readMatrix(grammar);
    case 'sum':
    case 'prod':
      return readBigOperator(grammar, name);
    case '{':
      return groupUntilCmd(grammar, '}');
    default:
      return readNamedCommand(grammar, name);
  }
}

/** `\lfloor x \rfloor`, `\lceil x \rceil`. */
function readFloorOrCeiling(grammar: LatexGrammar, name: 'lfloor' | 'lceil'): string {
  const inner = grammar.expr();
  const close = grammar.cursor.next();
  if (close.t !== 'cmd' || close.v !== (name === 'lfloor' ? 'rfloor' : 'rceil')) {
    throw new TranslateError('unclosed floor');
  }
  return `${name === 'lfloor' ? 'floor' : 'ceil'}(${inner})`;
}

/** A command that is a function, a letter or a name, or one the model invented. */
function readNamedCommand(grammar: LatexGrammar, name: string): string {
  const cursor = grammar.cursor;
  if (name in FUNCTIONS) return readFunction(grammar, name);
  // "\Gamma(n+1)" is the gamma function; a bare \Gamma stays a symbol.
  if (name === 'Gamma' && cursor.isOp('(')) {
    cursor.skip();
    return `gamma(${grammar.argumentList(')').join(', ')})`;
  }
  if (LETTER_COMMANDS.has(name)) return grammar.symbol(name, true);
  if (DECORATIONS.has(name)) {
    let inner: string;
    if (cursor.isOp('{')) {
      cursor.skip();
      inner = cursor.rawUntil('}');
    } else inner = cursor.next().v;
    return grammar.named(`${DECORATION_SPELLINGS[name] ?? name}_${inner.replace(/\s+/g, '')}`);
  }
  if (NAME_PREFIXES.has(name)) {
    let label = '';
    while (cursor.peek()?.t === 'id') label += cursor.next().v;
    return grammar.named(`${name}_${label}`);
  }
  if (NON_FACTOR_COMMANDS.has(name)) throw new TranslateError(`unsupported \\${name}`);
  // An unknown command is most likely a symbol the model invented (\zzz).
  return grammar.named(`cmd_${name}`);
}

/** Two spellings of one decoration: "\overline{y}" is "\bar{y}", "\widehat{A}" is "\hat{A}". */
const DECORATION_SPELLINGS: Readonly<Record<string, string>> = { overline: 'bar', widehat: 'hat', widetilde: 'tilde', overrightarrow: 'vec' };

/** `\{ … \}`: a group closed by a command. */
function groupUntilCmd(grammar: LatexGrammar, close: string): string {
  const inner = grammar.expr();
  const tok = grammar.cursor.next();
  if (tok.t !== 'cmd' || tok.v !== close) throw new TranslateError('unclosed group');
  return `(${inner})`;
}
