/**
 * Parquet problem files: written here with hyparquet-writer (the writer tmas's
 * export uses), read by `loadProblems` and by a real `tmas run` against the
 * simulator. A Parquet file must run exactly as its JSONL twin does; its
 * mistakes are refused as JSONL's are, naming the file and the row or column.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import type { CompressionCodec, SchemaElement } from 'hyparquet';
import { describe, expect } from 'vitest';
import { isUserError, type UserError } from '../../src/kernel/errors.ts';
import { loadProblems, type LoadOptions } from '../../src/input/problems.ts';
import { runInProcess, test, runCliInProcess } from '../fixtures.ts';

type Columns = Array<Omit<ColumnSource, 'data'> & { data: unknown[] }>;

/** Writes `columns` as a Parquet file in `dir`; extra writer options (row groups, codec, schema) pass through. */
async function writeParquet(dir: string, name: string, columns: Columns, options: { rowGroupSize?: number; codec?: CompressionCodec; compressors?: Record<string, (input: Uint8Array) => Uint8Array>; schema?: SchemaElement[] } = {}): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, new Uint8Array(parquetWriteBuffer({ columnData: columns as ColumnSource[], ...options })));
  return file;
}

const text = (name: string, data: Array<string | null>): Columns[number] => ({ name, data, type: 'STRING' });

/** Asserts the message starts with `start` (the file, then the row when there is one). */
function expectStart(error: UserError, start: string): void {
  expect(error.message.startsWith(start), error.message).toBe(true);
}

/** Loads a file that must fail: a `TMAS_INPUT` error of one line, no stack. */
async function loadError(file: string, options?: LoadOptions): Promise<UserError> {
  const caught: unknown = await loadProblems(file, options).then(() => undefined, (error: unknown) => error);
  if (!isUserError(caught)) throw new Error(`expected a UserError, got ${String(caught)}`);
  expect(caught.code).toBe('TMAS_INPUT');
  expect(caught.message).not.toContain('\n');
  return caught;
}

describe('a Parquet file runs as its JSONL twin', () => {
  test('tmas run on the simulator writes the same results.jsonl from both', async ({ dir }) => {
    const rows = [
      { problem_id: 'p1', question: 'Compute 2 times 3.', answer: 6, source: 'made up' },
      { problem_id: 'p2', question: 'Compute 3 times 4.', answer: 12, source: null },
      { problem_id: 'p3', question: 'Compute 4 times 5.', answer: 20, source: 'made up' },
    ];
    const jsonl = path.join(dir, 'problems.jsonl');
    await writeFile(jsonl, rows.map((row) => JSON.stringify(row)).join('\n') + '\n');
    // Two row groups, so the reader's group-by-group decoding is what the run sees.
    const parquet = await writeParquet(dir, 'problems.parquet', [
      text('problem_id', rows.map((r) => r.problem_id)),
      text('question', rows.map((r) => r.question)),
      { name: 'answer', data: rows.map((r) => BigInt(r.answer)), type: 'INT64' },
      text('source', rows.map((r) => r.source)),
    ], { rowGroupSize: 2 });
    expect(await loadProblems(parquet)).toEqual(await loadProblems(jsonl));

    // The JSONL run is the reference, in this process; the command reads the Parquet file.
    const flags = ['--no-proof', '--max-iterations', '2', '--n-candidates', '2', '--n-verifications', '1'];
    await runInProcess(['--input-file', jsonl, '--output-file', path.join(dir, 'out-jsonl'), ...flags]);
    const run = await runCliInProcess(['run', '--input-file', parquet, '--output-file', path.join(dir, 'out-parquet'), ...flags]);
    expect(run.stderr).not.toMatch(/TMAS_/);
    expect(run.code).toBe(0);
    const results = await Promise.all(['out-jsonl', 'out-parquet'].map((output) => readFile(path.join(dir, output, 'results.jsonl'), 'utf8')));
    expect(results[0]?.trim().split('\n')).toHaveLength(3 * 2);
    expect(results[1]).toBe(results[0]);
  });
});

