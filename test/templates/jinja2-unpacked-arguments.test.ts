/**
 * Arguments unpacked with `*xs` from a long list: the items were spread into
 * one JavaScript call, whose stack gave out past about 100,000 of them, and
 * the render was refused as "a value nested thousands deep", which the
 * template has not. Now every item is passed, as Python's jinja2 passes
 * them, and a list too long for a prompt meets the step bound, which says so.
 */
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../workers/prompt-template.ts';

const many = (count: number) => Array.from({ length: count }, (_, index) => index);

describe('*xs of a long list', () => {
  it("gives every item to the filter, which fails as Python's does", () => {
    // python3-jinja2 3.1: TypeError: not all arguments converted during string formatting
    expect(() => renderTemplate("{{ '%s' | format(*xs) }}", { xs: many(150_000) }, 'jinja2')).toThrow(/not all arguments converted/);
  });

  it('past the step bound, is refused by it, not as a value nested deep', () => {
    expect(() => renderTemplate("{{ '%s' | format(*xs) }}", { xs: many(500_000) }, 'jinja2')).toThrow(/more than 200,000 steps/);
  });

  it('renders a long list unpacked into a filter that takes them all', () => {
    // python3-jinja2 3.1 prints the digits' count, 788890 for these values.
    const template = "{{ ('%s' * (xs | length)) | format(*xs) | length }}";
    expect(renderTemplate(template, { xs: many(150_000) }, 'jinja2')).toBe('788890');
  });
});
