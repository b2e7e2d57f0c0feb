/**
 * The Parquet layout of the RL records: nested fields as real Parquet list and
 * struct columns (not JSON strings), so that verl's dataset loader, pandas
 * (pyarrow) and DuckDB read `prompt` as a list of {role, content} and
 * `reward_model` and `extra_info` as structs without conversion.
 */
import type { SchemaElement } from 'hyparquet';
import type { RlRecord } from './rl-records.ts';

type Repetition = 'REQUIRED' | 'OPTIONAL';

function text(name: string, repetition: Repetition = 'REQUIRED'): SchemaElement {
  return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: repetition };
}

function int(name: string, repetition: Repetition = 'REQUIRED'): SchemaElement {
  return { name, type: 'INT32', repetition_type: repetition };
}

/** A list of structs in the standard three-level layout (`name` LIST → `list` repeated → `element`). */
function listOf(name: string, fields: SchemaElement[]): SchemaElement[] {
  return [
    { name, repetition_type: 'REQUIRED', converted_type: 'LIST', num_children: 1 },
    { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
    { name: 'element', repetition_type: 'REQUIRED', num_children: fields.length },
    ...fields,
  ];
}

/** The schema of the export's Parquet file, depth-first as Parquet stores it. */
export const RL_SCHEMA: SchemaElement[] = [
  { name: 'root', num_children: 7 },
  ...listOf('prompt', [text('role'), text('content')]),
  text('response'),
  text('reasoning', 'OPTIONAL'),
  text('data_source'),
  { name: 'reward_model', repetition_type: 'REQUIRED', num_children: 2 },
  text('ground_truth', 'OPTIONAL'),
  text('style'),
  { name: 'extra_info', repetition_type: 'REQUIRED', num_children: 17 },
  text('problem_id'),
  int('iteration'),
  text('role'),
  int('index'),
  text('call_key'),
  text('model'),
  int('candidate', 'OPTIONAL'),
  text('answer', 'OPTIONAL'),
  { name: 'correct', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
  { name: 'score', type: 'DOUBLE', repetition_type: 'OPTIONAL' },
  { name: 'candidate_correct', type: 'BOOLEAN', repetition_type: 'OPTIONAL' },
  text('finish_reason'),
  text('unusable', 'OPTIONAL'),
  int('prompt_tokens'),
  int('completion_tokens'),
  ...listOf('experience_bank', [text('kind'), text('text')]),
  ...listOf('guideline_bank', [text('strategy'), text('outcome')]),
  text('_source'),
];

/** A row group's column data, in the schema's top-level order. */
export function toColumns(rows: RlRecord[]): Array<{ name: string; data: unknown[] }> {
  return [
    { name: 'prompt', data: rows.map((r) => r.prompt) },
    { name: 'response', data: rows.map((r) => r.response) },
    { name: 'reasoning', data: rows.map((r) => r.reasoning) },
    { name: 'data_source', data: rows.map((r) => r.data_source) },
    { name: 'reward_model', data: rows.map((r) => r.reward_model) },
    { name: 'extra_info', data: rows.map((r) => r.extra_info) },
    { name: '_source', data: rows.map((r) => r._source) },
  ];
}
