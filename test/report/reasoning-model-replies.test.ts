/**
 * Runs against a server that answers like a real reasoning model
 * (test/report/reasoning-model-server.ts), not in each role's format as our
 * simulator does: what each method reads from such replies is what they say,
 * and what it cannot read is counted, never taken for a result.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { SIM_ROLES } from '../../machines/strategies/sim-roles.ts';
import type { IterationMetrics } from '../../src/observers/metrics.ts';
import { startSimServer, type SimServer } from '../../src/sim/server.ts';
import { ofType, readLog, runCliInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';
import { startReasoningModelServer, type KindShares } from './reasoning-model-server.ts';

const PROBLEMS = smallProblems(2);
let sim: SimServer;

beforeAll(async () => {
  sim = await startSimServer({ problems: PROBLEMS.map((p) => ({ id: p.problem_id, question: p.question, answer: p.answer })), seed: 5, roles: SIM_ROLES });
});
afterAll(async () => {
  await sim.close();
});

/** One `tmas run` of `strategy` (one iteration, graded by the rule) against a reasoning-model server answering as `shares` draws; its directory and the replies sent. */
/** `ends`: the exit code the run is to end with (3 where a role of its own used none of its outputs: no result of its method). */
async function runAgainst(dir: string, strategy: string, shares: KindShares, flags: string[], ends = 0) {
  const server = await startReasoningModelServer(sim.url, shares);
  try {
    const input = await writeProblems(dir, PROBLEMS);
    const run = path.join(dir, strategy);
    const common = ['--no-proof', '--model-name', 'm', '--max-iterations', '1', '--judge-passes', '0', '--parse-retries', '0'];
    const result = await runCliInProcess(['run', '--strategy', strategy, '--input-file', input, '--output-file', run, '--base-url', server.url, ...common, ...flags]);
    expect(result.code, result.stderr).toBe(ends);
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: IterationMetrics[] };
    return { run, sent: server.sent, outputsByRole: metrics.iterations[0]?.outputsByRole ?? {} };
  } finally {
    await server.close();
  }
}

