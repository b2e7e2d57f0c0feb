/**
 * How deep a template's calls may nest. A macro that calls itself without an
 * end (or over data nested thousands deep) ran until V8's stack gave out, and
 * the run stopped on "Maximum call stack size exceeded", a message that names
 * neither the template nor the macro; where the stack gives out depends on
 * the thread and on how deep each macro's body nests. jinja2 stops such a
 * template with Python's RecursionError, about 250 calls deep (247 for a
 * one-line macro under python3-jinja2 3.1.6). Here calls nest at most
 * MAX_CALL_DEPTH deep, below where any thread's stack runs out, and a stack
 * that runs out all the same (a macro whose body nests loops in loops) is
 * stopped alike: a TemplateBoundError, which the check before the run turns
 * into TMAS_PROMPT naming the file and the macro's line. A call's arguments
 * are evaluated before it is entered, as Python does: `g(f(n - 1))` nests f
 * in the caller, not in g (counted inside g, it stopped at 123 levels where
 * jinja2 reaches 247).
 */
import * as jinja from '@huggingface/jinja';
import { TemplateBoundError } from './jinja2-values.ts';

/** What this file uses of the library's scopes: each macro call and loop pass opens one whose parent is the scope it runs in. */
interface Scope {
  variables: Map<string, unknown>;
  parent?: Scope;
  lookupVariable(name: string): unknown;
}

/**
 * The library looks a name up by recursing through the parent scopes, and
 * takes any error on the way for a name not found: a recursive macro's
 * scopes chain as deep as its calls (a few per level: the macro's, each
 * loop's), so deep in the stack the lookup ran out of it and printed the
 * name as undefined, and a render 100 calls deep gave 91 lines where jinja2
 * gave 101, without a word. The same lookup, walking the chain in a loop.
 */
function lookUpIteratively(): void {
  const prototype = (jinja.Environment as unknown as { prototype: Scope }).prototype;
  const Undefined = (new (jinja.Environment as unknown as new () => Scope)().lookupVariable('') as object).constructor as new () => unknown;
  prototype.lookupVariable = function lookupVariable(this: Scope, name: string): unknown {
    for (let scope: Scope | undefined = this; scope !== undefined; scope = scope.parent) {
      if (scope.variables.has(name)) return scope.variables.get(name) ?? new Undefined();
    }
    return new Undefined();
  };
}
lookUpIteratively();

/** Calls nested at most this deep in one render: as deep as jinja2 goes with a one-line macro (249 calls fail there); a real template nests a few (a schema rendered level by level). */
export const MAX_CALL_DEPTH = 248;

/** What a call's callee is named in the refusal: a macro's name, or a method's. */
function calleeName(callee: { type: string; value?: unknown; property?: { value?: unknown } }): string {
  if (callee.type === 'Identifier') return String(callee.value);
  if (callee.type === 'MemberExpression') return String(callee.property?.value);
  return 'a call';
}

function tooDeep(name: string, depth: number, why = `at most ${MAX_CALL_DEPTH}`): TemplateBoundError {
  return new TemplateBoundError(
    `calls of "${name}(" nested ${depth} deep for one prompt, so the render was stopped (${why}; jinja2 stops near 250 with Python's RecursionError): a macro that calls itself without an end, or recurses over data nested that deep`,
  );
}

/** An argument of a call: by place, by name (`k=v`, its value), or unpacked (`*xs`, `**kw`, its argument). */
interface Argument {
  type: string;
  value?: unknown;
  argument?: unknown;
}

/** `call` with each of its arguments replaced by what `evaluateFirst` makes of it, in the order written. */
export function withArgumentsEvaluated<N extends { type: string }>(call: N, evaluateFirst: (argument: N) => N): N {
  const { args } = call as unknown as { args?: Argument[] };
  if (!Array.isArray(args) || args.length === 0) return call;
  const evaluatedArgs = args.map((arg) => {
    if (arg.type === 'KeywordArgumentExpression') return { ...arg, value: evaluateFirst(arg.value as N) };
    if (arg.type === 'SpreadExpression' || arg.type === 'KeywordSpreadExpression') return { ...arg, argument: evaluateFirst(arg.argument as N) };
    return evaluateFirst(arg as unknown as N);
  });
  return { ...call, args: evaluatedArgs };
}

/**
 * The error of a stack that ran out outside any call: a value nested thousands deep (`{% set ns.l = [ns.l] %}` in a
 * loop) printed, compared or written as JSON. The engine's "Maximum call stack size exceeded" named nothing; jinja2
 * stops such a template with RecursionError too.
 */
export function valueTooDeep(cause: Error): TemplateBoundError {
  return new TemplateBoundError('a value nested thousands deep (a list or a record inside itself, level after level) for one prompt, so the render was stopped: printing, comparing or writing it as JSON ran out of stack (jinja2 stops with Python\'s RecursionError)', { cause });
}

/** The depth of the calls a render is inside. */
export class CallDepth {
  private depth = 0;

  /** `call()`, one call deeper; a TemplateBoundError past MAX_CALL_DEPTH, or when the stack runs out first. */
  within<T>(callee: { type: string; value?: unknown; property?: { value?: unknown } }, call: () => T): T {
    if (this.depth >= MAX_CALL_DEPTH) throw tooDeep(calleeName(callee), this.depth + 1);
    this.depth++;
    try {
      return call();
    } catch (error) {
      // Some errors are rewrapped on the way (a `%` format's), keeping the engine's message.
      if (error instanceof Error && !(error instanceof TemplateBoundError) && error.message.includes('Maximum call stack size exceeded')) throw tooDeep(calleeName(callee), this.depth, 'the stack ran out');
      throw error;
    } finally {
      this.depth--;
    }
  }
}
