/**
 * `tmas run --prompt ROLE=FILE`: a role's user message from a Jinja template
 * file. Checked against a server of our own that logs every request: a
 * paper-style PaCoRe template is sent as its byte-exact rendering; every
 * role's built-in template, saved from `tmas prompts`, sends the very prompts
 * of the built-in run; a template that cannot work stops the run with exit 2
 * before any request; a changed template is a changed call on resume.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect } from 'vitest';
import { STRATEGIES } from '../../machines/strategies/index.ts';
import type { MessageOf } from '../../src/kernel/protocol.ts';
import { runPromptsCommand } from '../../src/cli/tools/prompts.command.ts';
import { templatedRoles } from '../../src/host/strategy/prompt-templates.ts';
import { readRunManifest } from '../../src/host/run/run-manifest.ts';
import { createPool } from '../../src/pool/pool.ts';
import { Store } from '../../src/store/store.ts';
import { chatCompletionBody, readJournal, readLog, REPO, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** A synthesis template laid out as papers print theirs (our own words): the problem, then the numbered solutions, by a for-loop. */
const PAPER_TEMPLATE = `{#- Synthesis prompt in a paper's layout: the problem, then every proposed solution, numbered. -#}
You are given a problem and {{ references | length }} solutions proposed by other solvers.

## Problem
{{ problem }}

## Proposed solutions
{% for reference in references %}
### Solution {{ loop.index }}
{{ reference }}

{% endfor %}
Compare the proposed solutions, settle where they disagree, and write a complete solution of your own. End with the final answer in \\boxed{}.
`;

/**
 * What the template above renders, written out by hand: as Python's jinja2 renders it by default, each line
 * that holds only a `{% for %}` or `{% endfor %}` leaves its newline, and the file's final newline is dropped.
 */
function paperPrompt(problem: string, references: string[]): string {
  const solutions = references.map((text, i) => `\n### Solution ${i + 1}\n${text}\n\n`).join('');
  return (
    `You are given a problem and ${references.length} solutions proposed by other solvers.\n\n## Problem\n${problem}\n\n## Proposed solutions\n${solutions}` +
    '\nCompare the proposed solutions, settle where they disagree, and write a complete solution of your own. End with the final answer in \\boxed{}.'
  );
}

interface LoggedRequest {
  path: string;
  messages: Array<{ role: string; content: string }>;
}

