/**
 * jinja2's `{% raw %}…{% endraw %}` in the form `@huggingface/jinja` reads,
 * which has no such tag ("Unknown statement type: raw"): the text between
 * the tags, printed as it stands, becomes one string literal printed by an
 * expression, `{{ '…' }}`, with jinja2's whitespace control: `{%- raw`
 * takes the whitespace before the block, `raw -%}` the whitespace at the
 * start of its text, `{%- endraw` the whitespace at its end, `endraw -%}`
 * the whitespace after. A newline taken out stays inside the expression's
 * tag, outside its string, so no line moves.
 */
import { unknownTagError } from './jinja2-unknown-tags.ts';

/**
 * jinja2's raw block: its opening tag (with `-` or `+` markers, but no `+` before its `%}`: jinja2's lexer does not
 * read `{% raw +%}` as a raw block, and fails on it as an unknown tag), its text, its closing tag; sticky.
 */
const RAW_BLOCK = /\{%([-+]?)\s*raw\s*(-?)%\}([\s\S]*?)\{%([-+]?)\s*endraw\s*([-+]?)%\}/y;

/** An opening raw tag that jinja2 does not read as one; sticky. */
const PLUS_RAW = /\{%[-+]?\s*raw\s*\+%\}/y;

/** The raw block at `start` of `source` as an expression the library reads, and where it ends; null where none is there or it is not closed. */
export function rawBlockAt(source: string, start: number): { text: string; end: number } | null {
  RAW_BLOCK.lastIndex = start;
  const block = RAW_BLOCK.exec(source);
  PLUS_RAW.lastIndex = start;
  // The library would say "Unknown statement type: raw"; jinja2's words let the message name what jinja2 says.
  if (block === null && PLUS_RAW.test(source)) throw unknownTagError('raw');
  if (block === null) return null;
  const [whole, before = '', afterOpen = '', content = '', beforeClose = '', after = ''] = block;
  const leading = afterOpen === '-' ? (/^\s*/.exec(content)?.[0] ?? '') : '';
  const trailing = beforeClose === '-' ? (/\s*$/.exec(content.slice(leading.length))?.[0] ?? '') : '';
  const kept = content.slice(leading.length, content.length - trailing.length);
  const literal = `'${kept.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  // The newlines taken out of the text, kept as whitespace inside the tag so that each line after keeps its number.
  const newlines = (text: string) => text.replace(/[^\n]/g, '');
  const text = `{{${before === '-' ? '-' : ''} ${newlines(leading)}${literal}${newlines(trailing)} ${after === '-' ? '-' : ''}}}`;
  return { text, end: start + whole.length };
}
