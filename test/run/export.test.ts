import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parquetMetadata, parquetReadObjects, parquetSchema, type SchemaTree } from 'hyparquet';
import { describe, expect } from 'vitest';
import { runExportCommand } from '../../src/cli/inspect/export.command.ts';
import { parseRunFlags, toRunConfig } from '../../src/cli/run/run.command.ts';
import { runEvaluation } from '../../src/host/run/run-evaluation.ts';
import { acquireRunLock } from '../../src/store/run-lock.ts';
import { loadProblems } from '../../src/input/problems.ts';
import { runInProcess, smallProblems, test, writeProblems } from '../fixtures.ts';

interface Row {
  prompt: Array<{ role: string; content: string }>;
  response: string;
  reasoning: string | null;
  data_source: string;
  reward_model: { ground_truth: string | null; style: string };
  extra_info: { problem_id: string; iteration: number; role: string; candidate: number | null; correct: boolean | null; finish_reason: string; unusable: string | null; experience_bank: Array<{ kind: string; text: string }>; guideline_bank: unknown[] };
  _source: string;
}

/** The Parquet file's schema tree and rows, as hyparquet (what a reader without our code sees) reads them. */
async function readParquet(file: string): Promise<{ schema: SchemaTree; rows: Row[] }> {
  const bytes = await readFile(file);
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  const schema = parquetSchema(parquetMetadata(buffer));
  return { schema, rows: (await parquetReadObjects({ file: buffer })) as unknown as Row[] };
}

function child(tree: SchemaTree, name: string): SchemaTree {
  const found = tree.children.find((c) => c.element.name === name);
  if (!found) throw new Error(`no column ${name} under ${tree.element.name}`);
  return found;
}

/** Checks the nested layout: prompt a list of {role, content} structs, reward_model and extra_info structs, banks lists. */
function expectNestedSchema(schema: SchemaTree): void {
  const prompt = child(schema, 'prompt');
  expect(prompt.element.converted_type).toBe('LIST');
  const element = child(child(prompt, 'list'), 'element');
  expect(element.children.map((c) => c.element.name)).toEqual(['role', 'content']);
  expect(child(schema, 'reward_model').children.map((c) => c.element.name)).toEqual(['ground_truth', 'style']);
  const extra = child(schema, 'extra_info');
  expect(extra.element.type).toBeUndefined(); // a group (struct), not a JSON string
  expect(child(extra, 'experience_bank').element.converted_type).toBe('LIST');
  expect(child(extra, 'iteration').element.type).toBe('INT32');
  expect(child(schema, 'response').element.converted_type).toBe('UTF8');
}