describe('loadProblems: Parquet that loads', () => {
  test("Hugging Face's column names load without options, as JSONL's do", async ({ dir }) => {
    const file = await writeParquet(dir, 'hub.parquet', [
      { name: 'id', data: [7, 8], type: 'INT32' },
      text('problem', ['Find $x$.', 'Find $y$.']),
      text('answer', ['3', '  ']),
      text('solution', ['x = 3', null]),
      text('url', ['https://example.org/7', 'https://example.org/8']),
    ]);
    expect(await loadProblems(file)).toEqual([
      { id: '7', question: 'Find $x$.', answer: '3', solution: 'x = 3', extra: { url: 'https://example.org/7' } },
      { id: '8', question: 'Find $y$.', extra: { url: 'https://example.org/8' } },
    ]);
  });

  test("IMO-AnswerBench's column names, the CSV defaults, come first", async ({ dir }) => {
    const file = await writeParquet(dir, 'bench.parquet', [
      text('Problem ID', ['imo-1']),
      text('Problem', ['Find $x$ such that $x^2 = 4$, $x > 0$.']),
      text('Short Answer', ['2']),
      text('question', ['not this one']),
    ]);
    expect(await loadProblems(file)).toEqual([{ id: 'imo-1', question: 'Find $x$ such that $x^2 = 4$, $x > 0$.', answer: '2', extra: { question: 'not this one' } }]);
  });

  test('the column options pick other columns; without an answer column the problems load ungraded', async ({ dir }) => {
    const file = await writeParquet(dir, 'mine.parquet', [text('key', ['k1']), text('text', ['What is 1+1?']), text('gold', ['2'])]);
    expect(await loadProblems(file, { idColumn: 'key', questionColumn: 'text', answerColumn: 'gold' })).toEqual([{ id: 'k1', question: 'What is 1+1?', answer: '2', extra: {} }]);
    expect(await loadProblems(file, { idColumn: 'key', questionColumn: 'text' })).toEqual([{ id: 'k1', question: 'What is 1+1?', extra: { gold: '2' } }]);
  });

  test('without a column of the exact names, one of those names in another case is read (an "Answer" column is not left out as an extra)', async ({ dir }) => {
    const file = await writeParquet(dir, 'cased.parquet', [text('ID', ['k1']), text('Question', ['What is 1+1?']), text('Answer', ['2']), text('Solution', ['1+1=2.'])]);
    expect(await loadProblems(file)).toEqual([{ id: 'k1', question: 'What is 1+1?', answer: '2', solution: '1+1=2.', extra: {} }]);
  });

  test('extra columns are kept as JSON: exact 64-bit integers, dates as ISO text, a list column as a list', async ({ dir }) => {
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 4 },
      { name: 'problem_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'question', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'big', type: 'INT64', repetition_type: 'REQUIRED' },
      { name: 'tags', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ];
    const file = await writeParquet(dir, 'extra.parquet', [
      { name: 'problem_id', data: ['a'] },
      { name: 'question', data: ['q'] },
      { name: 'big', data: [12345678901234567890n & 0x7fffffffffffffffn] },
      { name: 'tags', data: [['algebra', 'easy']] },
    ], { schema });
    const [problem] = await loadProblems(file);
    expect(problem?.extra).toEqual({ big: String(12345678901234567890n & 0x7fffffffffffffffn), tags: ['algebra', 'easy'] });
    expect(JSON.parse(JSON.stringify(problem))).toEqual(problem);
  });

  // A float32 answer of 0.1 was read as "0.10000000149011612", its double's digits: the run graded against a number the file does not hold.
  test('a single-precision answer (and extra) column reads as the decimals written into it', async ({ dir }) => {
    const file = await writeParquet(dir, 'float.parquet', [
      text('problem_id', ['a', 'b', 'c']),
      text('question', ['q1', 'q2', 'q3']),
      { name: 'answer', data: [0.1, 2.5, 1 / 3], type: 'FLOAT' },
      { name: 'difficulty', data: [0.3, null, 7], type: 'FLOAT' },
    ]);
    const problems = await loadProblems(file);
    expect(problems.map((p) => p.answer)).toEqual(['0.1', '2.5', '0.33333334']);
    expect(problems.map((p) => p.extra['difficulty'])).toEqual([0.3, null, 7]);
  });

  // A DECIMAL(5,2) answer of 0.35 was read as "0.35000000000000003": its integer is scaled in doubles.
  test('a decimal answer (and extra) column reads as its digits at its scale', async ({ dir }) => {
    const decimal = (name: string): SchemaElement => ({ name, type: 'INT32', converted_type: 'DECIMAL', scale: 2, precision: 5, repetition_type: 'OPTIONAL' });
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 4 },
      { name: 'problem_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'question', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      decimal('answer'),
      decimal('weight'),
    ];
    const file = await writeParquet(dir, 'decimal.parquet', [
      { name: 'problem_id', data: ['a', 'b', 'c'] },
      { name: 'question', data: ['q1', 'q2', 'q3'] },
      { name: 'answer', data: [0.35, 1.5, null] },
      { name: 'weight', data: [0.57, 0.69, 2] },
    ], { schema });
    const problems = await loadProblems(file);
    expect(problems.map((p) => p.answer)).toEqual(['0.35', '1.50', undefined]);
    expect(problems.map((p) => p.extra['weight'])).toEqual([0.57, 0.69, 2]);
  });

  // hyparquet scales a DECIMAL in doubles: a DECIMAL(20,0) answer of 12345678901234567890 was read as 12345678901234567168.
  test('an integer answer above 2^53 reads as its digits: INT64, UINT64, and DECIMAL of every physical type', async ({ dir }) => {
    const column = (name: string, type: SchemaElement['type'], annotation: Partial<SchemaElement> = {}): SchemaElement => ({ name, type, repetition_type: 'OPTIONAL', ...annotation });
    const decimal = (precision: number, scale: number) => ({ converted_type: 'DECIMAL' as const, precision, scale });
    const cases: Array<[SchemaElement, bigint[], string[]]> = [
      [column('answer', 'INT64'), [9007199254740993n, -9223372036854775807n], ['9007199254740993', '-9223372036854775807']],
      [column('answer', 'INT64', { converted_type: 'UINT_64' }), [12345678901234567890n, 1n], ['12345678901234567890', '1']],
      [column('answer', 'INT64', decimal(18, 0)), [1234567890123456789n, -7n], ['1234567890123456789', '-7']],
      [column('answer', 'FIXED_LEN_BYTE_ARRAY', { ...decimal(20, 0), type_length: 9 }), [12345678901234567890n, -12345678901234567891n], ['12345678901234567890', '-12345678901234567891']],
      [column('answer', 'BYTE_ARRAY', decimal(30, 2)), [12345678901234567890n, -5n], ['123456789012345678.90', '-0.05']],
    ];
    for (const [answer, data, expected] of cases) {
      const schema: SchemaElement[] = [{ name: 'root', num_children: 4 }, column('problem_id', 'BYTE_ARRAY'), column('question', 'BYTE_ARRAY'), answer, { ...answer, name: 'weight' }];
      const file = await writeParquet(dir, 'big.parquet', [{ name: 'problem_id', data: ['a', 'b'] }, { name: 'question', data: ['q1', 'q2'] }, { name: 'answer', data }, { name: 'weight', data }], { schema });
      const problems = await loadProblems(file);
      expect(problems.map((p) => [p.id, p.question, p.answer]), answer.converted_type ?? answer.type).toEqual([['a', 'q1', expected[0]], ['b', 'q2', expected[1]]]);
      // An extra column keeps a number JSON cannot hold exactly as its digits.
      expect(String(problems[0]?.extra['weight'])).toBe(expected[0]);
    }
  });

  test('GZIP-compressed pages are read', async ({ dir }) => {
    const file = await writeParquet(dir, 'gzip.parquet', [text('problem_id', ['a', 'b']), text('question', ['q1', 'q2'])], { codec: 'GZIP', compressors: { GZIP: (input) => zlib.gzipSync(input) } });
    expect((await loadProblems(file)).map((p) => p.question)).toEqual(['q1', 'q2']);
  });
});