/** An OpenAI-compatible server that logs every request and answers each with a text that depends only on the request, its reasoning inline, a blank line after it. */
async function startLoggingServer(): Promise<{ url: string; requests: LoggedRequest[]; close: () => Promise<void> }> {
  const requests: LoggedRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      const parsed = body === '' ? {} : (JSON.parse(body) as { messages?: LoggedRequest['messages'] });
      requests.push({ path: req.url ?? '', messages: parsed.messages ?? [] });
      if (req.url?.endsWith('/models')) return res.end(JSON.stringify({ object: 'list', data: [{ id: 'paper-model', object: 'model', owned_by: 'test' }] }));
      const user = parsed.messages?.at(-1)?.content ?? '';
      const digest = createHash('sha256').update(user).digest('hex').slice(0, 8);
      res.end(chatCompletionBody(`<think>scratch ${digest}</think>\n\nReply ${digest}: so the answer is \\boxed{${user.length % 5}}.`, { model: 'paper-model' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const chats = (requests: LoggedRequest[]) => requests.filter((request) => request.path.endsWith('/chat/completions'));

async function manifestOf(dir: string) {
  const store = await Store.open(dir);
  try {
    return await readRunManifest(store);
  } finally {
    await store.close();
  }
}

describe('prompt templates from files', () => {
  let server: { close: () => Promise<void> } | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  test('a paper-style PaCoRe synthesis template: every request after round 0 is its byte-exact rendering; round 0 the problem alone', async ({ dir }) => {
    const logging = await startLoggingServer();
    server = logging;
    const problems = smallProblems(2);
    const input = await writeProblems(dir, problems);
    const template = path.join(dir, 'synthesis.jinja');
    await writeFile(template, PAPER_TEMPLATE);
    const output = path.join(dir, 'run');
    const endpoint = ['--base-url', logging.url, '--model-name', 'paper-model', '--no-stream'];
    await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'pacore', '--no-proof', '--max-iterations', '2', '--round-widths', '3,2', ...endpoint, '--prompt', `synthesis=${template}`]);

    const sent = chats(logging.requests);
    expect(sent).toHaveLength(2 * (3 + 2));
    const log = (await readLog(output)).map((envelope) => envelope.message);
    for (const problem of problems) {
      const round0 = sent.filter((request) => request.messages.length === 1 && request.messages[0]?.content === problem.question);
      expect(round0).toHaveLength(3);
      const asked = log.filter((m): m is MessageOf<'synthesis.requested'> => m.type === 'synthesis.requested' && m.problem === problem.problem_id && m.iteration === 1);
      expect(asked).toHaveLength(2);
      // The references PaCoRe gives: the round-0 replies after their </think> as they came, the blank line included, as upstream reads them.
      const references = asked[0]?.references ?? [];
      expect(references).toHaveLength(3);
      expect(references.every((text) => text.startsWith('\n\nReply '))).toBe(true);
      const expected = paperPrompt(problem.question, references);
      const round1 = sent.filter((request) => request.messages.some((message) => message.content.includes(`## Problem\n${problem.question}\n`)));
      expect(round1).toHaveLength(2);
      // No system message, as upstream; the user message is the rendering, byte for byte.
      for (const request of round1) expect(request.messages).toEqual([{ role: 'user', content: expected }]);
    }
    const manifest = await manifestOf(output);
    const digest = `sha256:${createHash('sha256').update(PAPER_TEMPLATE).digest('hex')}`;
    expect(manifest?.config.loop.prompts.synthesis).toEqual({ file: template, sha256: digest, template: PAPER_TEMPLATE });
    // The evaluation block a reader of metrics.json and the report sees names the template by its digest.
    const evaluation = JSON.parse(await readFile(path.join(output, 'metrics.json'), 'utf8')).evaluation;
    expect(evaluation.prompts).toEqual({ synthesis: digest });
  });

  test.for(Object.keys(STRATEGIES))('%s: every role\'s template as `tmas prompts` prints it, given back with --prompt, sends the built-in prompts', async (strategy, { dir }) => {
    // One problem shows every role's prompts but Self-Refine's rewrite, which its critique asks for on the second; majority's
    // 64 samples of each problem by default are 64 prompts alike.
    const input = await writeProblems(dir, smallProblems(strategy === 'self-refine' ? 2 : 1));
    const width = strategy === 'majority' ? ['--samples', '8'] : ['--n-candidates', '2', '--n-verifications', '1'];
    const flags = ['--input-file', input, '--strategy', strategy, '--no-proof', ...width, '--max-iterations', '2', '--seed', '4', '--sim-output-tokens', '80'];
    const prompts: string[] = [];
    for (const role of templatedRoles(STRATEGIES[strategy] as never)) {
      let printed = '';
      runPromptsCommand({ strategy, role }, { stdout: (line) => (printed += `${line}\n`) });
      const file = path.join(dir, `${role}.jinja`);
      await writeFile(file, printed);
      prompts.push('--prompt', `${role}=${file}`);
    }
    expect(prompts.length).toBeGreaterThan(0);
    await runInProcess([...flags, '--output-file', path.join(dir, 'built-in')]);
    await runInProcess([...flags, '--output-file', path.join(dir, 'files'), ...prompts]);
    const requests = async (run: string) =>
      (await readJournal(path.join(dir, run))).map((call) => JSON.stringify([call.problem, call.iteration, call.role, call.index, call.request.messages, call.request.maxTokens])).sort();
    const builtIn = await requests('built-in');
    expect(builtIn.length).toBeGreaterThan(0);
    // Every role given a template made calls: none is compared vacuously.
    const called = new Set((await readJournal(path.join(dir, 'built-in'))).map((call) => call.role));
    expect(templatedRoles(STRATEGIES[strategy] as never).filter((role) => !called.has(role))).toEqual([]);
    expect(await requests('files')).toEqual(builtIn);
    expect(await readFile(path.join(dir, 'files', 'results.jsonl'), 'utf8')).toBe(await readFile(path.join(dir, 'built-in', 'results.jsonl'), 'utf8'));
  });

  test('a template that cannot work stops the run with exit 2 before any request, naming the file and line, or the roles', async ({ dir }) => {
    const logging = await startLoggingServer();
    server = logging;
    const input = await writeProblems(dir, smallProblems(1));
    const write = async (name: string, text: string) => {
      const file = path.join(dir, name);
      await writeFile(file, text);
      return file;
    };
    const unclosed = await write('unclosed.jinja', '{{ problem }}\n\n{% for reference in references %}\n{{ reference }}\n{% endif %}\n');
    const misspelt = await write('misspelt.jinja', 'Problem:\n{{ problem }}\n\n{% for r in refs %}{{ r }}{% endfor %}\n');
    const broken = await write('broken.jinja', 'Problem:\n{{ problem }}\nSolutions: {{ references | join(", ") + }}\n');
    // A rollout's text is left out when the prompt does not fit: absent, tojson fails on it (in jinja2 too) unless the template tests it.
    // (`| trim` of it is '' in jinja2, and now here: it failed before.)
    const unguarded = await write('unguarded.jinja', '{{ problem }}\n{% for r in rollouts %}\n{{ r.text | tojson }}\n{% endfor %}\n');
    // A field a record lacks rendered as nothing in every prompt (the summaries were asked about verifications without their analyses).
    const misfield = await write('misfield.jinja', '{{ problem }}\n{% for v in verifications %}\nScore {{ v.score }}:\n{{ v.analsis }}\n{% endfor %}\n');
    // A paper's prompt as its Python code writes it: Jinja sent "{problem}" as it stands, and the run graded answers to no problem.
    const formatted = await write('formatted.txt', 'Solve the problem below.\n\nProblem: {problem}\n\nPut the final answer in \\boxed{}, e.g. $x^{n}$.\n');
    const escaped = await write('escaped.txt', 'Problem: {{ problem }}\n\nPut the final answer in \\boxed{{}}.\n');
    const constant = await write('constant.jinja', 'Solve the problem and put the final answer in \\boxed{}.\n');
    const latin1 = path.join(dir, 'latin1.jinja');
    await writeFile(latin1, Buffer.from('Probl\xe8me : {{ problem }}\n', 'latin1'));
    const run = (strategy: string, prompt: string) =>
      runCliInProcess(['run', '--input-file', input, '--output-file', path.join(dir, 'out'), '--strategy', strategy, '--base-url', logging.url, '--model-name', 'paper-model', '--no-stream', '--no-proof', '--prompt', prompt]);

    const cases: Array<[string, string, RegExp]> = [
      ['pacore', `synthesis=${unclosed}`, new RegExp(`${unclosed}:5: .*"\\{% endif %\\}" closes the "\\{% for %\\}" of line 3`)],
      ['pacore', `synthesis=${misspelt}`, new RegExp(`${misspelt}:4: .*reads the variable "refs", which this role does not have.*variables: problem, proof, references`)],
      ['pacore', `synthesis=${broken}`, new RegExp(`${broken}:3: .*does not parse`)],
      ['tmas', `synthesis=${unclosed}`, /the tmas strategy has no synthesis role\. The tmas strategy's roles with a template: solution, verification, summary, experience, guideline\./],
      ['tmas', `judge=${misspelt}`, /the judge's prompt is part of the shared grading/],
      ['pacore', `synthesis=${path.join(dir, 'absent.jinja')}`, /absent\.jinja .*cannot be read: ENOENT/],
      ['tmas', `solution=${unguarded}`, new RegExp(`${unguarded}:3: .*it fails to render on sample values: .*tojson.*test it with \`is defined\``)],
      ['tmas', `summary=${misfield}`, new RegExp(`${misfield}:4: .*it reads v\\.analsis, a field its record does not have \\(its fields: index, score, analysis\\)`)],
      ['tmas', `solution=${formatted}`, new RegExp(`${formatted}:3: .*"\\{problem\\}" is a placeholder of Python's str\\.format, which a Jinja template sends as it stands.*write "\\{\\{ problem \\}\\}"`)],
      ['tmas', `solution=${escaped}`, new RegExp(`${escaped}:3: .*\\{\\{\\}\\} does not parse: .*Python's str\\.format writes "\\{\\}" so`)],
      ['tmas', `solution=${constant}`, new RegExp(`${constant}:1: .*it reads none of the role's variables, so every call of the role would send the same message`)],
      ['pacore', `synthesis=${latin1}`, /latin1\.jinja .*cannot be read: it is not UTF-8 text \(save it as UTF-8\)/],
      ['pacore', `synthesis=${dir}`, /cannot be read: it is a directory/],
    ];
    for (const [strategy, prompt, message] of cases) {
      const result = await run(strategy, prompt);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).toMatch(/\[TMAS_PROMPT\]/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect(logging.requests).toEqual([]);
    expect(existsSync(path.join(dir, 'out'))).toBe(false);
  });

  test('a template that fails only on the values of a request stops the run with exit 2 and that request is never sent', async ({ dir }) => {
    const logging = await startLoggingServer();
    server = logging;
    const input = await writeProblems(dir, smallProblems(1));
    const template = path.join(dir, 'synthesis.jinja');
    // The sample values tried before the run pass the `if`; a real problem reaches a text added to a number, which jinja2 refuses too.
    await writeFile(template, "{% if problem.startswith('(') %}{{ problem }}{% else %}{{ 'References: ' + references | length }}{% endif %}\n");
    const output = path.join(dir, 'out');
    const args = ['run', '--input-file', input, '--output-file', output, '--strategy', 'pacore', '--no-proof', '--max-iterations', '2', '--round-widths', '2'];
    const result = await runCliInProcess([...args, '--base-url', logging.url, '--model-name', 'paper-model', '--no-stream', '--prompt', `synthesis=${template}`]);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`The template ${template} \\(--prompt synthesis=…\\) failed to render for problem p1, iteration 1: .*\\[TMAS_PROMPT\\]`));
    // Round 0 (the problem alone) was sent; no round-1 request was.
    expect(chats(logging.requests).map((request) => request.messages[0]?.content)).toEqual([smallProblems(1)[0]?.question, smallProblems(1)[0]?.question]);
  });

  test('on resume the manifest\'s template answers every call from the journal; another template is refused without --force, and with it only its calls are sent again', async ({ dir }) => {
    const logging = await startLoggingServer();
    server = logging;
    const problems = smallProblems(2);
    const input = await writeProblems(dir, problems);
    const first = path.join(dir, 'first.jinja');
    const second = path.join(dir, 'second.jinja');
    await writeFile(first, PAPER_TEMPLATE);
    await writeFile(second, PAPER_TEMPLATE.replace('## Problem', '## The problem'));
    const output = path.join(dir, 'run');
    const endpoint = ['--base-url', logging.url, '--model-name', 'paper-model', '--no-stream'];
    // The run resumed below, started in this process: what is asserted of the command is what its resumes do.
    await runInProcess(['--input-file', input, '--output-file', output, '--strategy', 'pacore', '--no-proof', '--max-iterations', '2', '--round-widths', '3,2', ...endpoint, '--prompt', `synthesis=${first}`]);
    const sentFirst = chats(logging.requests).length;
    expect(sentFirst).toBe(10);

    // The template is kept in the manifest: a resume renders it even with the file gone.
    await writeFile(first, 'changed since the run started\n');
    const same = await runCliInProcess(['run', '--resume', output, ...endpoint]);
    expect(same.code, same.stderr).toBe(0);
    expect(chats(logging.requests).length).toBe(sentFirst);

    const refused = await runCliInProcess(['run', '--resume', output, ...endpoint, '--prompt', `synthesis=${second}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--prompt: the run has \{"synthesis":"sha256:[0-9a-f]{64}"\}, this command gives \{"synthesis":"sha256:[0-9a-f]{64}"\}.*\[TMAS_RESUME_CONFLICT\]/);

    const forced = await runCliInProcess(['run', '--resume', output, ...endpoint, '--prompt', `synthesis=${second}`, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const resent = chats(logging.requests).slice(sentFirst);
    // Round 0 sends the problem alone, untouched by the template: answered from the journal. Round 1's two calls per problem are new.
    expect(resent).toHaveLength(4);
    expect(resent.every((request) => request.messages[0]?.content.includes('## The problem\n'))).toBe(true);
    expect((await manifestOf(output))?.config.loop.prompts.synthesis?.sha256).toBe(`sha256:${createHash('sha256').update(await readFile(second)).digest('hex')}`);
  });

  test('references that do not fit the window are left out of the variables, the last first, and the template is rendered again', async () => {
    const pool = createPool({ threads: 1 });
    try {
      const long = (n: number) => Array.from({ length: 300 }, (_, i) => `word${(i * n) % 41}`).join(' ');
      const references = [long(1), long(2), long(3), long(5)];
      const part = {
        id: 'user',
        template: PAPER_TEMPLATE,
        whitespace: 'jinja2' as const,
        variables: { problem: 'What is 2 + 2?', references },
        drops: references.map((_, index) => ({ id: `reference-${index + 1}`, path: ['references', index], drop: references.length - 1 - index })),
      };
      const whole = await pool.fit({ system: '', parts: [part], budget: 100_000 });
      expect(whole.user).toBe(paperPrompt('What is 2 + 2?', references));
      expect(whole.dropped).toEqual([]);
      const fitted = await pool.fit({ system: '', parts: [part], budget: Math.floor(whole.promptTokens * 0.6) });
      expect(fitted.dropped).toEqual(['reference-4', 'reference-3']);
      // A consistent prompt: two solutions, counted and numbered as two.
      expect(fitted.user).toBe(paperPrompt('What is 2 + 2?', references.slice(0, 2)));
      expect(fitted.promptTokens).toBeLessThanOrEqual(Math.floor(whole.promptTokens * 0.6));
    } finally {
      await pool.close();
    }
  });

  test('tmas table1 gives each method the templates of its roles, and refuses a role none of them has before running any', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const template = path.join(dir, 'synthesis.jinja');
    await writeFile(template, PAPER_TEMPLATE);
    const out = path.join(dir, 'table1');
    const args = ['table1', '--input-file', input, '--output-file', out, '--strategies', 'majority,pacore', '--no-proof', '--n-candidates', '2', '--max-iterations', '2', '--samples', '2', '--judge-passes', '0'];
    const refused = await runCliInProcess([...args, '--prompt', `rewrite=${template}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/none of the strategies has a rewrite role\. Their roles with a template: majority: solution; pacore: synthesis\./);
    expect(existsSync(out)).toBe(false);

    const ran = await runCliInProcess([...args, '--prompt', `synthesis=${template}`]);
    expect(ran.code, ran.stderr).toBe(0);
    expect((await manifestOf(path.join(out, 'pacore')))?.config.loop.prompts.synthesis?.file).toBe(template);
    expect((await manifestOf(path.join(out, 'majority')))?.config.loop.prompts).toEqual({});
  });

  test('docs/extending/prompts.md names every role that has a template, with its strategies and variables', async () => {
    const page = await readFile(path.join(REPO, 'docs', 'extending', 'prompts.md'), 'utf8');
    for (const [name, strategy] of Object.entries(STRATEGIES)) {
      for (const role of templatedRoles(strategy)) {
        const row = new RegExp(`^\\| \`${role}\` \\| ([^|]+) \\| ([^|]+) \\|$`, 'm').exec(page);
        expect(row, `the row of the ${role} role`).not.toBeNull();
        expect(row?.[1]?.split(', ').map((s) => s.trim())).toContain(name);
        const variables = Object.keys(strategy.definitions?.[role]?.template?.variables ?? {}).filter((v) => v !== 'problem' && v !== 'proof');
        expect((row?.[2] ?? '').split(', ').map((v) => v.trim().replaceAll('`', ''))).toEqual(variables);
      }
    }
  });

  test('tmas prompts prints each role with its variables; a role the strategy lacks is exit 2 listing its roles', async () => {
    const all = await runCliInProcess(['prompts', '--strategy', 'tmas']);
    expect(all.code, all.stderr).toBe(0);
    for (const role of ['solution', 'verification', 'summary', 'experience', 'guideline']) expect(all.stdout).toContain(`The ${role} role of tmas: its user message`);
    expect(all.stdout).toMatch(/^ {4}rollouts {4}list of \{candidate: integer, answer: string, score: string, summary: string, text: string \(absent when left out to fit\)\}$/m);
    const missing = await runCliInProcess(['prompts', '--strategy', 'pacore', '--role', 'solution']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/the pacore strategy has no solution role with a template\. Its roles with a template: synthesis\./);
  });
});
