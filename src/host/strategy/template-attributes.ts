/**
 * The fields a user's template reads of the role's records, checked against
 * the records' shapes before any call: `{{ v.analsis }}` in a loop over the
 * summary role's verifications reads a field no verification has, which
 * jinja2 (and the library) render as nothing, so the run sent the prompt
 * without the analyses, every call, without a word. A name's shape is known
 * when it is a role variable or the loop variable of a `for` over one (or
 * over a field of one); a name a template binds itself (`set`, a macro's
 * argument) is left alone, as are a method's call (`r.items()`) and a field
 * tested with `is defined`.
 */
import type { TemplateVariable, VariableShape } from '../../../machines/role-template.ts';

/** A field a template reads that the record it reads it of does not have. */
export interface UnknownField {
  /** The expression read, as written: `v.analsis`. */
  read: string;
  field: string;
  /** The fields the record has. */
  fields: string[];
}

/** A node of the parsed template, as the walk reads it (the library exports no AST types). */
interface Node {
  type: string;
  [field: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The shape under a none or a value left out to fit: what its fields are when it is there. */
function present(shape: VariableShape | undefined): VariableShape | undefined {
  if (shape === undefined || typeof shape === 'string') return shape;
  if ('orNone' in shape) return present(shape.orNone);
  if ('mayBeLeftOut' in shape) return present(shape.mayBeLeftOut);
  return shape;
}

/** Names in scope and their shapes; a name bound to undefined is one the template made itself, of no known shape. */
type Scope = ReadonlyMap<string, VariableShape | undefined>;

/** The shape of an expression, where it is a known name or a field of one; how it reads, for the message. */
function shapeOf(node: unknown, scope: Scope): { shape: VariableShape | undefined; text: string } | undefined {
  if (!isNode(node)) return undefined;
  if (node.type === 'Identifier') return scope.has(String(node.value)) ? { shape: scope.get(String(node.value)), text: String(node.value) } : undefined;
  if (node.type !== 'MemberExpression' || node.computed === true || !isNode(node.property)) return undefined;
  const of = shapeOf(node.object, scope);
  const record = present(of?.shape);
  if (of === undefined || record === undefined || typeof record === 'string' || !('fields' in record)) return undefined;
  return { shape: record.fields[String(node.property.value)], text: `${of.text}.${String(node.property.value)}` };
}

/** Names a template binds itself anywhere (`set`, macros and their arguments): their shapes are not the role's. */
function selfBound(root: unknown): Set<string> {
  const bound = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isNode(value)) return;
    if (value.type === 'Set' && isNode(value.assignee) && value.assignee.type === 'Identifier') bound.add(String(value.assignee.value));
    if (value.type === 'Macro') {
      if (isNode(value.name)) bound.add(String(value.name.value));
      for (const arg of Array.isArray(value.args) ? value.args : []) {
        const name = isNode(arg) && arg.type === 'KeywordArgumentExpression' ? arg.key : arg;
        if (isNode(name) && name.type === 'Identifier') bound.add(String(name.value));
      }
    }
    for (const child of Object.values(value)) walk(child);
  };
  walk(root);
  return bound;
}

/** The first field read of a record that lacks it, in a parsed template whose role has `variables`; null when there is none. */
export function unknownField(root: unknown, variables: Readonly<Record<string, TemplateVariable>>): UnknownField | null {
  const own = selfBound(root);
  const initial = new Map(Object.entries(variables).map(([name, variable]) => [name, own.has(name) ? undefined : variable.shape]));
  let found: UnknownField | null = null;
  const walk = (value: unknown, scope: Scope): void => {
    if (found !== null) return;
    if (Array.isArray(value)) return value.forEach((item) => walk(item, scope));
    if (!isNode(value)) return;
    if (value.type === 'CallExpression') {
      // A method called on a record (`r.items()`) is no field of it; its arguments are read.
      if (isNode(value.callee) && value.callee.type === 'MemberExpression') walk(value.callee.object, scope);
      else walk(value.callee, scope);
      return walk(value.args, scope);
    }
    if (value.type === 'TestExpression') return; // `r.text is defined` asks whether the field is there.
    if (value.type === 'MemberExpression' && value.computed !== true && isNode(value.property)) {
      const record = present(shapeOf(value.object, scope)?.shape);
      const field = String(value.property.value);
      if (record !== undefined && typeof record !== 'string' && 'fields' in record && !Object.hasOwn(record.fields, field)) {
        found = { read: `${shapeOf(value.object, scope)?.text}.${field}`, field, fields: Object.keys(record.fields) };
        return;
      }
      return walk(value.object, scope);
    }
    if (value.type === 'For') {
      walk(value.iterable, scope);
      const list = present(shapeOf(value.iterable, scope)?.shape);
      const item = list !== undefined && typeof list !== 'string' && 'listOf' in list ? list.listOf : undefined;
      const inner = new Map(scope);
      if (isNode(value.loopvar) && value.loopvar.type === 'Identifier') inner.set(String(value.loopvar.value), own.has(String(value.loopvar.value)) ? undefined : item);
      // `for k, v in …` binds names of no known shape.
      else if (isNode(value.loopvar) && Array.isArray(value.loopvar.value)) for (const name of value.loopvar.value) if (isNode(name)) inner.set(String(name.value), undefined);
      walk(value.body, inner);
      return walk(value.defaultBlock, scope);
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'type') walk(child, scope);
  };
  walk(root, initial);
  return found;
}