describe('a reasoning model that answers out of the format asked', () => {
  test('a verification scored out of 10 is read on its scale when it names it, and counted unusable when it does not, never as fully correct', async ({ dir }) => {
    const { run, sent, outputsByRole } = await runAgainst(dir, 'tmas', { 'other-scale': 1 }, ['--n-candidates', '2', '--n-verifications', '2']);
    const verifications = ofType((await readLog(run)).map((envelope) => envelope.message), 'verification.completed');
    expect(verifications.length).toBe(8);
    let bare = 0;
    for (const verification of verifications) {
      const grade = /SCORE: (\d+)(\/10)?$/.exec(verification.analysis);
      expect(grade, verification.analysis).not.toBeNull();
      // Before: 9/10 and 3/10 (an error found) alike read as 1, fully correct, and a bare 3 as 1 too.
      if (grade?.[2] === '/10') expect(verification.score).toBeCloseTo(Number(grade[1]) / 10, 9);
      else {
        expect(verification.score).toBeNull();
        bare++;
      }
    }
    expect(sent.filter((reply) => reply.role === 'verification' && reply.kind === 'other-scale').length).toBe(8);
    // Before: 0 of 8 unusable.
    expect(outputsByRole.verification).toMatchObject({ outputs: 8, unusable: bare });
  });

  test("a verify-refine rating boxed out of 10 is no score, counted unusable, never a mean of 9 that outranks every proof rated 1", async ({ dir }) => {
    // Every rating unusable: the run is no result of verify-refine, which ends it at 3 (TMAS_RUN_UNGRADED), outputs written.
    const { run, sent, outputsByRole } = await runAgainst(dir, 'verify-refine', { 'other-scale': 1 }, ['--n-candidates', '2', '--n-verifications', '2'], 3);
    const ratings = ofType((await readLog(run)).map((envelope) => envelope.message), 'rater.completed');
    const outOfTen = sent.filter((reply) => reply.role === 'rater' && /\\boxed\{[39]\}$/.test(reply.content));
    expect(outOfTen.length).toBeGreaterThan(0);
    expect(ratings.length).toBe(outOfTen.length);
    // Before: each read as 9 or 3, and none counted unusable.
    expect(ratings.map((rating) => rating.score)).toEqual(ratings.map(() => null));
    expect(outputsByRole.rater).toMatchObject({ outputs: ratings.length, unusable: ratings.length });
  });

  test('a bank update written as JSON in a code fence with a comment after it is read, not counted unusable', async ({ dir }) => {
    const { sent, outputsByRole } = await runAgainst(dir, 'rse', { 'fenced-json-comment': 1 }, ['--n-candidates', '2']);
    const fenced = sent.filter((reply) => reply.role === 'distill' && reply.kind === 'fenced-json-comment');
    expect(fenced.length).toBeGreaterThan(0);
    expect(fenced.every((reply) => /```json\n\{[\s\S]*\}\n\/\/ [^\n]*\n```\n$/.test(reply.content))).toBe(true);
    // The simulator's own malformed replies (its upstream-retry case, sent as they came) are unusable, and only they.
    const asCame = sent.filter((reply) => reply.role === 'distill' && reply.kind === 'intact').length;
    // Before: every fenced one unusable too ("Unexpected non-whitespace character after JSON"), the bank left as it was.
    expect(outputsByRole.distill).toMatchObject({ outputs: fenced.length + asCame, unusable: asCame });
  });

  test("each column's budget says how many of its replies and of the judge's were cut at their limit, as the server sent them", async ({ dir }) => {
    const server = await startReasoningModelServer(sim.url, { 'unclosed-think': 0.25 }, 2);
    try {
      const input = await writeProblems(dir, PROBLEMS);
      const out = path.join(dir, 'table');
      const endpoints = ['--base-url', server.url, '--model-name', 'm', '--judge-base-url', server.url, '--judge-model-name', 'm'];
      const result = await runCliInProcess(['table1', '--strategies', 'tmas', '--input-file', input, '--output-file', out, '--no-proof', ...endpoints, '--max-iterations', '1', '--n-candidates', '2', '--n-verifications', '1', '--judge-passes', '1', '--parse-retries', '0']);
      expect(result.code, result.stderr).toBe(0);
      const table = await readFile(path.join(out, 'table1.md'), 'utf8');
      const header = table.split('\n').find((line) => line.startsWith('| method | '))?.split(' | ') ?? [];
      const row = table.split('\n').find((line) => line.startsWith('| tmas | '))?.split(' | ') ?? [];
      const own = server.sent.filter((reply) => reply.role !== 'judge');
      const judge = server.sent.filter((reply) => reply.role === 'judge');
      const cut = (replies: typeof own) => replies.filter((reply) => reply.finishReason === 'length').length;
      expect(cut(own)).toBeGreaterThan(0);
      // Before: no such column; the cut replies were only inside 'unusable' and the tokens out.
      expect(row[header.indexOf('cut at limit')]).toBe(`${cut(own)} of ${own.length}; judge ${cut(judge)} of ${judge.length}`);
      expect(row[header.indexOf('calls')]).toBe(String(own.length));
      // The report's runs tables say the same.
      const cell = `${cut(own)} of ${own.length}; judge ${cut(judge)} of ${judge.length}`;
      expect(await readFile(path.join(out, 'report.html'), 'utf8')).toContain(`cut at limit ${cell}`);
      const lines: string[] = [];
      await runReportCommand([path.join(out, 'tmas')], { format: 'md' }, { stdout: (line) => lines.push(line) });
      expect(lines.join('\n')).toMatch(new RegExp(`\\| ${cell} \\|$`, 'm'));
      // A run whose metrics.json was written before the count (no 'cut' per role) is not reported as none cut.
      const metricsFile = path.join(out, 'tmas', 'metrics.json');
      const written = JSON.parse(await readFile(metricsFile, 'utf8')) as { iterations: Array<{ outputsByRole: Record<string, { cut?: number }> }> };
      for (const it of written.iterations) for (const counts of Object.values(it.outputsByRole)) delete counts.cut;
      await writeFile(metricsFile, JSON.stringify(written));
      const older: string[] = [];
      await runReportCommand([path.join(out, 'tmas')], { format: 'md' }, { stdout: (line) => older.push(line) });
      // Before: '0 of 16; judge 0 of 4'.
      const all = `${cut(own) + cut(judge)} of ${own.length + judge.length}`;
      expect(older.join('\n')).toMatch(new RegExp(`\\| ${all}, the judge's among them \\(metrics written before they were counted apart\\) \\|$`, 'm'));
    } finally {
      await server.close();
    }
  });
});
