/**
 * How a template's block tags treat the whitespace around them. Python's
 * jinja2 renders by default (`jinja2.Template(text)`, as a paper's code renders
 * its prompt) every character outside the tags: a line that holds only
 * `{% for … %}` leaves its newline, the indent before a tag stays, and only
 * the markers `{%-`, `-%}`, `{{-`, `-}}`, `{#-`, `-#}` remove whitespace; a
 * template's one final newline is dropped. `@huggingface/jinja`'s `Template`
 * always parses with trim_blocks (the newline after a block tag or comment is
 * removed) and lstrip_blocks (spaces and tabs before one at the start of a
 * line are removed) on, as Hugging Face's chat templates are rendered: the
 * built-in templates are written for that, a user's template is parsed
 * without them.
 */
import { parse, Template, tokenize } from '@huggingface/jinja';
import { renderAsJinja2 } from './jinja2-render.ts';
import { withLibraryNumbers } from './jinja2-numbers.ts';
import { unknownTagError, unknownTagOf } from './jinja2-unknown-tags.ts';
import { withConcatPrecedence } from './jinja2-concat.ts';
import { withOneTuples } from './jinja2-one-tuple.ts';
import { testNodesOf, withTestArguments, withUnchainedComparisons } from './jinja2-tests.ts';
import type { TemplateWhitespace } from './tasks.ts';
import { withBlocksTrimmed, withNewlinesNormalized } from './jinja2-trim-blocks.ts';
import type { Jinja2Dialect } from './transformers-environment.ts';

/**
 * A template parsed with jinja2's defaults (the library's own constructor always turns trim_blocks and lstrip_blocks
 * on), or as transformers' chat-template environment parses it: with both on, and `{% break %}`, `{% continue %}`
 * (its loopcontrols extension) and `{% generation %}` (its AssistantTracker) known.
 */
class Jinja2Template extends Template {
  /** A tag jinja2 refuses, which a render fails on; null when there is none. */
  private readonly unknownTag: string | null;

  constructor(source: string, private readonly dialect: Jinja2Dialect = 'jinja2') {
    // The base class parses its argument in trimmed mode; an empty one costs nothing, and the source is parsed here instead,
    // with jinja2's number literals, tests with arguments, chained comparisons, the precedence of `~` and tuples of one, which the library's lexer and parser do not read, rewritten.
    super('');
    const trimmed = dialect === 'transformers';
    const lines = withNewlinesNormalized(source);
    const tokens = withOneTuples(withConcatPrecedence(withUnchainedComparisons(withTestArguments(tokenize(withLibraryNumbers(trimmed ? withBlocksTrimmed(lines) : lines), {}))))) as Parameters<typeof parse>[0];
    this.parsed = testNodesOf(parse(tokens));
    this.unknownTag = trimmed ? null : unknownTagOf(source, this.parsed);
  }

  /** Rendered as jinja2 prints and compares values, within a bound (jinja2-render.ts); a tag jinja2 does not know fails, as there. */
  override render(items?: Record<string, unknown>): string {
    if (this.unknownTag !== null) throw unknownTagError(this.unknownTag);
    return renderAsJinja2(this, items ?? {}, this.dialect);
  }
}

/** `source` parsed to render as `whitespace` says. Throws the library's error when it does not parse. */
export function parseTemplate(source: string, whitespace: TemplateWhitespace): Template {
  if (whitespace === 'trimmed') return new Template(source);
  return new Jinja2Template(source, whitespace === 'transformers' ? 'transformers' : 'jinja2');
}

/**
 * A template written for the trimmed mode rewritten to render the same text
 * with jinja2's defaults: the edits trim_blocks and lstrip_blocks make to the
 * source before it is parsed, made to the text itself. Indents before a
 * block tag or comment at the start of a line go, and so does the newline
 * right after one (the library also counts `{-` as an opening and `-}` as a
 * closing, so this does too). What `tmas prompts` prints of a built-in
 * template, so that the file a user saves renders the built-in prompt.
 */
export function asJinja2Defaults(trimmed: string): string {
  return trimmed.replace(/^[ \t]*(?=\{[#%-])/gm, '').replace(/([#%-]\})\n/g, '$1');
}
