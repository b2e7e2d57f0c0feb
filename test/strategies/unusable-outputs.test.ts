/**
 * Nothing silent: a role whose outputs cannot be used is counted per role in
 * metrics.json and under the final table, and a role none of whose outputs of
 * an iteration was usable is a warning at the end of the run, a mark in the
 * report and a note beside the method in table1.md. The endpoint is a server
 * of our own in front of the simulator that answers one role's prompt in
 * prose, never in the JSON the role asks for, and counts those answers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runViewCommand } from '../../src/cli/inspect/view.command.ts';
import { criticRole } from '../../machines/strategies/mas-ceo/mas-ceo.roles.ts';
import { parseJsonReply } from '../../machines/reply.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { formatIterationTable } from '../../src/observers/table.ts';
import { unusableOutputWarnings } from '../../src/observers/role-outputs.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import { chatCompletionBody, runCliInProcess, runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

/** How a role's system prompt opens: what the server recognises a call of that role by. */
const DISTILL = 'You are the Distill agent';
const EXPERIENCE = 'You are the Experience agent';

const PROSE = 'The attempt looks sound to me, and I would keep its approach; nothing more to add.';

/** A server in front of `target` that answers the calls whose body holds `marker` (and, when given, `only`) with `reply` (prose unless given); it counts them. */
async function startProseServer(target: string, marker: string, only?: string, reply = PROSE) {
  const answered = { count: 0 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      if (req.url?.endsWith('/chat/completions') && body.includes(marker) && (only === undefined || body.includes(only))) {
        answered.count++;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(chatCompletionBody(reply));
        return;
      }
      void fetch(`${target}${req.url?.replace(/^\/v1/, '') ?? ''}`, { method: req.method ?? 'GET', headers: { 'content-type': 'application/json' }, ...(req.method === 'POST' ? { body } : {}) }).then(async (answer) => {
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(await answer.text());
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { url, answered, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const PROBLEMS = smallProblems(2);
const SMALL = ['--no-proof', '--no-stream', '--model-name', 'tmas-sim', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '0'];
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5, roles: SIM_ROLES });
});
afterAll(async () => {
  await sim.close();
});

async function iterationsOf(run: string): Promise<IterationMetrics[]> {
  return (JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] }).iterations;
}

