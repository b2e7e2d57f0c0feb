/**
 * The parts of Jinja that `@huggingface/jinja` renders otherwise than
 * Python's jinja2, found in a parsed template so that it is refused before
 * the run rather than sent different from what its author wrote for (a
 * user's template is meant to render as jinja2 renders it: the paper's code
 * does). Each was compared with jinja2 3.1 on the same values; the message
 * says what to write instead.
 */

/** A node of the parsed template (the library exports no AST types). */
interface Node {
  type: string;
  [field: string]: unknown;
}

/** What a template uses that renders otherwise, the text that finds its tag, and what to write instead. */
export interface Divergence {
  /** A piece of the tag's text (`tojson`, `loop.depth`, `break`), to find its line. */
  text: string;
  what: string;
}

/**
 * Chat-template functions that neither jinja2 nor a render here has (`strftime_now`): a call of one fails
 * where it is evaluated, in both, as an undefined function (workers/jinja2-undefined.ts), and a branch that
 * needs one defined never runs. A call on a branch the values do not take renders in jinja2, so it is not
 * refused before the run (it was, and so were Seed-OSS's and GLM's `tojson(ensure_ascii=False)` behind a flag).
 */
const CHAT_GLOBALS = new Set(['strftime_now']);

/**
 * jinja2's filters, tests and Python's str, list and dict methods that the
 * library lacks (each tried on a text, a list, a record and a number): a
 * template that uses one fails on the first prompt that reaches it, which the
 * sample values may not (a branch taken on long texts only), and the
 * library's message for a method ("Cannot call something that is not a
 * function") names none.
 */
const LACKING_FILTERS = new Set('attr d filesizeformat forceescape pprint random striptags urlencode urlize xmlattr'.split(' '));
const LACKING_TESTS = new Set('filter test'.split(' '));
const LACKING_METHODS = new Set(
  ('casefold encode expandtabs format_map isidentifier isprintable maketrans translate ' +
    'clear copy extend insert remove reverse sort fromkeys popitem').split(' '),
);
/** What to write instead of the lacking ones a prompt is likeliest to use. */
const INSTEAD: Readonly<Record<string, string>> = {
  format: '"%" of the text (\'%s of %s\' % (a, b)) or "~" to join texts',
};

function lacking(kind: string, name: string): Divergence {
  const instead = INSTEAD[name] === undefined ? '' : `: write ${INSTEAD[name]}`;
  return { text: name, what: `the ${kind} "${name}${kind === 'method' ? '()' : ''}" is one jinja2 has and @huggingface/jinja does not, so the run would stop at the first prompt that reaches it${instead}` };
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

function nameOf(node: unknown): string | null {
  return isNode(node) && node.type === 'Identifier' ? String(node.value) : null;
}

/** What a call renders otherwise: a string method. */
function callDivergence(node: Node): Divergence | null {
  const callee = isNode(node.callee) ? node.callee : null;
  const method = callee?.type === 'MemberExpression' ? nameOf(callee.property) : null;
  if (method === null) return null;
  // Only a loop cycles (loop.cycle('odd', 'even')); no other value has the method.
  if (method === 'cycle' && nameOf(callee?.object) !== 'loop') return lacking('method', method);
  if (LACKING_METHODS.has(method)) return lacking('method', method);
  return null;
}

/** What one node uses that renders otherwise, or null (its children are looked at by the walk). */
function divergenceAt(node: Node): Divergence | null {
  if (node.type === 'Break' || node.type === 'Continue') {
    const tag = node.type.toLowerCase();
    return { text: tag, what: `"{% ${tag} %}" needs an extension that jinja2 does not load by default (its templates refuse it): use a condition in the loop or a filtered loop ("{% for r in rollouts if … %}")` };
  }
  if (node.type === 'FilterExpression' || node.type === 'FilterStatement') {
    const filter = node.filter;
    const call = isNode(filter) && filter.type === 'CallExpression' ? filter : null;
    const name = nameOf(call?.callee ?? filter);
    if (name !== null && LACKING_FILTERS.has(name)) return lacking('filter', name);
    if (name === 'default' && call === null) return { text: 'default', what: '"default" without an argument fails here, where jinja2 gives the value or \'\': write default(\'\')' };
  }
  if (node.type === 'TestExpression' && LACKING_TESTS.has(nameOf(node.test) ?? '')) return lacking('test', nameOf(node.test) ?? '');
  if (node.type === 'CallExpression') return callDivergence(node);
  return null;
}

/**
 * The branch of an `if` that never runs, in jinja2 as here: the one that needs a chat-template function that
 * neither has (Llama 3.2's `{% if strftime_now is defined %}…{% else %}` a fixed date), or null.
 */
function untakenBranch(node: Node): 'body' | 'alternate' | null {
  const test = node.type === 'If' && isNode(node.test) && node.test.type === 'TestExpression' ? node.test : null;
  if (test === null || nameOf(test.test) !== 'defined' || !CHAT_GLOBALS.has(nameOf(test.operand) ?? '')) return null;
  return test.negate === true ? 'alternate' : 'body';
}

/** The first use in the parsed template `root` of what renders otherwise than jinja2, or null. */
export function divergentUse(root: unknown): Divergence | null {
  const walk = (value: unknown): Divergence | null => {
    if (Array.isArray(value)) {
      for (const item of value) {
        const found = walk(item);
        if (found !== null) return found;
      }
      return null;
    }
    if (!isNode(value)) return null;
    const here = divergenceAt(value);
    if (here !== null) return here;
    const untaken = untakenBranch(value);
    for (const [field, child] of Object.entries(value)) {
      if (field === untaken) continue;
      const found = walk(child);
      if (found !== null) return found;
    }
    return null;
  };
  return walk(root);
}
