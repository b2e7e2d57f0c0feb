/**
 * Checks a user's prompt template before any call: that it parses, that it
 * names only variables its role has and reads at least one of them (unread-variables.ts), that it uses nothing the library renders
 * otherwise than jinja2 (template-divergence.ts), and that it renders on sample values of
 * the role's variables (with jinja2's defaults, as a user's template renders). `@huggingface/jinja` reports no positions, so the line
 * of a problem is found here: the tags are read from the source with their
 * lines, a tag that does not parse on its own is the one at fault, and
 * otherwise the blocks are matched (an `endfor` that closes an `if`, an `if`
 * never closed).
 */
import type { TemplateVariable, VariableShape } from '../../../machines/role-template.ts';
import type { TemplateValue } from '../../../machines/prompt.ts';
import { compileTemplate, renderTemplate } from '../../../workers/prompt-template.ts';
import { divergentUse } from './template-divergence.ts';
import { unknownField } from './template-attributes.ts';
import { formatPlaceholder, unreadVariables } from './unread-variables.ts';
import type { TemplateProblem } from './template-problem.ts';
import { thrownText } from '../../kernel/thrown-text.ts';


/** Names a template may use without a role giving them: the library's globals. */
const GLOBALS = new Set(['true', 'false', 'none', 'True', 'False', 'None', 'range', 'namespace', 'dict', 'joiner', 'raise_exception', 'strftime_now', 'loop', 'caller']);

/** Statements that open a block, closed by `end<name>`. */
const BLOCKS = new Set(['if', 'for', 'macro', 'call', 'filter', 'set', 'generation']);

interface Tag {
  text: string;
  /** The first word of a statement (`for`, `endif`), or '' for an expression or a comment. */
  keyword: string;
  line: number;
}

/** The newlines of `source` in [from, to). */
function newlinesIn(source: string, from: number, to: number): number {
  let count = 0;
  for (let i = source.indexOf('\n', from); i !== -1 && i < to; i = source.indexOf('\n', i + 1)) count++;
  return count;
}

function lineAt(source: string, index: number): number {
  return 1 + newlinesIn(source, 0, index);
}