describe('loadProblems: Parquet columns refused', () => {
  test('a nested question column is refused, naming the column and the option', async ({ dir }) => {
    const schema: SchemaElement[] = [
      { name: 'root', num_children: 2 },
      { name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' },
      { name: 'question', repetition_type: 'OPTIONAL', converted_type: 'LIST', num_children: 1 },
      { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
      { name: 'element', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
    ];
    const file = await writeParquet(dir, 'nested.parquet', [{ name: 'id', data: ['a'] }, { name: 'question', data: [['part 1', 'part 2']] }], { schema });
    const error = await loadError(file);
    expectStart(error, `${file}: the column "question" is a list column`);
    expect(error.message).toContain('--question-column');
  });

  test('a question column of numbers is refused with its type', async ({ dir }) => {
    const file = await writeParquet(dir, 'typed.parquet', [text('id', ['a']), { name: 'question', data: [1.5], type: 'DOUBLE' }]);
    expect((await loadError(file)).message).toContain('the column "question" holds DOUBLE values');
  });

  test('a column named with an option must exist, even the answer', async ({ dir }) => {
    const file = await writeParquet(dir, 'cols.parquet', [text('id', ['a']), text('question', ['q'])]);
    const error = await loadError(file, { answerColumn: 'gold' });
    expect(error.message).toContain(`${file}: the Parquet file has no column "gold" (it has: "id", "question")`);
    expect(error.message).toContain('--answer-column');
  });

  test('without the default or the JSONL names, the message lists both and the columns found', async ({ dir }) => {
    const file = await writeParquet(dir, 'none.parquet', [text('uid', ['a']), text('question', ['q'])]);
    const error = await loadError(file);
    expect(error.message).toContain('none of the columns tmas looks for the problem ids in ("Problem ID", "problem_id", "id"); it has: "uid", "question"');
    expect(error.message).toContain('--id-column');
  });

  test('a compression tmas cannot decompress is named with its column', async ({ dir }) => {
    const file = await writeParquet(dir, 'lz4.parquet', [text('id', ['a']), text('question', ['q'])], { codec: 'LZ4_RAW', compressors: { LZ4_RAW: (input) => input } });
    expect((await loadError(file)).message).toContain('the column "id" is compressed with LZ4_RAW');
  });
});

describe('loadProblems: Parquet rows refused', () => {
  test('a null question names its row, counting from 1 across row groups', async ({ dir }) => {
    const file = await writeParquet(dir, 'rows.parquet', [text('id', ['a', 'b', 'c']), text('question', ['q1', 'q2', null])], { rowGroupSize: 2 });
    expectStart(await loadError(file), `${file} row 3: the question (column "question") is missing: the cell is null`);
  });

  test('an empty id names its row', async ({ dir }) => {
    const file = await writeParquet(dir, 'blank.parquet', [text('id', ['a', ' ']), text('question', ['q1', 'q2'])]);
    expectStart(await loadError(file), `${file} row 2: the problem id (column "id") is empty`);
  });

  test('a duplicate id names both rows', async ({ dir }) => {
    const file = await writeParquet(dir, 'dup.parquet', [text('id', ['a', 'b', 'a']), text('question', ['q1', 'q2', 'q3'])]);
    expectStart(await loadError(file), `${file} row 3: duplicate problem id "a", already used on row 1`);
  });

  test('a cell that is not UTF-8 names its row and column', async ({ dir }) => {
    const file = await writeParquet(dir, 'bytes.parquet', [text('id', ['a', 'b']), { name: 'question', data: [new TextEncoder().encode('fine'), new Uint8Array([0x63, 0x61, 0xc3, 0x28])], type: 'BYTE_ARRAY' }]);
    expectStart(await loadError(file), `${file} row 2: the "question" cell is not valid UTF-8 text`);
  });
});

describe('loadProblems: Parquet files refused', () => {
  test('a file that is not Parquet', async ({ dir }) => {
    const file = path.join(dir, 'text.parquet');
    await writeFile(file, '{"problem_id": "a", "question": "q"}\n');
    expect((await loadError(file)).message).toContain(`${file}: not a readable Parquet file`);
  });

  test('a file with no rows', async ({ dir }) => {
    const file = await writeParquet(dir, 'empty.parquet', [text('id', []), text('question', [])]);
    expect((await loadError(file)).message).toContain('no problems found');
  });

  test('a file over the size limit is refused unread, as a JSONL file is', async ({ dir }) => {
    const question = 'q'.repeat(2000);
    const parquet = await writeParquet(dir, 'big.parquet', [text('id', ['a']), text('question', [question])], { codec: 'UNCOMPRESSED' });
    expectStart(await loadError(parquet, { maxBytes: 1000 }), `${parquet}: the file is `);
    expect((await loadError(parquet, { maxBytes: 1000 })).message).toContain('more than the 1000 bytes tmas reads as a problem file');
    expect(await loadProblems(parquet)).toHaveLength(1);
    const jsonl = path.join(dir, 'big.jsonl');
    await writeFile(jsonl, `${JSON.stringify({ problem_id: 'a', question })}\n`);
    expectStart(await loadError(jsonl, { maxBytes: 1000 }), `${jsonl}: the file is `);
    expect(await loadProblems(jsonl)).toHaveLength(1);
  });
});
