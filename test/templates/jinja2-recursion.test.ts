/**
 * A user's template whose macro calls itself: without an end, it ran until
 * V8's stack gave out and the run stopped on "Maximum call stack size
 * exceeded", naming neither the file nor the macro; deep but ending, its
 * names looked up deep in the stack came out undefined, and it printed less
 * than jinja2 without a word. Now calls nest at most MAX_CALL_DEPTH deep
 * (jinja2's own limit for a one-line macro), refused as TMAS_PROMPT on the
 * macro's line, and a render that runs out of stack first is refused alike.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { RoleTemplate } from '../../machines/role-template.ts';
import { checkTemplate } from '../../src/host/strategy/template-check.ts';
import { readPromptTemplates } from '../../src/settings/files/prompt-files.ts';
import { createPool } from '../../src/pool/pool.ts';
import { MAX_CALL_DEPTH } from '../../workers/jinja2-call-depth.ts';
import { renderTemplate } from '../../workers/prompt-template.ts';
import { runCli, test } from '../fixtures.ts';

const variables = (STRATEGIES.pacore?.definitions?.synthesis?.template as unknown as RoleTemplate<never, never>).variables;

/** A macro printing an x per level, n levels below its first call: n + 1 calls deep. */
const COUNTDOWN = '{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{% endif %}x{% endmacro %}{{ f(depth) }}';

describe('macros that call themselves', () => {
  test('without an end: refused on the macro\'s line before the run, as TMAS_PROMPT with exit 2', async ({ dir }) => {
    const source = '{{ problem }}\n{% macro f(n) %}\n{{ f(n) }}{% endmacro %}{{ f(1) }}';
    const refused = checkTemplate(source, variables);
    expect(`${refused?.line}: ${refused?.what}`).toMatch(new RegExp(`^2: it fails to render on sample values: calls of "f\\(" nested ${MAX_CALL_DEPTH + 1} deep for one prompt, so the render was stopped`));
    const file = path.join(dir, 'recursive.jinja');
    await writeFile(file, source);
    const { code, stderr } = await runCli(['run', '--demo', '--strategy', 'pacore', '--output-file', path.join(dir, 'out'), '--prompt', `synthesis=${file}`]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(new RegExp(`${file}:2: .*calls of "f\\(" nested .*\\[TMAS_PROMPT\\]`));
    expect(stderr).not.toMatch(/Maximum call stack/);
  });

  test("as deep as jinja2 goes, a pool thread renders jinja2's text; one call deeper is refused, as jinja2 refuses it", async ({ dir }) => {
    // python3-jinja2 3.1.6 renders f(247), 248 calls deep, and fails on f(248) with RecursionError.
    expect(MAX_CALL_DEPTH).toBe(248);
    const file = path.join(dir, 'countdown.jinja');
    await writeFile(file, `{{ problem }}${COUNTDOWN}`);
    const template = readPromptTemplates([`synthesis=${file}`]).synthesis?.template ?? '';
    const pool = createPool({ threads: 1 });
    try {
      const render = (depth: number) => pool.fit({ system: '', parts: [{ id: 'user', template, whitespace: 'jinja2', variables: { problem: 'P', depth } }], budget: 100_000 });
      expect((await render(247)).user).toBe(`P${'x'.repeat(248)}`);
      expect((await render(248)).renderError).toMatch(/calls of "f\(" nested 249 deep for one prompt, so the render was stopped \(at most 248;/);
    } finally {
      await pool.close();
    }
  });

  test('deep enough that the stack runs out first: refused, never printed short', () => {
    // Loops in the macro's body: the library looked each name up by recursing through the scopes, and an error there read as undefined (91 of 101 x's).
    const body = '{% for a in [1] %}{% for b in [1] %}{% for c in [1] %}{% if n > 0 %}{{ g(f(n - 1) ~ "") | trim }}{% endif %}{% endfor %}{% endfor %}{% endfor %}';
    const source = `{% macro g(s) %}{{ s }}{% endmacro %}{% macro f(n) %}${body}x{% endmacro %}{{ f(depth) }}`;
    expect(renderTemplate(source, { depth: 60 }, 'jinja2')).toBe('x'.repeat(61));
    // python3-jinja2 renders each of these depths; the stack of a thread may hold them or not, but never a shorter text.
    for (const depth of [100, 150, 200, 247]) {
      let rendered: string;
      try {
        rendered = renderTemplate(source, { depth }, 'jinja2');
      } catch (error) {
        expect(String(error), `depth ${depth}`).toMatch(/calls of "[fg]\(" nested \d+ deep for one prompt, so the render was stopped \((the stack ran out|at most 248);/);
        continue;
      }
      expect(rendered, `depth ${depth}`).toBe('x'.repeat(depth + 1));
    }
  });

  test('a value nested thousands deep, printed or written as JSON: refused naming the cause, never the engine\'s "Maximum call stack size exceeded"', () => {
    const nest = '{% set ns = namespace(l=[]) %}{% for i in range(20000) %}{% set ns.l = [ns.l] %}{% endfor %}';
    for (const use of ['{{ ns.l | tojson }}', '{{ ns.l }}']) {
      expect(() => renderTemplate(nest + use, {}, 'jinja2'), use).toThrow(/a value nested thousands deep \(a list or a record inside itself, level after level\) for one prompt, so the render was stopped/);
    }
    const refused = checkTemplate(`{{ problem }}\n${nest}{{ ns.l }}`, variables);
    expect(`${refused?.line}: ${refused?.what}`).toMatch(/^\d+: it fails to render on sample values: a value nested thousands deep/);
  });
});
