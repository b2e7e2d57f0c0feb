/**
 * The "not a result" headline of table1.md and the report's ✗ under a judge: a solution role whose replies only lost
 * their final answer still wrote the candidates the judge graded from their text, so its column is a result of its method.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { runReportCommand } from '../../src/cli/inspect/report.command.ts';
import { runCliInProcess, startSimInProcess, test, writeProblems } from '../fixtures.ts';

describe('hollow roles under a judge', () => {
  test("a rewrite role whose every reply lost its box, graded by a judge, is no role self-refine ran without", async ({ dir }) => {
    // The demo's first two problems: at this seed the one rewrite asked for loses its box, the case this pins.
    const demo = (await readFile(path.join(import.meta.dirname, '..', '..', 'problems', 'demo.jsonl'), 'utf8')).split('\n').slice(0, 2);
    const input = await writeProblems(dir, demo.map((line) => JSON.parse(line)));
    // The model under test breaks every reply's format; the judge is intact and reads the rewrites' text.
    const model = await startSimInProcess(['--problems', input, '--break-formats', '1']);
    const judge = await startSimInProcess(['--problems', input]);
    try {
      const out = path.join(dir, 'judged');
      const args = ['table1', '--strategies', 'self-refine', '--n-candidates', '2', '--input-file', input, '--output-file', out, '--no-proof', '--max-iterations', '2'];
      const endpoints = ['--base-url', model.url, '--model-name', 'tmas-sim', '--judge-base-url', judge.url, '--judge-model-name', 'tmas-sim', '--judge-passes', '1', '--parse-retries', '0'];
      const result = await runCliInProcess([...args, ...endpoints]);
      expect(result.code, result.stderr).toBe(0);
      const metrics = JSON.parse(await readFile(path.join(out, 'self-refine', 'metrics.json'), 'utf8'));
      const rewrites = metrics.iterations.map((it: { outputsByRole: Record<string, { outputs: number; unusable: number; reason: string | null }> }) => it.outputsByRole.rewrite).filter(Boolean);
      // The case: every rewrite lost its final answer, and the judge graded the last iteration's candidates all the same.
      expect(rewrites.reduce((sum: number, r: { outputs: number }) => sum + r.outputs, 0)).toBeGreaterThan(0);
      expect(rewrites.every((r: { outputs: number; unusable: number; reason: string }) => r.unusable === r.outputs && r.reason.startsWith('no final answer'))).toBe(true);
      expect(metrics.iterations.at(-1).graded).toBe(2);
      // Before: '**Not a result: …** self-refine: not one output of its rewrite role could be used …: its figures are of what ran without it'.
      const table = await readFile(path.join(out, 'table1.md'), 'utf8');
      expect(table).not.toMatch(/not a result|not one output/i);
      expect(await readFile(path.join(out, 'report.html'), 'utf8')).not.toContain('No result of its method');
      const lines: string[] = [];
      await runReportCommand([path.join(out, 'self-refine')], { format: 'md' }, { stdout: (line) => lines.push(line) });
      expect(lines.join('\n')).not.toContain('no result of its method');
    } finally {
      await Promise.all([model.close(), judge.close()]);
    }
  });
});
