/**
 * A user's template (`tmas run --prompt ROLE=FILE`) renders as Python's
 * jinja2 renders it by default, byte for byte: checked against
 * test/fixtures/jinja2/rendered.json, which Python's jinja2 rendered once
 * from templates written for this project (test/fixtures/jinja2/render.py
 * says how). Each template is written to a file, read as tmas reads a
 * `--prompt` file and rendered by the worker pool as a user's template is.
 * And a built-in template, which is written for trim_blocks and
 * lstrip_blocks, is printed by `tmas prompts` rewritten so that, given back
 * as a user's file, it renders the very prompt the built-in one does.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { RoleTemplate } from '../../machines/role-template.ts';
import { runPromptsCommand } from '../../src/cli/tools/prompts.command.ts';
import { templatedRoles } from '../../src/host/strategy/prompt-templates.ts';
import { readPromptTemplates } from '../../src/settings/files/prompt-files.ts';
import { checkTemplate, sampleVariables } from '../../src/host/strategy/template-check.ts';
import { createPool } from '../../src/pool/pool.ts';
import { renderTemplate } from '../../workers/prompt-template.ts';
import { MAX_RENDER_SECONDS, MAX_RENDERED_CHARS, renderAsJinja2 } from '../../workers/jinja2-render.ts';
import { parseTemplate } from '../../workers/template-whitespace.ts';
import type { TemplateValue } from '../../workers/tasks.ts';
import { REPO, test } from '../fixtures.ts';

interface Case {
  name: string;
  template: string;
  variables: Record<string, TemplateValue>;
  /** What jinja2 rendered; absent where it failed. */
  expected?: string;
  /** Python's message where jinja2 failed: tmas's error holds it. */
  error?: string;
}

const FIXTURES = path.join(REPO, 'test', 'fixtures', 'jinja2', 'rendered.json');

describe("templates render as Python's jinja2 renders them by default", () => {
  test('every fixture: the template read from a file and rendered by the pool gives jinja2\'s bytes', async ({ dir }) => {
    const { cases } = JSON.parse(await readFile(FIXTURES, 'utf8')) as { cases: Case[] };
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const pool = createPool({ threads: 1 });
    try {
      for (const [index, { name, template, variables, expected, error }] of cases.entries()) {
        const file = path.join(dir, `case-${index}.jinja`);
        await writeFile(file, template);
        const read = readPromptTemplates([`synthesis=${file}`]).synthesis?.template ?? '';
        const fitted = await pool.fit({ system: '', parts: [{ id: 'user', template: read, whitespace: 'jinja2', variables }], budget: 100_000 });
        if (error !== undefined) {
          expect(fitted.renderError, name).toContain(error);
          continue;
        }
        expect(fitted.renderError, name).toBeUndefined();
        expect(fitted.user, name).toBe(expected);
      }
    } finally {
      await pool.close();
    }
  });

  test('the same templates rendered as the built-in ones are (trim_blocks and lstrip_blocks on) differ where a line holds only a block tag', async () => {
    const { cases } = JSON.parse(await readFile(FIXTURES, 'utf8')) as { cases: Case[] };
    const pacoreLike = cases.find((c) => c.name === 'a PaCoRe-like synthesis prompt');
    expect(pacoreLike).toBeDefined();
    const { template, variables, expected = '' } = pacoreLike as Case;
    expect(renderTemplate(template, variables, 'jinja2')).toBe(expected);
    // Trimmed, the newline the `{% for %}` line leaves before each of the 3 references is gone, and so is the one the `{% endfor %}` line leaves.
    const trimmed = renderTemplate(template, variables, 'trimmed');
    const newlines = (text: string) => text.split('\n').length - 1;
    expect(newlines(expected) - newlines(trimmed)).toBe(3 + 1);
  });

  test.for(Object.keys(STRATEGIES))("%s: each role's built-in template as `tmas prompts` prints it renders, as a user's, the built-in prompt on every sample", async (strategy) => {
    const definitions = STRATEGIES[strategy]?.definitions ?? {};
    const roles = templatedRoles(STRATEGIES[strategy] as never);
    expect(roles.length).toBeGreaterThan(0);
    for (const role of roles) {
      const builtIn = definitions[role]?.template as unknown as RoleTemplate<never, never>;
      let printed = '';
      runPromptsCommand({ strategy, role }, { stdout: (line) => (printed += `${line}\n`) });
      for (const sample of sampleVariables(builtIn.variables)) {
        expect(renderTemplate(printed, sample, 'jinja2'), `${strategy} ${role}`).toBe(renderTemplate(builtIn.source, sample));
      }
    }
  });
});