describe('unusable outputs are counted per role and never silent', () => {
  test('rse whose distiller never gets JSON back: every distill output counted unusable, a warning at the end, a mark in the report', async ({ dir }) => {
    const server = await startProseServer(sim.url, DISTILL);
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const run = path.join(dir, 'rse');
      // rse reads no M: tmas run refuses one given to it.
      const small = SMALL.filter((flag, i) => flag !== '--n-verifications' && SMALL[i - 1] !== '--n-verifications');
      const result = await runCliInProcess(['run', '--strategy', 'rse', '--input-file', input, '--output-file', run, '--base-url', server.url, '--max-iterations', '2', ...small]);
      // An rse that never had a bank is no result of rse: written, and ended at 3 naming the distill role.
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toMatch(/rse: not one output of its distill role could be used.*\[TMAS_RUN_UNGRADED\]/);

      // 2 problems × 2 rollouts × 6 attempts per iteration, each answered in prose by our server.
      const iterations = await iterationsOf(run);
      expect(server.answered.count).toBe(48);
      for (const it of iterations) {
        expect(it.outputsByRole.distill).toMatchObject({ outputs: 24, unusable: 24, retried: 0 });
        expect(it.outputsByRole.rollout).toMatchObject({ outputs: 4, unusable: 0 });
        expect(it.faults.invalidOutputs).toBe(24);
        expect(it.experienceBank).toBe(0);
      }
      expect(result.stdout).toMatch(/Unusable outputs .*distill 48 of 48/s);
      expect(result.stderr).toMatch(/tmas: warning: every output of the distill role was unusable in iterations 0-1 \(48 outputs; e\.g\. "[^"]*JSON[^"]*"\)/);
      // The warning is the last thing said before the error: after the table, not scrolled away above it.
      expect(result.stderr.trimEnd().split('\n').at(-2)).toMatch(/distill role was unusable/);

      const lines: string[] = [];
      await runReportCommand([run], { format: 'md' }, { stdout: (line) => lines.push(line) });
      const markdown = lines.join('\n');
      expect(markdown).toMatch(/^\| rse \(simulated\) ⚠ \|/m);
      expect(markdown).toContain('> ⚠ rse: every output of the distill role was unusable in iterations 0-1');
      const html = path.join(dir, 'report.html');
      await runReportCommand([run], { format: 'html', out: html }, { stdout: () => {} });
      expect(await readFile(html, 'utf8')).toMatch(/<span class="bad unusable">⚠ every output of the distill role was unusable in iterations 0-1/);
      // The viewer's errors tab lists each of them: the distiller is not asked again by its role, so its reason is only its reply's parseError.
      const viewer = await runViewCommand([run], { port: 0 });
      try {
        const page = (await (await fetch(`${viewer.url}api/runs/0/messages?type=errors&limit=500`)).json()) as { messages: Array<{ message: { type: string; parseError?: string } }> };
        const distill = page.messages.filter(({ message }) => message.type === 'distill.completed');
        expect(distill).toHaveLength(48);
        expect(distill.every(({ message }) => typeof message.parseError === 'string')).toBe(true);
      } finally {
        await viewer.close();
      }
    } finally {
      await server.close();
    }
  });

  test("tmas whose experience agent answers one problem in prose: the role machine's retries and its final reply each count once; more than 10% unusable is a warning with the share", async ({ dir }) => {
    const server = await startProseServer(sim.url, EXPERIENCE, PROBLEMS[0]?.question);
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const outcome = await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'tmas'), '--base-url', server.url, '--max-iterations', '1', ...SMALL]);
      // p1: the call and its 2 parse retries, all prose; p2: one good reply.
      expect(server.answered.count).toBe(3);
      const [it] = outcome.iterations;
      expect(it?.outputsByRole.experience).toMatchObject({ outputs: 4, unusable: 3, retried: 2 });
      expect(it?.outputsByRole.guideline).toMatchObject({ outputs: 2, unusable: 0 });
      expect(it?.faults).toMatchObject({ parseRetries: 2, invalidOutputs: 1 });
      // The viewer's errors tab shows each unusable attempt once: the last one's output.invalid, not again its reply's parseError.
      const viewer = await runViewCommand([path.join(dir, 'tmas')], { port: 0 });
      try {
        const page = (await (await fetch(`${viewer.url}api/runs/0/messages?type=errors&limit=500`)).json()) as { messages: Array<{ message: { type: string } }> };
        expect(page.messages.map(({ message }) => message.type).filter((type) => type.startsWith('experience') || type === 'output.invalid')).toEqual(['output.invalid', 'output.invalid', 'output.invalid']);
      } finally {
        await viewer.close();
      }
      const [warning, ...more] = unusableOutputWarnings(outcome.iterations);
      expect(more).toEqual([]);
      expect(warning).toMatch(/^tmas: warning: 3 of 4 outputs \(75%\) of the experience role were unusable in iteration 0 \(e\.g\. "[^"]+"\): more than the 10% warned of/);
      // Under a share it does not pass, no warning.
      expect(unusableOutputWarnings(outcome.iterations, 'DIR', 0.75)).toEqual([]);
      expect(formatIterationTable(outcome.iterations, { simulated: true })).toMatch(/Unusable outputs .*experience 3 of 4 \(2 asked again\)/s);
      expect(formatIterationTable(outcome.iterations, { simulated: true, wide: true })).toMatch(/unusable/);
    } finally {
      await server.close();
    }
  });

  test('bank updates written as a JSON object between prose and LaTeX braces, unfenced, are used, not counted unusable', async ({ dir }) => {
    const experience = 'With $\\frac{1}{2}$ and the set $\\{1, 2\\}$ in mind, the update is\n{"conclusions": [{"text": "x = 1/2 satisfies {the} constraint"}], "pitfalls": []}\nThat is all: {nothing else}.';
    const distill = 'Checking $x^{2}$ first.\n{"verified_propositions": ["x^2 >= 0 for real x. (Source: squares)"], "critical_pitfalls": []} {}';
    const tmasServer = await startProseServer(sim.url, EXPERIENCE, undefined, experience);
    const rseServer = await startProseServer(sim.url, DISTILL, undefined, distill);
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const tmas = await runInProcess(['--input-file', input, '--output-file', path.join(dir, 'tmas'), '--base-url', tmasServer.url, '--max-iterations', '1', ...SMALL]);
      expect(tmasServer.answered.count).toBe(2);
      expect(tmas.iterations[0]?.outputsByRole.experience).toMatchObject({ outputs: 2, unusable: 0 });
      expect(tmas.iterations[0]?.experienceBank).toBeGreaterThan(0);
      const small = SMALL.filter((flag, i) => flag !== '--n-verifications' && SMALL[i - 1] !== '--n-verifications');
      const rse = await runInProcess(['--strategy', 'rse', '--input-file', input, '--output-file', path.join(dir, 'rse'), '--base-url', rseServer.url, '--max-iterations', '1', ...small]);
      expect(rseServer.answered.count).toBe(4);
      expect(rse.iterations[0]?.outputsByRole.distill).toMatchObject({ outputs: 4, unusable: 0 });
      expect(rse.iterations[0]?.experienceBank).toBeGreaterThan(0);
    } finally {
      await tmasServer.close();
      await rseServer.close();
    }
  });

  test('a JSON object left open gives up none of its items as the update; braces that are not JSON are passed over', () => {
    expect(() => parseJsonReply('{"conclusions": [{"text": "a"}, {"text": "b"}')).toThrow(SyntaxError);
    expect(parseJsonReply('Set {"a"} aside; {"guidelines": []} and then {}')).toEqual({ guidelines: [] });
  });

  test('table1.md marks a method a role of which gave no usable output, with a note saying which and where', async ({ dir }) => {
    const server = await startProseServer(sim.url, DISTILL);
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const out = path.join(dir, 'table1');
      const result = await runCliInProcess(['table1', '--strategies', 'rse', '--input-file', input, '--output-file', out, '--base-url', server.url, '--max-iterations', '1', ...SMALL]);
      // Its column is no result of rse: written, and the command ends at 3 as for a column without a figure.
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toMatch(/rse: not one output of its distill role could be used.*\[TMAS_TABLE_UNGRADED\]/);
      const table = await readFile(path.join(out, 'table1.md'), 'utf8');
      expect(table).toMatch(/^\| iteration \| rse ⚠ \|$/m);
      expect(table).toMatch(/^- ⚠ rse: every output of the distill role was unusable in iteration 0 \(24 outputs/m);
      expect(result.stderr).toMatch(/tmas: warning: rse: every output of the distill role was unusable in iteration 0/);
    } finally {
      await server.close();
    }
  });

  test("a MAS-TTS critic that states no decision is an unusable output, not a silent disagreement", () => {
    const request = { type: 'critic.requested' as const, run: 'r', problem: 'p', iteration: 0, correlation: 'c', turn: 0, critic: 0, question: 'Q', expert: 'E', solution: 'S', budget: 4096 };
    const output = (content: string) => ({ ok: true as const, request, key: 'k', content, reasoning: null, finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 }, promptTokens: 1, budget: 100, dropped: [] });
    expect(criticRole.reply(request, output('Looks fine.'))).toMatchObject({ agree: false, parseError: expect.stringMatching(/Decision/) });
    expect(criticRole.reply(request, output('Checked.\nDecision: agree'))).not.toHaveProperty('parseError');
    expect(criticRole.reply(request, output('Checked.\nDecision: agree'))).toMatchObject({ agree: true });
  });
});
