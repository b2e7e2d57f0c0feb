/**
 * trim_blocks and lstrip_blocks as jinja2's lexer applies them in
 * transformers' environment: to the text between tags only. They were applied
 * by regexes over the whole source, so a `%}` and a newline inside a quoted
 * text of a tag lost the newline, and a `{% raw %}` block lost its indents and
 * newlines, where transformers (and so vLLM and SGLang) print them as written.
 * Each expected text is what python3-jinja2 3.1.6 renders with
 * ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True).
 */
import { describe, expect, it } from 'vitest';
import { renderChatTemplate } from '../../workers/chat-template.ts';

const rendered = (template: string) => renderChatTemplate(template, { messages: [] });

describe('trim_blocks and lstrip_blocks, between tags only', () => {
  it('keep a newline and an indent inside a quoted text', () => {
    expect(rendered(`{{ 'p%}\nq' }}|{{ "  {%x" }}`)).toBe('p%}\nq|  {%x');
    expect(rendered('{% set x = "it\\"s %}\n" %}{{ x }}')).toBe('it"s %}\n');
    expect(rendered('{{ "}}" }}\nq')).toBe('}}\nq');
  });

  it("keep a raw block's text as written, but for the indent of its closing tag", () => {
    expect(rendered('{% raw %}\n  {% if %}\n{% endraw %}\nq')).toBe('\n  {% if %}\nq');
    expect(rendered('{% raw %}x\n  {% endraw %}\nq')).toBe('x\nq');
  });

  it('still trim what jinja2 trims: a comment, nested blocks, a tag after a quoted text', () => {
    expect(rendered('{# a %} #}\nb')).toBe('b');
    expect(rendered('{% if 1 %}\n  {% if 1 %}\n  x{% endif %}{% endif %}')).toBe('  x');
    expect(rendered('{{ "a%}" }}\n  {% if 1 %}y{% endif %}')).toBe('a%}\ny');
  });
});