describe('what the library renders otherwise than jinja2 is refused before the run, on its line', () => {
  const variables = (STRATEGIES.pacore?.definitions?.synthesis?.template as unknown as RoleTemplate<never, never>).variables;
  // Each was rendered by Python's jinja2 3.1 and by the library on the same values, and the two differed.
  const refused: Array<[string, RegExp]> = [
    // jinja2 reads it as ('Solution ' ~ loop.index0) + 1 and fails on str + int; so does tmas, where it was refused as read otherwise.
    ["{% for r in references %}\n{{ 'Solution ' ~ loop.index0 + 1 }}\n{% endfor %}", /^2: it fails to render on sample values: "\+" between str and int: can only concatenate str \(not "int"\) to str/],
    ['{% for r in references %}{% if loop.index > 2 %}{% break %}{% endif %}{{ r }}{% endfor %}', /^1: "\{% break %\}" needs an extension/],
    ['{{ problem }}\n{% generation %}{{ problem }}{% endgeneration %}', /^2: "\{% generation %\}" is a tag of chat templates/],
    // A chat template's function: jinja2 has none, and the date would change the prompt day by day.
    ["Today is {{ strftime_now('%d %B %Y') }}.\n{{ problem }}", /^1: it fails to render on sample values: 'strftime_now' is undefined: jinja2 fails on a call of an undefined function \(UndefinedError\) \(a chat-template function .*write the date out\)/],
    [' \n\n', /^1: it is empty/],
    // What the library lacks, on a branch the samples do not take: it stopped the run at the first long problem, with "Cannot call something that is not a function".
    ["{{ problem }}\n{% if problem | length > 5000 %}\n{{ problem.casefold() }}\n{% endif %}", /^3: the method "casefold\(\)" is one jinja2 has and @huggingface\/jinja does not/],
    ['{% for r in references %}{% if r | length > 9000 %}{{ r | striptags }}{% endif %}{% endfor %}', /^1: the filter "striptags" is one jinja2 has/],
    ["{% for r in references %}{{ r.cycle('odd', 'even') }}{% endfor %}", /^1: the method "cycle\(\)"/],
    ['{{ problem | default }}', /^1: "default" without an argument/],
    // jinja2 raises on it (transformers' chat templates alone take it); the library wrote escaped JSON regardless.
    ['{{ problem }}\n{{ references | tojson(ensure_ascii=False) }}', /^2: it fails to render on sample values: do_tojson\(\) got an unexpected keyword argument 'ensure_ascii'/],
    // A test's argument is a variable: a misspelt one was read as nothing.
    ["{{ problem }}\n{% if 'x' is in refs %}x{% endif %}", /^2: it reads the variable "refs", which this role does not have/],
    // What jinja2 refuses too: a float times a text, a list too long to loop over.
    ["{{ problem }}\n{{ '-' * 2.5 }}", /^2: it fails to render on sample values: "\*" repeats a text or a list a whole number of times: can't multiply sequence by non-int of type 'float'/],
    ["{{ problem }}\n{% for r in references * 10 ** 6 %}{{ r }}{% endfor %}", /^2: it fails to render on sample values: a list repeated 1,000,000 times/],
    // A format jinja2 fails on fails here too, on its line.
    ["{{ problem }}\n{{ 'score %d' % problem }}", /^2: it fails to render on sample values: "score %d" % …: %d format: a real number is required, not str/],
    // What map, select, reject, unique and reverse give is an iterator: jinja2 prints its address, and cannot count it.
    ["{{ problem }}\n{{ references | map('upper') }}", /^2: it fails to render on sample values: "map" gives an iterator \(a generator\), which jinja2 prints as "<generator object at 0x…>", an address: add "\| list" after it/],
    // A function printed uncalled: the library wrote its JavaScript source into the prompt, jinja2 an address.
    ["{% set sep = joiner(', ') %}{{ problem }}{{ sep }}{{ problem.upper }}", /^1: it fails to render on sample values: a function or method printed without being called/],
    ["{{ problem }}\n{% if references | select | length > 1 %}x{% endif %}", /^2: it fails to render on sample values: "select" gives an iterator \(a generator\), which jinja2 cannot count/],
  ];
  for (const [source, message] of refused) {
    test(JSON.stringify(source), () => {
      const problem = checkTemplate(source, variables);
      expect(problem).not.toBeNull();
      expect(`${problem?.line}: ${problem?.what}`).toMatch(message);
    });
  }

  test('their jinja2-alike forms pass', () => {
    for (const source of ["{{ problem | upper }}", '{{ problem.strip() }}', "{% for r in references %}{{ 'Solution ' ~ (loop.index0 + 1) }}{% endfor %}", '{{ references | join(", ") }}', '{% for r in references if r %}{{ r }}{% endfor %}', '{{ problem.upper() }}{{ problem.split(" ")[0].lower() }}', "{% if references | length > 9 %}{{ raise_exception('too many') }}{% endif %}",
      // Refused before they rendered as jinja2 does (the library ignored the characters and the keywords).
      "{{ problem.strip('#') }}{{ problem.lstrip('\\n') }}{{ problem | trim('#') }}", '{{ problem }}\n\n{{ references | join(", ", attribute="x") }}', '{{ references | tojson(indent=2) }}',
      // Refused before as the library rendered or read them otherwise; now rendered as jinja2 does (test/fixtures/jinja2).
      '{{ problem | capitalize }}', '{{ problem | title }}{{ problem.title() }}', '{{ problem | int }}{{ problem | float(0.5) }}', "{{ problem }}{% for r in references %}{{ loop.cycle('odd', 'even') }}{% endfor %}", "{{ problem | wordcount }}{{ (0.5 | round(2)) ~ (references | map('length') | sum) ~ (references | max) }}{{ '%s.' | format(problem) | e | center(9) | truncate(40) }}", "{{ problem.find('Prove') }}{{ ', '.join(references) }}{{ references.index(references[0]) if references }}", '{{ problem }}\n{% raw %}{{ answer }} or {x}{% endraw %}\n{%+ if references +%}refs{% endif %}', "{{ dict(text=problem) | tojson }}{% set sep = joiner('; ') %}{% for r in references %}{{ sep() }}{{ r }}{% endfor %}",
      // What jinja2 fails on only where it is evaluated, on a branch the values do not take (Seed-OSS's flag): refused before, wherever it stood.
      "{{ problem }}{% if references | length > 100000 %}{{ references | tojson(ensure_ascii=False) }}{{ strftime_now('%Y') }}{% endif %}",
      // Python's methods the library lacked, and the filter count: refused before, wherever they stood.
      "{{ problem.rsplit(' ', 1)[0] }}{{ problem.split(maxsplit=1) }}{% if problem.strip().isdigit() %}{{ problem.rjust(9) }}{% endif %}{{ references | count }}",
      '{% for r in references %}{{ loop.depth }}{{ loop.depth0 }}{% endfor %}{{ references | unique(case_sensitive=true) | join }}',
      "{% set d = {'a': 1} %}{% set _ = d.update(b=problem) %}{{ d.setdefault('c', 0) }}{{ d.pop('a') }}{{ problem.swapcase() if problem.isupper() or problem.istitle() }}{{ problem.startswith('Prove', 1) }}{{ problem.isnumeric() or problem.isalnum() or problem.islower() }}",
      // Llama 3.2's guard: jinja2 has no strftime_now, so its branch never runs and the fixed date is printed, here as there.
      "{% if strftime_now is defined %}{% set date = strftime_now('%d %b %Y') %}{% else %}{% set date = '26 Jul 2024' %}{% endif %}{{ date }}\n{{ problem }}",
      "{% if strftime_now is not defined %}26 Jul 2024{% else %}{{ strftime_now('%d %b %Y') }}{% endif %}\n{{ problem }}", "{% for r in references %}{{ r.split('\\n')[0].capitalize() }}{% endfor %}", '{{ problem }}{% if proof is float %}x{% endif %}', "{{ references | map('upper') | join(', ') }}",
      // jinja2 reads it as ('Attempt ' ~ n) + ':', as the library does; it was refused as read otherwise.
      "{% for r in references %}{{ 'Attempt ' ~ loop.index + ':' }}{% endfor %}{{ problem }}",
      "{{ problem }}{{ '=' * 20 }}{% if references | length < 1e3 and 'x' is not in references %}{{ references | reject('equalto', '') | join }}{% endif %}"]) {
      expect(checkTemplate(source, variables), source).toBeNull();
    }
  });
});

describe("a user's template is bounded in the steps one prompt may take", () => {
  const variables = (STRATEGIES.pacore?.definitions?.synthesis?.template as unknown as RoleTemplate<never, never>).variables;

  test('a loop that would not end in minutes, or a range() of a billion, is refused before the run on its line, in seconds', () => {
    const started = Date.now();
    const nested = checkTemplate('{{ problem }}\n{% for i in range(3000) %}{% for j in range(3000) %}{% endfor %}{% endfor %}', variables);
    expect(`${nested?.line}: ${nested?.what}`).toMatch(/^2: it fails to render on sample values: the template took more than 200,000 steps/);
    const huge = checkTemplate('{{ problem }}\n\n{% for i in range(10 ** 9) %}.{% endfor %}', variables);
    expect(`${huge?.line}: ${huge?.what}`).toMatch(/^3: it fails to render on sample values: "range\(" of 1,000,000,000 numbers/);
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  test('jinja2\'s slice into millions of lists, or batch padded to millions of items, is refused before the lists are made', () => {
    // slice(33000000) of one item made 33 million lists, 4 GB, in 23 s before the clock stopped it; batch's padding overflowed the stack.
    for (const source of ['{{ [1] | slice(33000000) | list | length }}', '{{ [1] | batch(33000000, 0) | list | length }}']) {
      const started = Date.now();
      expect(() => renderTemplate(source, {}, 'jinja2'), source).toThrow(/makes 33,000,000 items, more than a prompt can loop over \(at most 200,000\)/);
      expect(Date.now() - started, source).toBeLessThan(1_000);
    }
    expect(renderTemplate("{{ [1] | batch(3, 0) | list }}{{ [1] | slice(3) | list }}", {}, 'jinja2')).toBe('[[1, 0, 0]][[1], [], []]');
  });

  test('a list doubled in a loop is refused on its line before the run, where it ended the whole process', () => {
    // 40 passes of ns.s + ns.s made a list past what V8 holds: "Fatal JavaScript invalid size error", a native stack trace, the run gone.
    const refused = checkTemplate('{{ problem }}\n{% set ns = namespace(s=[1]) %}{% for i in range(40) %}{% set ns.s = ns.s + ns.s %}{% endfor %}{{ ns.s | length }}', variables);
    expect(`${refused?.line}: ${refused?.what}`).toMatch(/^2: it fails to render on sample values: two lists joined \("\+"\) make 262,144 items, more than a prompt can loop over/);
    expect(renderTemplate('{{ ([1] + [2, 3]) | length }} {{ ((1,) + (2,)) }}', {}, 'jinja2')).toBe('3 (1, 2)');
  });

  test('a loop whose every pass works on millions of characters or items stops in seconds, where it held the worker for hours', () => {
    // 100,000 passes of 30 ms each (a count in 20 million characters; so an upper-casing of them, a comparison of a million items) are within the step bound.
    const sources = [
      "{% set s = 'ab' * 10000000 %}{% for i in range(100000) %}{% if s.count('ba') %}{% endif %}{% endfor %}",
    ];
    // The render's limit of MAX_RENDER_SECONDS lowered to one: each second waited is a second of CPU spun, and what is
    // shown is that the limit stops such a loop at all (without it, the loop ran for hours).
    for (const source of sources) {
      const started = Date.now();
      expect(() => renderAsJinja2(parseTemplate(source, 'jinja2'), {}, 'jinja2', { seconds: 1 }), source).toThrow(/the template ran for more than 1 second for one prompt \([\d,]+ steps\), so it was stopped/);
      expect(Date.now() - started, source).toBeLessThan(MAX_RENDER_SECONDS * 1000);
    }
  });

  test('a text doubled by replace in a loop is refused before it passes the bound on what a render makes, where it held the thread for minutes', () => {
    for (const source of ["{% set ns = namespace(s='xx') %}{% for i in range(40) %}{% set ns.s = ns.s.replace('x', 'xx') %}{% endfor %}{{ ns.s | length }}", "{% set ns = namespace(s='xx') %}{% for i in range(40) %}{% set ns.s = ns.s | replace('x', 'xx') %}{% endfor %}"]) {
      // CPU, not the clock: at a load of 13 the clock read 15.8 s for a refusal that takes 2-3 s of CPU; so the render's
      // own clock limit is set out of reach (a loaded suite met it first), and its CPU is bounded below instead.
      const started = process.cpuUsage();
      expect(() => renderAsJinja2(parseTemplate(source, 'jinja2'), {}, 'jinja2', { seconds: 600 }), source).toThrow(/a replace makes 67,108,864 characters, more than any context window holds/);
      const { user, system } = process.cpuUsage(started);
      expect((user + system) / 1000, source).toBeLessThan(MAX_RENDER_SECONDS * 1000);
    }
  });

  test('a template that makes hundreds of megabytes, by doubling a text or printing one over and over, is refused before the run on its loop\'s line', () => {
    // The doubling made 134 MB that each call counted for minutes, to send nothing; the printing, 36 MB in 180,000 steps.
    const doubled = checkTemplate('{{ problem }}\n{% set ns = namespace(s="x y ") %}{% for i in range(25) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s }}', variables);
    expect(`${doubled?.line}: ${doubled?.what}`).toMatch(/^2: it fails to render on sample values: the template made more than 32 Mi characters/);
    const printed = checkTemplate(`{{ problem }}\n\n{% for i in range(60000) %}{{ '${'x'.repeat(600)}' }}{% endfor %}`, variables);
    expect(`${printed?.line}: ${printed?.what}`).toMatch(/^3: it fails to render on sample values: the template made more than 32 Mi characters/);
    // The template's own text repeated by a loop: 1,000 characters 40,000 times.
    const repeated = checkTemplate(`{{ problem }}\n{% for i in range(40000) %}${'y'.repeat(1_000)}{% endfor %}`, variables);
    expect(`${repeated?.line}: ${repeated?.what}`).toMatch(/^2: it fails to render on sample values: the template made more than 32 Mi characters/);
    // A text just under the bound renders whole.
    expect(renderTemplate('{{ (text ~ text) | length }}', { text: 'x'.repeat(MAX_RENDERED_CHARS / 2) }, 'jinja2')).toBe(String(MAX_RENDERED_CHARS));
  });

  test('a width past the bound (zfill, center, indent, tojson, a printf width or precision) is refused before the padding is made', () => {
    // zfill(400000000) built 381 Mi characters before the bound on what is printed saw them; past 2**29 the engine said "Invalid string length".
    const refused: Array<[string, RegExp]> = [
      ["{{ problem.zfill(400000000) | length }}", /zfill\(400000000\) pads to 400,000,000 characters/],
      ['{{ problem | center(10 ** 9) }}', /center\(1000000000\) pads to/],
      ['{{ problem | indent(10 ** 9) }}', /"indent" pads to/],
      ["{{ ('a\\n' * 1000) | indent(100000) }}", /"indent" of 1,001 lines by 100,000 characters pads to/],
      ['{{ references | tojson(10 ** 8) }}', /"tojson" indenting by 100000000 pads to/],
      ['{{ range(1000) | list | tojson(100000) }}', /"tojson" indenting by 100,000 characters makes more than/],
      ["{{ '%0400000000d' % 1 }}", /a width or precision of 400000000 pads to/],
      ["{{ '%.999999999f' % 1 }}", /a width or precision of 999999999 pads to/],
      // Not a bound but what JavaScript cannot write: Python gives 200 digits, tmas gave 100.
      ["{{ '%.200f' % 1 }}", /a precision of 200 digits: tmas writes at most 100 digits of a float, where jinja2 writes them all/],
    ];
    for (const [source, message] of refused) {
      const started = Date.now();
      expect(() => renderTemplate(source, { problem: 'x', references: ['a'] }, 'jinja2'), source).toThrow(message);
      expect(Date.now() - started, source).toBeLessThan(1_000);
    }
    expect(renderTemplate("{{ '7'.zfill(3) }}|{{ 'ab' | center(6) }}|{{ 'a\\nb' | indent(2) }}|{{ [1] | tojson(1) }}|{{ '%05.1f' % 2.25 }}", {}, 'jinja2')).toBe('007|  ab  |a\n  b|[\n 1\n]|002.2');
  });

  test('an integer result past 2**53 that a float does not hold fails rather than print another number', () => {
    // jinja2 prints 10000000000000001 and 12157665459056928801; a float printed 10000000000000000 and 12157665459056928768.
    for (const source of ['{{ n + 1 }}', '{{ 3 ** 40 }}', '{{ -(n * 10) // 3 }}', '{{ (10 ** 10) ** 10 }}', '{{ 2 ** 64 // 7 }}']) {
      expect(() => renderTemplate(source, { n: 10 ** 16 }, 'jinja2'), source).toThrow(/is an integer past 2\*\*53 \(\d+ digits\) that no float holds, where jinja2's integers are exact/);
    }
    // jinja2 prints 3,011 and 603 digits; the library failed with "Exponentiation result is not a finite real number", and a float product gave inf.
    expect(() => renderTemplate('{{ 2 ** 10000 }}', {}, 'jinja2')).toThrow(/2 \*\* 10000 is an integer past 2\*\*53 \(past a float's range\)/);
    expect(() => renderTemplate('{{ 2 ** 1000 * 2 ** 1000 }}', {}, 'jinja2')).toThrow(/\* \d+ is an integer past 2\*\*53 \(603 digits\) that no float holds/);
  });

  test('an integer literal no float holds fails where it is evaluated, never printed or computed as another number', () => {
    // jinja2 prints 12345678901234567891, 1 and True; a float printed 12345678901234567168 + 1 refused, 0 and False.
    for (const source of ['{{ 12345678901234567890 + 1 }}', '{{ 12345678901234567890 % 7 }}', '{{ 12345678901234567890 > 12345678901234567889 }}', '{{ 9007199254740993 }}', '{{ 0x1fffffffffffffff }}']) {
      expect(() => renderTemplate(source, {}, 'jinja2'), source).toThrow(/the integer `\S+` is past 2\*\*53 and no float holds it \(it would be \d+\)/);
    }
    // Never evaluated, it costs nothing, as in jinja2; and checked before the run it is named on its line.
    expect(renderTemplate('{% if false %}{{ 12345678901234567890 }}{% endif %}ok', {}, 'jinja2')).toBe('ok');
    const problem = checkTemplate('{{ problem }}\n{{ references | length * 12345678901234567890 }}', variables);
    expect(`${problem?.line}: ${problem?.what}`).toMatch(/^2: it fails to render on sample values: the integer `12345678901234567890` is past 2\*\*53/);
  });

  test('a record literal keyed by numbers renders as jinja2 renders it; a key of None fails with what to write instead', () => {
    // Seed-OSS's lookup of a reflection interval; the library said "Object keys must be strings: got IntegerValue", and tmas refused it.
    expect(renderTemplate('{% set d = {0: 0, 512: 128} %}{{ d[512] }} {{ d }} {{ d | tojson }}', {}, 'jinja2')).toBe('128 {0: 0, 512: 128} {"0": 0, "512": 128}');
    const problem = checkTemplate("{{ problem }}\n{% set d = {none: 'yes'} %}{{ d[none] }}", variables);
    expect(`${problem?.line}: ${problem?.what}`).toMatch(/^2: it fails to render on sample values: a record literal \(\{…: …\}\) with None as a key `none`/);
  });

  test('a sum or a range past 2**53 gives Python\'s exact integers or fails, and loop arithmetic stays fast', () => {
    // [2 ** 53, 1] | sum printed 9007199254740992 (jinja2: ...993); range(2 ** 60, 2 ** 60 + 256) gave 2 ** 60 over and over.
    expect(() => renderTemplate('{{ [2 ** 53, 1] | sum }}', {}, 'jinja2')).toThrow(/"sum" is 9007199254740993, an integer past 2\*\*53 that no float holds/);
    expect(renderTemplate('{{ [2 ** 60, 2 ** 60] | sum }}', {}, 'jinja2')).toBe('2305843009213693952');
    expect(() => renderTemplate('{% for i in range(2 ** 60, 2 ** 60 + 256) %}{{ i }}{% endfor %}', {}, 'jinja2')).toThrow(/"range\(" from 1152921504606846976 to .*integers past 2\*\*53 are not held exactly/);
    const started = Date.now();
    const source = '{% for i in range(5000) %}{{ loop.index * 1000 + i // 7 - loop.revindex % 3 }},{% endfor %}';
    expect(renderTemplate(source, {}, 'jinja2').split(',')[4_999]).toBe('5000713');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('wordwrap of a word of 100,000 characters at width 1 takes a second, not a minute; a wrapstring that joins past the bound is refused', () => {
    // Each line cut from the word counted and copied all the word left, a square of its length: 2 million held a worker for hours.
    const started = Date.now();
    expect(renderTemplate("{{ ('a' * 100000) | wordwrap(1) | length }}", {}, 'jinja2')).toBe('199999');
    expect(Date.now() - started).toBeLessThan(5_000);
    // It failed with the engine's "Invalid string length".
    expect(() => renderTemplate("{{ ('a ' * 1000000) | wordwrap(1, wrapstring='x' * 1000) | length }}", {}, 'jinja2')).toThrow(/a wordwrap makes 1,000,999,000 characters, more than any context window holds/);
  });

  test('a str.format whose fields fill past the bound on what a render makes is refused as it fills them', () => {
    // It made all 40 million characters (2,000,000 fields: 191 Mi, 8 s and half a gigabyte) before the bound on the printed text saw them.
    expect(() => renderTemplate("{% set s = ('{0}' * 400000).format('x' * 100) %}{{ s | length }}", {}, 'jinja2')).toThrow(/a str\.format makes more than 33,554,432 characters, more than any context window holds/);
  });

  test('unique of 199,000 items, within the bound on items, takes a second, not minutes', () => {
    // Each item was compared with every key kept: 20,000 took 6 s, 199,000 some ten minutes of a worker.
    const started = Date.now();
    expect(renderTemplate('{{ range(199000) | unique | list | length }}', {}, 'jinja2')).toBe('199000');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('sum(start=[]) of 199,999 lists, within the bound on items, takes a second, not minutes; lists that join past it are refused', () => {
    // Each list was joined onto a copy of all before it, a square of the items: 100,000 lists of one held a worker 63 s.
    const started = Date.now();
    expect(renderTemplate('{{ ([[1]] * 199999) | sum(start=[]) | length }}', {}, 'jinja2')).toBe('199999');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(() => renderTemplate('{{ ([[1, 1]] * 100001) | sum(start=[]) | length }}', {}, 'jinja2')).toThrow(/two lists joined \("\+"\) make 200,002 items/);
  });

  test('find and count in a text of 10 million characters take milliseconds a call', () => {
    // Each call compared a slice at every start, a cost of the text's length times the needle's: 20 finds of a
    // 51-character needle took two minutes. A needle of 501 makes a find or a count some 45 s of CPU that way and
    // 70 ms now: one of each is past the bound on a core four times as fast, where four finds of 51 (6 s each) were not.
    const started = Date.now();
    const needle = "'a' * 500 ~ 'b'";
    const source = `{{ text.find(${needle}) }},{{ text.count(${needle}) }},{{ text.count('aa') }}`;
    expect(renderTemplate(source, { text: 'a'.repeat(10_000_000) }, 'jinja2')).toBe('-1,0,5000000');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('zfill and length of a text of 10 million characters take milliseconds a call', () => {
    // zfill split the text into characters (135 ms a call), length walked it (30 ms): 200 of each took half a minute.
    const started = Date.now();
    const source = '{% for i in range(200) %}{{ text.zfill(3) | length }}{{ text | length }}{% endfor %}';
    expect(renderTemplate(source, { text: 'a'.repeat(10_000_000) }, 'jinja2')).toBe('1000000010000000'.repeat(200));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a template file of 60,000 lines is checked in time linear in its length: its mistake on the last line is named in seconds', () => {
    // Each tag's line was counted from the file's start: 32,000 tags took 7 s, 60,000 about 26 s, a 4 MB file of 290,000 many minutes.
    const lines = '{{ problem }}\n'.repeat(60_000);
    const started = Date.now();
    const unparsed = checkTemplate(`${lines}{% if %}\n`, variables);
    expect(`${unparsed?.line}: ${unparsed?.what}`).toMatch(/^60001: \{% if %\} does not parse/);
    const misspelt = checkTemplate(`${lines}{{ refs }}\n`, variables);
    expect(`${misspelt?.line}: ${misspelt?.what}`).toMatch(/^60001: it reads the variable "refs"/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  test('a template whose loop runs away on a request\'s values only fails that prompt in the pool, which goes on counting', async () => {
    const pool = createPool({ threads: 1 });
    try {
      // Two references on the samples; the loop is as long as the problem's text times a thousand.
      const template = '{% for r in references %}{% for i in range(problem | length * 1000) %}{% endfor %}{{ r }}{% endfor %}';
      const part = { id: 'user', template, whitespace: 'jinja2' as const, variables: { problem: 'x'.repeat(1_000), references: ['a', 'b'] } };
      const fitted = await pool.fit({ system: '', parts: [part], budget: 100_000 });
      expect(fitted.renderError).toMatch(/"range\(" of 1,000,000 numbers/);
      expect(await pool.countTokens(['still counting'])).toEqual([2]);
    } finally {
      await pool.close();
    }
  });

  test('a template within the bound renders as jinja2 does: a thousand records of twenty steps each', () => {
    const records = Array.from({ length: 1_000 }, (_, index) => `record ${index}`);
    const source = "{% for r in references %}{% if r.startswith('record') and loop.index > 0 %}{{ loop.index }}. {{ r | upper }} ({{ r | length }}){% endif %}\n{% endfor %}";
    const rendered = renderTemplate(source, { references: records }, 'jinja2');
    expect(rendered.trimEnd().split('\n')).toHaveLength(1_000);
    expect(rendered.startsWith('1. RECORD 0 (8)\n')).toBe(true);
  });
});
