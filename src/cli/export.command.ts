/**
 * `tmas export DIR --format rl`: the trajectories as RL training records with
 * the fields of the TMAS release: `prompt` (the chat messages the solution
 * agent was sent), `response`, `data_source`, `reward_model` (ground truth and
 * style), `extra_info` (with the banks E(t-1) and G(t-1) the prompt drew on)
 * and `_source` (normal, experience or guideline). Written as JSONL and as
 * Parquet (nested fields as JSON strings), a row group at a time, so an export
 * never holds the run in memory.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { ParquetWriter, fileWriter } from 'hyparquet-writer';
import { UserError } from '../kernel/errors.ts';
import type { Store } from '../store/store.ts';
import { openRun } from '../analysis/open-run.ts';

/** One RL training record. */
export interface RlRecord {
  prompt: Array<{ role: string; content: string }>;
  response: string;
  data_source: string;
  reward_model: { ground_truth: string | null; style: 'rule' | 'model' };
  extra_info: {
    problem_id: string;
    iteration: number;
    candidate: number;
    answer: string | null;
    correct: boolean | null;
    score: number | null;
    experience_bank: Array<{ kind: string; text: string }>;
    guideline_bank: Array<{ strategy: string; outcome: string }>;
  };
  _source: string;
}

const ROW_GROUP = 1000;

async function solutionCall(store: Store, problem: string, iteration: number, candidate: number) {
  const prefix = `${problem}/${iteration}/solution/${candidate}/`;
  for await (const value of store.calls().values({ gte: prefix, lt: `${prefix}\uffff`, limit: 1 })) {
    return value as { request: { messages: Array<{ role: string; content: string }> }; response: { content: string } };
  }
  return undefined;
}

/** Streams the RL records of a run. */
export async function* rlRecords(store: Store, dataSource: string, proof: boolean): AsyncGenerator<RlRecord> {
  const problems = await store.loadProblems();
  for await (const record of store.iterationRecords()) {
    const problem = problems[record.ordinal];
    const before = record.iteration > 0 ? await store.getBanks(record.ordinal, record.iteration - 1) : undefined;
    for (const candidate of record.candidates) {
      const call = await solutionCall(store, record.problem, record.iteration, candidate.candidate);
      if (!call) continue; // the solution call failed for good: there is no trajectory to train on
      yield {
        prompt: call.request.messages,
        response: call.response.content,
        data_source: dataSource,
        reward_model: { ground_truth: problem?.answer ?? null, style: proof ? 'model' : 'rule' },
        extra_info: {
          problem_id: record.problem,
          iteration: record.iteration,
          candidate: candidate.candidate,
          answer: candidate.answer,
          correct: candidate.correct,
          score: candidate.summaryScore,
          experience_bank: (before?.experience ?? []).map((r) => ({ kind: r.kind, text: r.text })),
          guideline_bank: (before?.guidelines ?? []).map((r) => ({ strategy: r.strategy, outcome: r.outcome })),
        },
        _source: candidate.source,
      };
    }
  }
}

function toColumns(rows: RlRecord[]) {
  return [
    { name: 'prompt', data: rows.map((r) => JSON.stringify(r.prompt)), type: 'STRING' as const },
    { name: 'response', data: rows.map((r) => r.response), type: 'STRING' as const },
    { name: 'data_source', data: rows.map((r) => r.data_source), type: 'STRING' as const },
    { name: 'reward_model', data: rows.map((r) => JSON.stringify(r.reward_model)), type: 'STRING' as const },
    { name: 'extra_info', data: rows.map((r) => JSON.stringify(r.extra_info)), type: 'STRING' as const },
    { name: '_source', data: rows.map((r) => r._source), type: 'STRING' as const },
  ];
}

/** Writes `<out>.jsonl` and `<out>.parquet`; returns the paths and the record count. */
export async function runExportCommand(runDir: string, options: { format: string; out?: string }): Promise<{ jsonl: string; parquet: string; records: number }> {
  if (options.format !== 'rl') throw new UserError('TMAS_USAGE', `--format ${options.format}: the only export format is rl.`);
  const { store, manifest } = await openRun(runDir);
  const base = options.out ?? path.join(runDir, 'export-rl');
  const jsonlPath = `${base}.jsonl`;
  const parquetPath = `${base}.parquet`;
  try {
    const jsonl = createWriteStream(jsonlPath);
    const schema = [
      { name: 'root', num_children: 6 },
      ...['prompt', 'response', 'data_source', 'reward_model', 'extra_info', '_source'].map((name) => ({
        name,
        type: 'BYTE_ARRAY' as const,
        converted_type: 'UTF8' as const,
        repetition_type: 'REQUIRED' as const,
      })),
    ];
    const parquet = new ParquetWriter({ writer: fileWriter(parquetPath), schema });
    const dataSource = `tmas/${path.basename(manifest.config.inputFile).replace(/\.[^.]+$/, '')}`;
    let rows: RlRecord[] = [];
    let records = 0;
    for await (const record of rlRecords(store, dataSource, manifest.config.proof)) {
      if (!jsonl.write(`${JSON.stringify(record)}\n`)) await once(jsonl, 'drain');
      rows.push(record);
      records++;
      if (rows.length >= ROW_GROUP) {
        parquet.write({ columnData: toColumns(rows) });
        rows = [];
      }
    }
    if (rows.length > 0) parquet.write({ columnData: toColumns(rows) });
    parquet.finish();
    jsonl.end();
    await finished(jsonl);
    return { jsonl: jsonlPath, parquet: parquetPath, records };
  } finally {
    await store.close();
  }
}