/** The tags of `source`, in order, with their lines; a problem when a tag is opened and never closed. */
function tagsOf(source: string): { tags: Tag[]; unclosed: TemplateProblem | null } {
  const tags: Tag[] = [];
  const pattern = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}|\{#[\s\S]*?#\}/g;
  let rest = '';
  let last = 0;
  // Each tag's line counted on from the last one's: counted from the start for each, a file of 30,000 tags took seconds.
  let line = 1;
  for (const match of source.matchAll(pattern)) {
    line += newlinesIn(source, last, match.index);
    rest += source.slice(last, match.index).replace(/[^\n]/g, ' ') + ' '.repeat(match[0].length);
    last = match.index + match[0].length;
    const statement = /^\{%[-+]?\s*(\w+)/.exec(match[0]);
    tags.push({ text: match[0], keyword: statement?.[1] ?? '', line });
    line += newlinesIn(source, match.index, last);
  }
  rest += source.slice(last);
  const open = /\{\{|\{%|\{#/.exec(rest);
  const unclosed = open === null ? null : { line: lineAt(source, open.index), what: `"${open[0]}" opens a tag that is never closed (with "${{ '{{': '}}', '{%': '%}', '{#': '#}' }[open[0]]}")` };
  return { tags, unclosed };
}

function parses(text: string): string | null {
  try {
    // The markers a template may hold parse the same in either mode; a user's is rendered with jinja2's defaults.
    compileTemplate(text, 'jinja2');
    return null;
  } catch (error) {
    return thrownText(error);
  }
}

/** A block `set` has no `=` of its own: `{% set x %}…{% endset %}`. */
function opensBlock(tag: Tag): boolean {
  if (tag.keyword === 'set') return !/^\{%[-+]?\s*set\s+[^=]*=(?!=)/.test(tag.text);
  return BLOCKS.has(tag.keyword);
}

/** Why a tag does not parse on its own (an opening tag with its end added), or null. */
function tagError(tag: Tag): string | null {
  if (tag.text.startsWith('{#') || tag.keyword.startsWith('end')) return null;
  if (tag.keyword === 'elif' || tag.keyword === 'else') return parses(`{% if true %}${tag.text}{% endif %}`);
  return parses(opensBlock(tag) ? `${tag.text}{% end${tag.keyword} %}` : tag.text);
}

/** The first block that is closed by the wrong end, never closed, or an end with no block. */
function blockProblem(tags: Tag[]): TemplateProblem | null {
  const open: Tag[] = [];
  for (const tag of tags) {
    if (opensBlock(tag)) open.push(tag);
    else if (tag.keyword.startsWith('end')) {
      const name = tag.keyword.slice('end'.length);
      const top = open.pop();
      if (top === undefined) return { line: tag.line, what: `"{% ${tag.keyword} %}" closes no open "{% ${name} %}"` };
      if (top.keyword !== name) return { line: tag.line, what: `"{% ${tag.keyword} %}" closes the "{% ${top.keyword} %}" of line ${top.line}: close it with "{% end${top.keyword} %}" first` };
    } else if ((tag.keyword === 'elif' || tag.keyword === 'else') && open.length === 0) {
      return { line: tag.line, what: `"{% ${tag.keyword} %}" is outside any "{% if %}" or "{% for %}"` };
    }
  }
  const unclosed = open.at(-1);
  return unclosed === undefined ? null : { line: unclosed.line, what: `"{% ${unclosed.keyword} %}" is never closed: add "{% end${unclosed.keyword} %}"` };
}

/** Where and why `source` does not parse; null when it does. */
export function parseProblem(source: string): TemplateProblem | null {
  const whole = parses(source);
  if (whole === null) return null;
  const { tags, unclosed } = tagsOf(source);
  if (unclosed) return unclosed;
  for (const tag of tags) {
    const error = tagError(tag);
    // A paper's str.format prompt writes a literal "{}" (\boxed{}) as "{{}}", which Jinja reads as an empty expression.
    const escaped = /^\{\{\s*\}\}$/.test(tag.text) ? ' (Python\'s str.format writes "{}" so: a Jinja template writes "{}" as it is)' : '';
    if (error !== null) return { line: tag.line, what: `${tag.text.replace(/\s+/g, ' ')} does not parse: ${error}${escaped}` };
  }
  return blockProblem(tags) ?? { line: 1, what: `it does not parse: ${whole}` };
}

/** A node of the parsed template, as the walk below reads it (the library exports no AST types). */
interface Node {
  type: string;
  [field: string]: unknown;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';
}

/** The names a target binds: `x`, `(k, v)`. */
function boundNames(target: unknown): string[] {
  if (!isNode(target)) return [];
  if (target.type === 'Identifier') return [String(target.value)];
  if (target.type === 'TupleLiteral' && Array.isArray(target.value)) return target.value.flatMap(boundNames);
  return [];
}

/** Every variable a parsed template reads, and every name it binds itself (loop variables, `set`, macros). */
function namesOf(root: unknown): { used: Set<string>; bound: Set<string> } {
  const used = new Set<string>();
  const bound = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(walk);
    if (!isNode(value)) return;
    const node = value;
    switch (node.type) {
      case 'Identifier':
        used.add(String(node.value));
        return;
      case 'MemberExpression':
        walk(node.object);
        if (node.computed === true) walk(node.property);
        return;
      case 'FilterExpression':
      case 'FilterStatement':
        walk(node.operand);
        // The filter's name is not a variable; its arguments are.
        if (isNode(node.filter) && node.filter.type === 'CallExpression') walk(node.filter.args);
        walk(node.body);
        return;
      case 'TestExpression':
        // The test's name is not a variable; its arguments (`x is in allowed`) are.
        walk([node.operand, node.args]);
        return;
      case 'KeywordArgumentExpression':
        walk(node.value);
        return;
      case 'For':
        boundNames(node.loopvar).forEach((name) => bound.add(name));
        walk([node.iterable, node.body, node.defaultBlock]);
        return;
      case 'Set':
        boundNames(node.assignee).forEach((name) => bound.add(name));
        if (isNode(node.assignee) && node.assignee.type === 'MemberExpression') walk(node.assignee.object);
        walk([node.value, node.body]);
        return;
      case 'Macro':
        boundNames(node.name).forEach((name) => bound.add(name));
        for (const arg of Array.isArray(node.args) ? node.args : []) {
          if (isNode(arg) && arg.type === 'KeywordArgumentExpression') {
            boundNames(arg.key).forEach((name) => bound.add(name));
            walk(arg.value);
          } else boundNames(arg).forEach((name) => bound.add(name));
        }
        walk(node.body);
        return;
      case 'CallStatement':
        (Array.isArray(node.callerArgs) ? node.callerArgs : []).forEach((arg: unknown) => boundNames(arg).forEach((name) => bound.add(name)));
        walk([node.call, node.body]);
        return;
      default:
        for (const [field, child] of Object.entries(node)) if (field !== 'operator') walk(child);
    }
  };
  walk(root);
  return { used, bound };
}

/** The line of the first tag that reads `name` as a variable (not as an attribute or inside a string). */
function lineOfName(source: string, name: string): number {
  const word = new RegExp(`(?<![.\\w])${name}(?!\\w)`);
  const tag = tagsOf(source).tags.find((t) => !t.text.startsWith('{#') && word.test(t.text.replace(/'[^']*'|"[^"]*"/g, '""')));
  return tag?.line ?? 1;
}

/** Variables a template reads that the role does not give it. */
function unknownNames({ used, bound }: { used: Set<string>; bound: Set<string> }, variables: Readonly<Record<string, TemplateVariable>>): string[] {
  return [...used].filter((name) => !Object.hasOwn(variables, name) && !bound.has(name) && !GLOBALS.has(name));
}

/** How a sample is filled: every list with two items and every optional value present, or all of them empty; which choice of each `oneOf`. */
interface Variant {
  full: boolean;
  choice: number;
}

function sampleOf(shape: VariableShape, name: string, variant: Variant): TemplateValue {
  if (shape === 'string') return `(${name})`;
  if (shape === 'integer') return 2;
  if (shape === 'boolean') return variant.full;
  if ('oneOf' in shape) return shape.oneOf[variant.choice % shape.oneOf.length] ?? '';
  if ('orNone' in shape) return variant.full ? sampleOf(shape.orNone, name, variant) : null;
  if ('mayBeLeftOut' in shape) return sampleOf(shape.mayBeLeftOut, name, variant);
  // A list has two items, or none; with none, a value that may be left out is absent from a third, alone.
  if ('listOf' in shape) return variant.full ? [sampleOf(shape.listOf, name, variant), sampleOf(shape.listOf, name, variant)] : leftOutItems(shape.listOf, variant);
  return Object.fromEntries(Object.entries(shape.fields).map(([field, inner]) => [field, sampleOf(inner, field, variant)]));
}

/** No items, or, when an item may lose a field to fit the window, one item without it (a rollout whose text was left out). */
function leftOutItems(shape: VariableShape, variant: Variant): TemplateValue[] {
  if (typeof shape === 'string' || !('fields' in shape) || !Object.values(shape.fields).some((inner) => typeof inner !== 'string' && 'mayBeLeftOut' in inner)) return [];
  const kept = Object.entries(shape.fields).filter(([, inner]) => typeof inner === 'string' || !('mayBeLeftOut' in inner));
  return [Object.fromEntries(kept.map(([field, inner]) => [field, sampleOf(inner, field, { ...variant, full: true })]))];
}

function choicesOf(shape: VariableShape): number {
  if (typeof shape === 'string') return 1;
  if ('oneOf' in shape) return shape.oneOf.length;
  if ('orNone' in shape) return choicesOf(shape.orNone);
  if ('mayBeLeftOut' in shape) return choicesOf(shape.mayBeLeftOut);
  if ('listOf' in shape) return choicesOf(shape.listOf);
  return Math.max(1, ...Object.values(shape.fields).map(choicesOf));
}

/** Sample values of a role's variables, in every variant: each choice of a `oneOf`, with full and with empty lists. */
export function sampleVariables(variables: Readonly<Record<string, TemplateVariable>>): Array<Record<string, TemplateValue>> {
  const choices = Math.max(1, ...Object.values(variables).map((variable) => choicesOf(variable.shape)));
  return Array.from({ length: choices }, (_, choice) => [true, false].map((full) => Object.fromEntries(Object.entries(variables).map(([name, variable]) => [name, sampleOf(variable.shape, name, { full, choice })])))).flat();
}

/** The line of the first tag that holds `text`. */
function lineOfText(source: string, text: string): number | undefined {
  return tagsOf(source).tags.find((tag) => tag.text.includes(text))?.line;
}

/**
 * What is wrong with a user's template for a role with `variables`, or null:
 * it does not parse, it reads a variable the role does not have, or it fails
 * to render on sample values of the role's variables.
 */
export function checkTemplate(source: string, variables: Readonly<Record<string, TemplateVariable>>): TemplateProblem | null {
  if (source.trim() === '') return { line: 1, what: 'it is empty: the role would send a message with nothing in it' };
  const parse = formatPlaceholder(source, variables) ?? parseProblem(source);
  if (parse) return parse;
  const parsed = compileTemplate(source, 'jinja2').parsed;
  const names = namesOf(parsed);
  const [unknown] = unknownNames(names, variables);
  if (unknown !== undefined) return { line: lineOfName(source, unknown), what: `it reads the variable "${unknown}", which this role does not have` };
  const unread = unreadVariables(variables, names.used);
  if (unread !== null) return unread;
  const field = unknownField(parsed, variables);
  if (field !== null) {
    return { line: lineOfText(source, field.read) ?? 1, what: `it reads ${field.read}, a field its record does not have (its fields: ${field.fields.join(', ')}), which would render as nothing in every prompt` };
  }
  const generation = tagsOf(source).tags.find((tag) => tag.keyword === 'generation');
  if (generation !== undefined) return { line: generation.line, what: '"{% generation %}" is a tag of chat templates, which jinja2 refuses in a template and this library drops: leave it out' };
  const divergent = divergentUse(parsed);
  if (divergent !== null) return { line: lineOfText(source, divergent.text) ?? 1, what: divergent.what };
  for (const sample of sampleVariables(variables)) {
    try {
      renderTemplate(source, sample, 'jinja2');
    } catch (error) {
      const message = thrownText(error);
      // The library names what failed (a filter, a test, an attribute) in quotes or last: its tag is the likely place.
      const named = [...message.matchAll(/["'`]([^"'`]+)["'`]/g)].map((match) => match[1] ?? '').concat(message.split(': ').at(-1) ?? '');
      const line = named.map((text) => (text === '' ? undefined : lineOfText(source, text))).find((found) => found !== undefined);
      // A value left out to fit the window is absent, and the library's filters refuse what is absent (jinja2's take it as '').
      const absent = /UndefinedValue/.test(message) ? ' (a value that may be left out to fit the window is absent then: test it with `is defined`, or give it `| default(\'\')`)' : '';
      return { line: line ?? 1, what: `it fails to render on sample values: ${message}${absent}` };
    }
  }
  return null;
}