const BASE = ['--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '2', '--judge-passes', '1', '--concurrency', '16'];

describe('tmas export --format rl', () => {
  const runs: Array<[string, string[]]> = [
    ['tmas', []],
    ['rse', []],
    ['majority', ['--samples', '6']],
  ];
  for (const [strategy, extra] of runs) test(`a ${strategy} run: one record per generation, with prompt, reward_model and extra_info as nested Parquet columns`, async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(2));
    const run = path.join(dir, strategy);
    const outcome = await runInProcess(['--input-file', input, '--output-file', run, '--strategy', strategy, ...BASE, ...extra]);
    const exported = await runExportCommand(run, { format: 'rl', out: path.join(dir, 'rl') });
    // Every call the run made is a generation, and each is a record, in both files.
    expect(exported.records).toBe(outcome.calls.issued);
    expect(exported).toMatchObject({ jsonl: path.join(dir, 'rl.jsonl'), parquet: path.join(dir, 'rl.parquet') });
    const lines = (await readFile(path.join(dir, 'rl.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(outcome.calls.issued);

    const { schema, rows } = await readParquet(path.join(dir, 'rl.parquet'));
    expectNestedSchema(schema);
    expect(rows).toHaveLength(outcome.calls.issued);
    expect(rows[0]).toEqual(JSON.parse(lines[0] ?? '{}'));
    for (const row of rows) {
      expect(Array.isArray(row.prompt)).toBe(true);
      expect(row.prompt.length).toBeGreaterThan(0);
      for (const message of row.prompt) expect(Object.keys(message).sort()).toEqual(['content', 'role']);
      expect(row.reward_model).toEqual({ ground_truth: row.extra_info.problem_id === 'p1' ? '6' : '12', style: 'rule' });
      expect(typeof row.response).toBe('string');
    }
    const sources = new Set(rows.map((r) => r.data_source));
    if (strategy === 'tmas') {
      // Solutions for the policy, verifications and judge passes as generative-reward records.
      expect(rows.filter((r) => r.data_source === 'math')).toHaveLength(2 * 2 * 3);
      expect(rows.filter((r) => r.data_source === 'math_grm' && r.extra_info.role === 'verification')).toHaveLength(2 * 2 * 3 * 2);
      const graded = rows.filter((r) => r.extra_info.role === 'solution');
      expect(graded.every((r) => r.extra_info.correct !== null && r.extra_info.candidate !== null)).toBe(true);
      expect(graded.some((r) => r._source === 'solution:experience' && r.extra_info.experience_bank.length > 0)).toBe(true);
    } else if (strategy === 'rse') {
      expect(sources).toContain('math');
      expect(rows.filter((r) => r.extra_info.role === 'rollout').length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.extra_info.role === 'distill').length).toBeGreaterThan(0);
      // Every rollout and distillation names its candidate, as its role declares it (not only TMAS's roles do).
      for (const row of rows.filter((r) => r.extra_info.role !== 'judge')) expect(row.extra_info.candidate, row.extra_info.role).not.toBeNull();
    } else {
      // All k samples of every problem, not only the last iteration's share of them.
      expect(rows.filter((r) => r.data_source === 'math')).toHaveLength(2 * 6);
    }
  });

  test('every output its role could not use is marked with the reason, as many per role and iteration as metrics.json counts', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'broken');
    // Half the replies out of format; a small completion limit, so that a broken reply that runs on to it stays short.
    const flags = ['--no-proof', '--n-candidates', '3', '--n-verifications', '2', '--max-iterations', '1', '--judge-passes', '1', '--concurrency', '16'];
    await runInProcess(['--input-file', input, '--output-file', run, ...flags, '--sim-break-formats', '0.5', '--completion-max-tokens', '1500', '--judge-max-tokens', '1500']);
    await runExportCommand(run, { format: 'rl', out: path.join(dir, 'rl') });
    const { rows } = await readParquet(path.join(dir, 'rl.parquet'));
    const jsonl = (await readFile(path.join(dir, 'rl.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Row);
    expect(rows.map((r) => r.extra_info.unusable)).toEqual(jsonl.map((r) => r.extra_info.unusable));
    const exported: Record<string, { outputs: number; unusable: number }> = {};
    for (const row of rows) {
      const counts = (exported[`${row.extra_info.iteration}/${row.extra_info.role}`] ??= { outputs: 0, unusable: 0 });
      counts.outputs++;
      if (row.extra_info.unusable !== null) counts.unusable++;
    }
    const metrics = JSON.parse(await readFile(path.join(run, 'metrics.json'), 'utf8')) as { iterations: Array<{ iteration: number; outputsByRole: Record<string, { outputs: number; unusable: number }> }> };
    const counted: Record<string, { outputs: number; unusable: number }> = {};
    for (const it of metrics.iterations) for (const [role, c] of Object.entries(it.outputsByRole)) counted[`${it.iteration}/${role}`] = { outputs: c.outputs, unusable: c.unusable };
    expect(exported).toEqual(counted);
    // A format broken without a cut (no SCORE line, no VERDICT) ends as 'stop': only the mark tells it apart.
    expect(rows.some((r) => r.extra_info.unusable !== null && r.extra_info.finish_reason === 'stop')).toBe(true);
  });

  test('a run directory that does not exist, or a run still being written, is named as such, and nothing is written', async ({ dir }) => {
    const missing = path.join(dir, 'no-such-run');
    await expect(runExportCommand(missing, { format: 'rl' })).rejects.toMatchObject({ code: 'TMAS_RUN_DIR', message: expect.stringContaining(missing) });
    expect(existsSync(missing)).toBe(false);

    const input = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'live');
    await runInProcess(['--input-file', input, '--output-file', run, '--no-proof', '--strategy', 'majority', '--samples', '2']);
    // The run's own lock, held by a live process (this one), as a running tmas holds it.
    const release = await acquireRunLock(run);
    const out = path.join(dir, 'live-rl');
    try {
      await expect(runExportCommand(run, { format: 'rl', out })).rejects.toMatchObject({ code: 'TMAS_LOCKED', message: expect.stringContaining('an export would read only the calls journaled so far') });
    } finally {
      await release();
    }
    expect(existsSync(`${out}.jsonl`)).toBe(false);
    expect((await runExportCommand(run, { format: 'rl', out })).records).toBe(2);
  });

  test('a run with nothing to export says so and writes nothing', async ({ dir }) => {
    const input = await writeProblems(dir, smallProblems(1));
    const run = path.join(dir, 'stopped');
    const { config, secrets } = toRunConfig(parseRunFlags(['--input-file', input, '--output-file', run, ...BASE]), {});
    // Stopped as its first call goes out: in-flight calls are aborted and never journaled.
    const controller = new AbortController();
    const observe = ({ envelopes$ }: { envelopes$: import('rxjs').Observable<{ message: { type: string } }> }) =>
      void envelopes$.subscribe((envelope) => {
        if (envelope.message.type.endsWith('.requested')) controller.abort(new Error('stopped before any call completed'));
      });
    const quiet = { stdout: () => {}, stderr: () => {} };
    await expect(runEvaluation(config, secrets, await loadProblems(input), quiet, { signal: controller.signal, observe })).rejects.toMatchObject({ code: 'TMAS_INTERRUPTED' });
    const out = path.join(dir, 'rl');
    await expect(runExportCommand(run, { format: 'rl', out })).rejects.toMatchObject({ code: 'TMAS_EXPORT_EMPTY' });
    expect(existsSync(`${out}.jsonl`)).toBe(false);
    expect(existsSync(`${out}.parquet`)).toBe(false);
  });
});
