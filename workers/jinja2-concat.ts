/**
 * `~` read at jinja2's precedence. jinja2's grammar (parser.py's parse_math1
 * and parse_concat) binds `~` tighter than `+` and `-` and looser than `*`,
 * `/`, `//`, `%`: `a + b ~ c` is `a + (b ~ c)`, `a ~ b + c` is `(a ~ b) + c`.
 * `@huggingface/jinja` reads the three at one level, left to right, so
 * `{{ 1 + 2 ~ 3 }}` printed `33` where jinja2 fails (int + str), and
 * `{{ 'x' + 'y' ~ n }}` came out right only by chance. The parsed tree keeps
 * no mark of parentheses, so the tokens are rewritten before the library
 * parses them: in a sum that mixes `~` with `+` or `-`, each run of `~` is put
 * in parentheses, which the library then reads as jinja2 reads the sum.
 */

import { rewriteSegments, type Token } from './jinja2-token-groups.ts';

/** Tokens that end a sum: what binds looser than `+` (comparisons, `and`, `in`, …) and what separates expressions. */
const SUM_ENDS = new Set(['Comma', 'Colon', 'Equals', 'ComparisonBinaryOperator', 'OpenStatement', 'CloseStatement', 'OpenExpression', 'CloseExpression', 'Text', 'Comment']);
const SUM_END_NAMES = new Set(['and', 'or', 'not', 'if', 'else', 'in', 'for', 'is', 'recursive']);
/** Tokens after which a `+` or `-` is a sign, not a sum: an operator, or nothing yet. */
const OPERATORS = new Set(['AdditiveBinaryOperator', 'MultiplicativeBinaryOperator', 'ExponentiationBinaryOperator', 'UnaryOperator', 'Pipe', 'Dot']);

function endsSum(token: Token): boolean {
  return SUM_ENDS.has(token.type) || (token.type === 'Identifier' && SUM_END_NAMES.has(token.value));
}

/** Whether the part (a token, or a bracketed group) is a binary `+`, `-` or `~` given the part before it. */
function isSumOperator(part: readonly Token[], before: readonly Token[] | undefined): boolean {
  const token = part[0] as Token;
  if (part.length !== 1 || token.type !== 'AdditiveBinaryOperator') return false;
  return before !== undefined && !OPERATORS.has((before.at(-1) as Token).type);
}

/** A sum of one depth with each run of `~` in parentheses when it also adds or subtracts; else as it was. */
function grouped(segment: readonly Token[][]): Token[] {
  const terms: Token[][] = [[]];
  const operators: Token[] = [];
  segment.forEach((part, index) => {
    if (isSumOperator(part, segment[index - 1])) {
      operators.push(part[0] as Token);
      terms.push([]);
    } else (terms.at(-1) as Token[]).push(...part);
  });
  const concatenates = operators.some((operator) => operator.value === '~');
  if (!concatenates || operators.every((operator) => operator.value === '~')) return segment.flat();
  const out: Token[] = [];
  let run: Token[] = [...(terms[0] as Token[])];
  let runLength = 1;
  const closeRun = () => {
    out.push(...(runLength > 1 ? [{ type: 'OpenParen', value: '(' }, ...run, { type: 'CloseParen', value: ')' }] : run));
  };
  operators.forEach((operator, index) => {
    const term = terms[index + 1] as Token[];
    if (operator.value === '~') {
      run.push(operator, ...term);
      runLength++;
      return;
    }
    closeRun();
    out.push(operator);
    run = [...term];
    runLength = 1;
  });
  closeRun();
  return out;
}

/** `tokens` with every sum that mixes `~` with `+` or `-` written so that the library reads it as jinja2 does. */
export function withConcatPrecedence(tokens: readonly Token[]): Token[] {
  return rewriteSegments(tokens, endsSum, grouped);
}
