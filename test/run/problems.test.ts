import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, test as base } from 'vitest';
import { isUserError, type UserError } from '../../src/kernel/errors.ts';
import { loadProblems, type LoadOptions, type Problem } from '../../src/input/problems.ts';
import { parseRunFlags, toRunConfig, type RunFlags } from '../../src/cli/run/run.command.ts';
import { checkSameProblems } from '../../src/cli/run/prepare-run.ts';

interface Fixtures {
  /** A fresh temp dir per test, removed afterwards. */
  dir: string;
  /** Writes a fixture file into `dir` and returns its path. */
  write: (name: string, content: string | Uint8Array) => Promise<string>;
}

const test = base.extend<Fixtures>({
  // The empty pattern is required: vitest reads a fixture's dependencies from its destructuring.
  dir: async ({}, use) => {
    const dir = await mkdtemp(join(tmpdir(), 'tmas-problems-'));
    await use(dir);
    await rm(dir, { recursive: true, force: true });
  },
  write: async ({ dir }, use) => {
    await use(async (name, content) => {
      const path = join(dir, name);
      await writeFile(path, content);
      return path;
    });
  },
});

/** Loads a file that must fail, and checks the shape every input error shares. */
async function loadError(file: string, options?: LoadOptions): Promise<UserError> {
  let caught: unknown;
  try {
    await loadProblems(file, options);
  } catch (error) {
    caught = error;
  }
  if (!isUserError(caught)) throw new Error(`expected a UserError, got ${String(caught)}`);
  expect(caught.code).toBe('TMAS_INPUT');
  expect(caught.message).not.toContain('\n');
  return caught;
}

/** Asserts the message starts `<file>:<line>: `, the form editors link to. */
function expectAt(error: UserError, file: string, line: number): void {
  expect(error.message.startsWith(`${file}:${line}`), error.message).toBe(true);
}

/**
 * Loads `fifo` in a process of its own, as `tmas run` would, with a short wait for its writer: the codes it was refused
 * with, once it exits (undefined if it is still held after 20 s: a thread still blocked on the FIFO keeps a process from exiting).
 */
function loadInOwnProcess(fifo: string): string | undefined {
  const loader = fileURLToPath(new URL('../../src/input/problems.ts', import.meta.url));
  const script = `import { loadProblems } from ${JSON.stringify(loader)}; await loadProblems(${JSON.stringify(fifo)}, { pipeWaits: { openMs: 300, silenceMs: 300 } }).catch((error) => console.log(error.code));`;
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  return child.signal === null ? child.stdout.trim() : undefined;
}

const jsonl = (...rows: unknown[]): string => rows.map((row) => JSON.stringify(row)).join('\n') + '\n';

describe('loadProblems: JSONL that loads', () => {
  test('reads ids, questions, answers and solutions', async ({ write }) => {
    const file = await write(
      'p.jsonl',
      jsonl(
        { problem_id: 'a', question: 'What is 1+1?', answer: '2', solution: '1+1=2' },
        { problem_id: 'b', question: 'Unanswered' },
      ),
    );
    expect(await loadProblems(file)).toEqual([
      { id: 'a', question: 'What is 1+1?', answer: '2', solution: '1+1=2', extra: {} },
      { id: 'b', question: 'Unanswered', extra: {} },
    ]);
  });

  test('a UTF-8 BOM, CRLF line ends and blank lines load correctly', async ({ write }) => {
    const body = '\uFEFF{"problem_id":"x","question":"Été?","answer":"1"}\r\n\r\n   \r\n{"problem_id":"y","question":"Q2"}\r\n';
    const problems = await loadProblems(await write('bom.jsonl', body));
    expect(problems.map((p) => [p.id, p.question, p.answer])).toEqual([
      ['x', 'Été?', '1'],
      ['y', 'Q2', undefined],
    ]);
  });

  // A file saved with CR-only line ends (classic Mac OS, Excel for Mac) failed at line 1, read as one line.
  test('CR-only line ends, and a mix of CR, CRLF and LF, are line breaks in JSONL, a JSON array and CSV, and errors name the right line', async ({ write }) => {
    const expected = [['x', 'Q1'], ['y', 'Q2\nsecond line'], ['z', 'Q3']];
    const ids = (problems: Array<{ id: string; question: string }>) => problems.map((p) => [p.id, p.question]);
    const jsonlBody = '{"problem_id":"x","question":"Q1"}\r\r{"problem_id":"y","question":"Q2\\nsecond line"}\r\n{"problem_id":"z","question":"Q3"}\r';
    expect(ids(await loadProblems(await write('mac.jsonl', jsonlBody)))).toEqual(expected);
    expect(ids(await loadProblems(await write('mac.json', `[${jsonlBody.replace(/\}\r/g, '},\r').replace(/,\r$/, ']')}`)))).toEqual(expected);
    // A CSV's quoted field keeps its own line break as written (a lone CR here).
    const asWritten = expected.map(([id, question]) => [id, question?.replace('\n', '\r')]);
    expect(ids(await loadProblems(await write('mac.csv', 'id,question\rx,Q1\ry,"Q2\rsecond line"\r\nz,Q3\r')))).toEqual(asWritten);
    const broken = await write('broken.jsonl', '{"problem_id":"x","question":"Q1"}\r\r{"problem_id":"y"}\r');
    const error = await loadError(broken);
    expectAt(error, broken, 3);
    expect(error.message).toContain('"question" is missing');
  });

  test('numeric ids and answers become decimal strings', async ({ write }) => {
    const file = await write('n.jsonl', '{"problem_id": 7, "question": "q", "answer": 42}\n{"problem_id": -3, "question": "r", "answer": 0.375}\n');
    const problems = await loadProblems(file);
    expect(problems.map((p) => [p.id, p.answer])).toEqual([
      ['7', '42'],
      ['-3', '0.375'],
    ]);
  });

  // JSON.parse makes every number a double: an answer written 1e400 was graded as "Infinity", and a 20-digit decimal lost its last digits.
  test('a number answer is kept as the file writes it, in JSONL and in a JSON array', async ({ write }) => {
    const written = ['1e400', '0.12345678901234567890', '1.50', '-2.5E-3'];
    const lines = written.map((answer, k) => `{"problem_id": "p${k}", "question": "q \\"answer\\": 9", "meta": {"answer": 7}, "answer": ${answer}}`);
    expect((await loadProblems(await write('n.jsonl', lines.join('\n') + '\n'))).map((p) => p.answer)).toEqual(written);
    expect((await loadProblems(await write('n.json', `[\n${lines.join(',\n')}\n]\n`))).map((p) => p.answer)).toEqual(written);
  });

  test('aliases id and problem are accepted and unknown fields are kept in extra', async ({ write }) => {
    const file = await write(
      'alias.jsonl',
      jsonl({ id: 'p1', problem: 'Aliased?', answer: null, topic: 'algebra', meta: { level: 3, tags: ['x'] } }),
    );
    expect(await loadProblems(file)).toEqual([
      { id: 'p1', question: 'Aliased?', extra: { topic: 'algebra', meta: { level: 3, tags: ['x'] } } },
    ]);
  });

  // A JSONL written from IMO-AnswerBench's CSV (pandas keeps its column names) was refused, and with --id-column and --question-column
  // its "Short Answer" was kept as an extra; an "Answer" field was too: every problem ran ungraded, silently.
  test("JSON fields are found as CSV and Parquet columns are: IMO-AnswerBench's names, and any case", async ({ write }) => {
    const bench = await write('bench.jsonl', jsonl({ 'Problem ID': 'imo-1', Problem: 'Find x.', 'Short Answer': '3', Category: 'Algebra' }));
    expect(await loadProblems(bench)).toEqual([{ id: 'imo-1', question: 'Find x.', answer: '3', extra: { Category: 'Algebra' } }]);
    const cased = await write('cased.jsonl', jsonl({ ID: 'a', Question: 'Find y.', Answer: 4, Solution: 'y = 4', answer_v1: '5' }));
    expect(await loadProblems(cased)).toEqual([{ id: 'a', question: 'Find y.', answer: '4', solution: 'y = 4', extra: { answer_v1: '5' } }]);
    // Hugging Face's MATH-500 names its ids unique_id: the message lists the fields there are and names the flag.
    const error = await loadError(await write('math.jsonl', jsonl({ unique_id: 'test/a/1.json', problem: 'Find z.', answer: '1' })));
    expect(error.message).toContain('"problem_id" is missing (the line\'s fields: "unique_id", "problem", "answer")');
    expect(error.message).toContain('--id-column');
  });

  test('--id-column, --question-column and --answer-column name the fields of a JSON file; a problem without a named field is refused at its line', async ({ write }) => {
    const file = await write('named.jsonl', jsonl({ 'Problem ID': 'p1', Problem: 'Named?', 'Short Answer': '4', answer: 'other' }));
    expect(await loadProblems(file, { idColumn: 'Problem ID', questionColumn: 'Problem', answerColumn: 'Short Answer' })).toEqual([
      { id: 'p1', question: 'Named?', answer: '4', extra: { answer: 'other' } },
    ]);
    const error = await loadError(file, { idColumn: 'pid' });
    expect(error.message).toMatch(/named\.jsonl:1: "pid" \(the field --id-column names\) is missing/);
  });

  test('a 10 MB question loads intact', async ({ write }) => {
    const question = 'x'.repeat(10 * 1024 * 1024 - 3) + '\\n?';
    const file = await write('big.jsonl', jsonl({ problem_id: 'big', question, answer: '1' }, { problem_id: 'small', question: 'q' }));
    const problems = await loadProblems(file);
    expect(problems).toHaveLength(2);
    expect(problems[0]?.question.length).toBe(question.length);
    expect(problems[0]?.question).toBe(question);
  });

  test('a file that is one JSON array of objects loads', async ({ write }) => {
    const file = await write(
      'arr.json',
      JSON.stringify([{ problem_id: 'a', question: 'q1', answer: 1 }, { id: 2, problem: 'q2', topic: 't' }], null, 2),
    );
    expect(await loadProblems(file)).toEqual([
      { id: 'a', question: 'q1', answer: '1', extra: {} },
      { id: '2', question: 'q2', extra: { topic: 't' } },
    ]);
  });
});

describe('loadProblems: file-level errors', () => {
  test('a missing file names the file', async ({ dir }) => {
    const file = join(dir, 'nope.jsonl');
    const error = await loadError(file);
    expect(error.message.startsWith(`${file}: file not found.`), error.message).toBe(true);
  });

  test('a directory is reported as unreadable', async ({ dir }) => {
    const error = await loadError(dir);
    expect(error.message.startsWith(`${dir}: `)).toBe(true);
    expect(error.message).toContain('directory');
  });

  test('a device is refused unread; a pipe is read as the file it carries, up to the size bound', async ({ dir }) => {
    const zero = await loadError('/dev/zero');
    expect(zero.message).toBe('/dev/zero: this is a device, not a file. Pass the path of a .jsonl, .csv or .parquet problem file.');
    const line = '{"problem_id":"p1","question":"What is 2+3?","answer":"5"}\n';
    const fifo = join(dir, 'problems.jsonl');
    execFileSync('mkfifo', [fifo]);
    // A writer as `--input-file <(zcat problems.jsonl.gz)` has: the problems come through, the pipe is no file to stat the size of.
    const writer = spawn('sh', ['-c', `printf '%s' '${line}' > ${fifo}`]);
    const written = new Promise((resolve) => writer.once('exit', resolve));
    expect((await loadProblems(fifo)).map((p) => p.id)).toEqual(['p1']);
    await written;
    const endless = spawn('sh', ['-c', `yes '${line.trim()}' > ${fifo}`]);
    try {
      const big = await loadError(fifo, { maxBytes: 4 * 2 ** 20 });
      expect(big.message).toMatch(/more than the 4\.0 MiB tmas reads as a problem file/);
    } finally {
      endless.kill();
    }
  });

  // `sleep 1000 > fifo`, or a generator stuck before its first line, held tmas silent for as long, before any message; and once a
  // FIFO was given up, its open (or read) still blocked a thread of the process, which could not exit until a writer came or went.
  test('a pipe no process writes to, or whose writer sends nothing, is given up and let go', async ({ dir }) => {
    const fifo = join(dir, 'stuck.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect((await loadError(fifo, { pipeWaits: { openMs: 300, silenceMs: 300 } })).message).toBe(`${fifo}: no process writes to this FIFO (waited 0.3 s). Start the process that writes the problems into it, or pass a regular file.`);
    expect(loadInOwnProcess(fifo)).toBe('TMAS_INPUT');
    const held = join(dir, 'held.jsonl');
    execFileSync('mkfifo', [held]);
    const writer = spawn('sh', ['-c', `exec sleep 30 > ${held}`]);
    try {
      const error = await loadError(held, { pipeWaits: { openMs: 300, silenceMs: 300 } });
      expect(error.message).toMatch(/^\S+held\.jsonl: the process writing to this FIFO sent nothing for 0\.3 s \(\d+ bytes read before\)\. Write the problems to a file first and pass its path/);
      expect(loadInOwnProcess(held)).toBe('TMAS_INPUT');
    } finally {
      writer.kill();
    }
  });

  // `--input-file <(python export.py)`: the generator opens the FIFO at once, then may load a dataset before its first line.
  test('a writer that takes longer than the wait for a writer before its first line is read to the end', async ({ dir }) => {
    const slow = join(dir, 'slow.jsonl');
    execFileSync('mkfifo', [slow]);
    const line = JSON.stringify({ problem_id: 'a', question: 'What is 1+1?', answer: '2' });
    const writer = spawn('sh', ['-c', `exec > ${slow}; sleep 1; echo '${line}'`]);
    try {
      const problems = await loadProblems(slow, { pipeWaits: { openMs: 300, silenceMs: 30_000 } });
      expect(problems.map(({ id }) => id)).toEqual(['a']);
    } finally {
      writer.kill();
    }
  });

  test('an empty file, or one of only blank lines, has no problems', async ({ write }) => {
    for (const [name, body] of [['empty.jsonl', ''], ['blank.jsonl', '\n  \r\n\n'], ['empty.csv', '\uFEFF']] as const) {
      const file = await write(name, body);
      const error = await loadError(file);
      expect(error.message.startsWith(`${file}: no problems found`), error.message).toBe(true);
    }
  });

  // A benchmark's .jsonl.gz, an .xlsx or a Parquet file under another name was refused for an invalid UTF-8 byte
  // ("convert it from latin1") or as a line that is not JSON.
  test('a compressed file, a ZIP archive or a Parquet file under a text name is named for what it is', async ({ write }) => {
    const line = jsonl({ problem_id: 'a', question: 'q' });
    const cases: Array<[string, Uint8Array, string[]]> = [
      ['p.jsonl.gz', gzipSync(line), ['gzip-compressed data', 'zcat']],
      ['p.xlsx', Buffer.from('PK\u0003\u0004 workbook parts'), ['ZIP archive', 'as CSV']],
      ['p.jsonl', Buffer.from('PAR1 pages and footer PAR1'), ['a Parquet file', 'ends in .parquet']],
    ];
    for (const [name, bytes, phrases] of cases) {
      const file = await write(name, bytes);
      const error = await loadError(file);
      expect(error.message.startsWith(`${file}: this is`), error.message).toBe(true);
      for (const phrase of phrases) expect(error.message).toContain(phrase);
    }
    // Text that merely starts with the same letters is still text.
    expect(await loadProblems(await write('par.csv', 'PAR1,Problem\n1,q\n'), { idColumn: 'PAR1' })).toEqual([{ id: '1', question: 'q', extra: {} }]);
  });

  // UTF-16 without a byte-order mark, or a file padded with zeros after a crash, is valid UTF-8: it was refused as
  // "not valid JSON (Unexpected token '<NUL>')", the NUL printed raw, or its NULs were read as a CSV header's names.
  test('a NUL byte is refused with its line and offset, as not text', async ({ write }) => {
    const line = jsonl({ problem_id: 'a', question: 'q' });
    const padded = await write('padded.jsonl', Buffer.concat([Buffer.from(line), Buffer.alloc(64)]));
    const error = await loadError(padded);
    expectAt(error, padded, 2);
    expect(error.message).toContain(`a NUL byte at byte offset ${Buffer.byteLength(line)}`);
    const utf16 = await write('utf16.csv', Buffer.from('Problem ID,Problem\na,q\n', 'utf16le'));
    expect((await loadError(utf16)).message).toContain(`${utf16}:1: a NUL byte at byte offset 1 (counting from 0): this is not text (UTF-16 without a byte-order mark`);
  });

  test('invalid UTF-8 names the line and byte offset', async ({ write }) => {
    const head = Buffer.from('{"problem_id":"a","question":"ok"}\n{"problem_id":"b","question":"caf');
    const bytes = Buffer.concat([head, Buffer.from([0xe9]), Buffer.from('"}\n')]);
    const file = await write('latin1.jsonl', bytes);
    const error = await loadError(file);
    expectAt(error, file, 2);
    expect(error.message).toContain(`byte offset ${head.length}`);
    expect(error.message).toContain('0xe9');
  });

  test('a UTF-16 file is told apart from stray bad bytes', async ({ write }) => {
    const file = await write('u16.jsonl', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"a":1}', 'utf16le')]));
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('UTF-16');
  });
});

describe('loadProblems: JSONL line errors', () => {
  test('a line that is not JSON quotes the parser and names the line', async ({ write }) => {
    const file = await write('bad.jsonl', '{"problem_id":"a","question":"q"}\n\n{"problem_id":"b", "question": oops}\n');
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toMatch(/not valid JSON \(Unexpected token 'o'\)/);
  });

  test('the parser reason is cut short on a huge broken line', async ({ write }) => {
    const file = await write('huge.jsonl', `{"problem_id":"a","question":"${'y'.repeat(100_000)}" trailing}\n`);
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message.length).toBeLessThan(600);
  });

  test('a line that is JSON but not an object', async ({ write }) => {
    const file = await write('arr-line.jsonl', '{"problem_id":"a","question":"q"}\n"just a string"\n');
    const error = await loadError(file);
    expectAt(error, file, 2);
    expect(error.message).toContain('is a string, not a JSON object');
  });

  test('JSONL whose first line is an array is read as JSONL, not as an array file', async ({ write }) => {
    const file = await write('first-array.jsonl', '[1, 2]\n{"problem_id":"a","question":"q"}\n');
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('is an array, not a JSON object');
  });

  test('a missing question', async ({ write }) => {
    const file = await write('noq.jsonl', jsonl({ problem_id: 'a', question: 'q' }, { problem_id: 'b', answer: '3' }));
    const error = await loadError(file);
    expectAt(error, file, 2);
    expect(error.message).toContain('"question" is missing');
  });

  test('an empty question', async ({ write }) => {
    const file = await write('emptyq.jsonl', jsonl({ problem_id: 'a', question: '  ' }));
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('"question" is empty');
  });

  test('a question that is not a string', async ({ write }) => {
    const file = await write('numq.jsonl', jsonl({ problem_id: 'a', question: 12 }));
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('"question" is a number');
  });

  test('a missing problem_id is rejected, not numbered', async ({ write }) => {
    const file = await write('noid.jsonl', jsonl({ problem_id: 'a', question: 'q' }, { problem_id: 'b', question: 'q' }, { question: 'r' }));
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('"problem_id" is missing');
  });

  test('a duplicate problem_id names both lines', async ({ write }) => {
    const file = await write('dup.jsonl', jsonl({ problem_id: 'a', question: 'q' }, { problem_id: 'b', question: 'q' }, { id: 'a', question: 'r' }));
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('duplicate problem id "a", already used on line 1');
  });

  // "p1" and "p1 " ran as two problems that every table showed alike, and " p1" kept its space in every table.
  test('ids are read without the spaces around them: "p1 " duplicates "p1", naming both lines, in JSONL and CSV alike', async ({ write }) => {
    const spaced = await write('spaced.jsonl', jsonl({ problem_id: ' p1\u00a0', question: 'q' }, { problem_id: 'p2', question: 'q' }));
    expect((await loadProblems(spaced)).map((p) => p.id)).toEqual(['p1', 'p2']);
    const file = await write('dup-space.jsonl', jsonl({ problem_id: 'p1', question: 'q' }, { problem_id: 'p2', question: 'q' }, { problem_id: 'p1 ', question: 'r' }));
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('duplicate problem id "p1" (written "p1 ": the spaces around an id are not part of it), already used on line 1');
    const csv = await write('dup-space.csv', 'id,question\n" p1",q\np1,r\n');
    expect((await loadError(csv)).message).toContain('duplicate problem id "p1", already used on line 2 (written " p1": the spaces around an id are not part of it)');
  });

  test('an id holding a control character, or over 256 characters, is rejected at its line (it broke every line that printed it)', async ({ write }) => {
    const control = await write('ctl.jsonl', jsonl({ problem_id: 'a', question: 'q' }, { problem_id: 'b\nc', question: 'q' }));
    const error = await loadError(control);
    expectAt(error, control, 2);
    expect(error.message).toContain('problem id "b\\nc" holds a control character');
    const long = await write('long.jsonl', jsonl({ problem_id: 'x'.repeat(257), question: 'q' }));
    expect((await loadError(long)).message).toContain('is 257 characters long, over 256');
    await expect(loadProblems(await write('max.jsonl', jsonl({ problem_id: 'x'.repeat(256), question: 'q' })))).resolves.toHaveLength(1);
  });

  test('an id that is not an integer is rejected', async ({ write }) => {
    const file = await write('fracid.jsonl', '{"problem_id":"a","question":"q"}\n{"problem_id":1.5,"question":"q"}\n');
    const error = await loadError(file);
    expectAt(error, file, 2);
    expect(error.message).toContain('"problem_id" is the number 1.5, not an integer');
  });

  // An integer answer above 2^53 was refused ("Write the answer as a string"), and so was such an id: JSON.parse had rounded them.
  test('an integer answer or id above 2^53 is read as the digits the file writes, in JSONL, a JSON array and CSV', async ({ write }) => {
    const line = '{"problem_id":12345678901234567890,"question":"q","answer":-12345678901234567891}';
    const expected = [{ id: '12345678901234567890', question: 'q', answer: '-12345678901234567891', extra: {} }];
    expect(await loadProblems(await write('bigint.jsonl', `${line}\n`))).toEqual(expected);
    expect(await loadProblems(await write('bigint.json', `[${line}]`))).toEqual(expected);
    expect(await loadProblems(await write('bigint.csv', 'problem_id,question,answer\n12345678901234567890,q,-12345678901234567891\n'))).toEqual(expected);
    // An id in another form than its digits could name two problems alike: it is still refused.
    const exponent = await write('expid.jsonl', '{"problem_id":1e20,"question":"q"}\n');
    expect((await loadError(exponent)).message).toContain('"problem_id" is the number 1e20');
  });
});

describe('loadProblems: JSON array errors', () => {
  test('an element that is not an object names its index and line', async ({ write }) => {
    const file = await write('arr.json', '[\n  {"problem_id": "a", "question": "q"},\n  "stray"\n]\n');
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('(array index 1)');
    expect(error.message).toContain('not a JSON object');
  });

  test('broken JSON inside an element names that element', async ({ write }) => {
    const file = await write('arr.json', '[\n  {"problem_id": "a", "question": "q"},\n  {"problem_id": "b",\n   "question": nope}\n]\n');
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('(array index 1)');
    expect(error.message).toContain('not valid JSON');
  });

  test('a trailing comma is pointed at', async ({ write }) => {
    const file = await write('arr.json', '[\n  {"problem_id": "a", "question": "q"},\n]\n');
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('trailing comma');
  });

  test('a missing question in an element names the index', async ({ write }) => {
    const file = await write('arr.json', JSON.stringify([{ problem_id: 'a', question: 'q' }, { problem_id: 'b' }], null, 1));
    const error = await loadError(file);
    expectAt(error, file, 6);
    expect(error.message).toContain('(array index 1): "question" is missing');
  });

  test('a duplicate id in an array names both elements', async ({ write }) => {
    const file = await write('arr.json', '[{"problem_id":"a","question":"q"},\n{"problem_id":"a","question":"r"}]');
    const error = await loadError(file);
    expect(error.message.startsWith(`${file}:2 (array index 1): duplicate problem id "a", already used on line 1 (array index 0)`), error.message).toBe(true);
  });

  test('an empty array has no problems', async ({ write }) => {
    const file = await write('arr.json', '[ ]\n');
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('array is empty');
  });
});

describe('loadProblems: CSV', () => {
  const bench =
    '\uFEFFProblem ID,Problem,Short Answer,Category,Subcategory,Source\r\n' +
    'imo-1,"Find $x$ such that\r\n$x^2 = 4$, $x > 0$.",2,Algebra,Equations,"Made up, 2025"\r\n' +
    '\r\n' +
    'imo-2,"He said ""hi"".",,Combinatorics,Counting,X\r\n';

  // A quoted field's CRLF reached the prompt as LF: its line breaks were made LF before the file was parsed.
  test('default columns, BOM, CRLF, quoted newlines as written, commas and quotes', async ({ write }) => {
    const problems = await loadProblems(await write('bench.csv', bench));
    expect(problems).toEqual([
      {
        id: 'imo-1',
        // As written: the prompt gets the question's own CRLF.
        question: 'Find $x$ such that\r\n$x^2 = 4$, $x > 0$.',
        answer: '2',
        extra: { Category: 'Algebra', Subcategory: 'Equations', Source: 'Made up, 2025' },
      },
      { id: 'imo-2', question: 'He said "hi".', extra: { Category: 'Combinatorics', Subcategory: 'Counting', Source: 'X' } },
    ]);
  });

  // A run made from this file before quoted line breaks were kept as written stored its question with LF.
  test('a run whose store holds such a question with LF takes the same file as its input on a resume; another question is refused', async ({ write }) => {
    const file = await write('bench.csv', bench);
    const stored = JSON.parse(JSON.stringify(await loadProblems(file)).replaceAll('\\r\\n', '\\n')) as Problem[];
    expect(stored[0]?.question).toBe('Find $x$ such that\n$x^2 = 4$, $x > 0$.');
    await expect(checkSameProblems({ inputFile: file } as RunFlags, stored, 'run', 'Leave --input-file out.')).resolves.toBeUndefined();
    const other = stored.map((problem, i) => (i === 0 ? { ...problem, question: 'Another question.' } : problem));
    await expect(checkSameProblems({ inputFile: file } as RunFlags, other, 'run', 'Leave --input-file out.')).rejects.toMatchObject({ code: 'TMAS_RESUME_CONFLICT' });
  });

  test('column mapping options pick other columns', async ({ write }) => {
    const file = await write('mine.CSV', 'key,text,gold,notes\n1,"a\nb",7,n\n');
    const problems = await loadProblems(file, { idColumn: 'key', questionColumn: 'text', answerColumn: 'gold' });
    expect(problems).toEqual([{ id: '1', question: 'a\nb', answer: '7', extra: { notes: 'n' } }]);
  });

  test('a CSV without the default answer column loads without answers', async ({ write }) => {
    const problems = await loadProblems(await write('noans.csv', 'Problem ID,Problem\np,q\n'));
    expect(problems).toEqual([{ id: 'p', question: 'q', extra: {} }]);
  });

  test('through tmas run\'s settings too: no column flag loads a CSV without answers; a named one must exist', async ({ write }) => {
    const file = await write('noans.csv', 'Problem ID,Problem\np,q\n');
    const configured = (args: string[]) => toRunConfig(parseRunFlags(['--input-file', file, ...args]), {}).config.problems;
    expect(await loadProblems(file, configured([]))).toEqual([{ id: 'p', question: 'q', extra: {} }]);
    expect((await loadError(file, configured(['--answer-column', 'Short Answer']))).message).toContain('no column "Short Answer"');
  });

  // "id, question, answer" was refused (no column "question": the header held " question"), and a quote opening after the space was a parse error.
  test('a space after each comma, as CSV written by hand has, is not part of the names or the values; quoted text keeps its own', async ({ write }) => {
    const file = await write('spaced.csv', 'id, question, answer\n1, "What is 1, 2, 3\'s sum?  ", 6\n');
    expect(await loadProblems(file)).toEqual([{ id: '1', question: "What is 1, 2, 3's sum?  ", answer: '6', extra: {} }]);
  });

  // An empty --id-column read no field of a JSONL file (its defaults were used, silently) and looked for a column named "" in a CSV.
  test('an empty column flag is refused as a usage error', async ({ write }) => {
    const file = await write('p.jsonl', jsonl({ problem_id: 'a', question: 'q' }));
    for (const flag of ['--id-column', '--question-column', '--answer-column']) {
      let caught: unknown;
      try {
        toRunConfig(parseRunFlags(['--input-file', file, flag, ' ']), {});
      } catch (error) {
        caught = error;
      }
      expect(isUserError(caught) && caught.code === 'TMAS_USAGE' && caught.message.startsWith(`${flag} is empty`), String(caught)).toBe(true);
    }
  });

  test('a missing column is named, with the names tried and the header that was found', async ({ write }) => {
    const file = await write('cols.csv', 'uid,text,gold\n1,q,2\n');
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('the CSV header has none of the columns tmas looks for the problem ids in ("Problem ID", "problem_id", "id"); it has: "uid", "text", "gold"');
    expect(error.message).toContain('--id-column');
  });

  // A CSV with the JSONL names had its answers dropped (its "answer" column kept as an extra) or was refused for its ids:
  // a --no-proof run of it graded nothing. Columns are now picked as a Parquet file's are.
  test('the JSONL names, and a column named solution, are read as in JSONL and Parquet', async ({ write }) => {
    const file = await write('jsonl-names.csv', 'problem_id,question,answer,solution,topic\np1,What is 2+3?,5,Since 2+3=5.,sums\n');
    expect(await loadProblems(file)).toEqual([{ id: 'p1', question: 'What is 2+3?', answer: '5', solution: 'Since 2+3=5.', extra: { topic: 'sums' } }]);
  });

  test('the names are matched in any case when none matches exactly: a header ID,Question,Answer has its answers', async ({ write }) => {
    const file = await write('cased.csv', 'ID,Question,Answer\np1,What is 7*6?,42\n');
    expect(await loadProblems(file)).toEqual([{ id: 'p1', question: 'What is 7*6?', answer: '42', extra: {} }]);
  });

  test('an answer column named explicitly must exist', async ({ write }) => {
    const file = await write('cols.csv', 'Problem ID,Problem\n1,q\n');
    const error = await loadError(file, { answerColumn: 'Answer' });
    expectAt(error, file, 1);
    expect(error.message).toContain('no column "Answer"');
  });

  // The CRLF of a quoted field counted as two lines once the file was parsed as written.
  test.for([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as const)('row errors report the line their record starts on (line ends %s)', async ([, end], { write }) => {
    // Record 2 spans lines 2-4, so the empty-id record 3 starts on line 6 (after a blank line).
    const file = await write('rows.csv', 'Problem ID,Problem\na,"one\ntwo\nthree"\n\n,"four"\n'.replace(/\n/g, end));
    const error = await loadError(file);
    expectAt(error, file, 6);
    expect(error.message).toContain('the "Problem ID" cell is empty');
    const fields = await write('fields.csv', 'Problem ID,Problem\na,"x\ny"\nb,c,d\n'.replace(/\n/g, end));
    expectAt(await loadError(fields), fields, 4);
  });

  test('a quote that is never closed points at its record', async ({ write }) => {
    const file = await write('quote.csv', 'Problem ID,Problem\na,b\nc,"open\nstill open\n');
    const error = await loadError(file);
    expectAt(error, file, 3);
    expect(error.message).toContain('Quote Not Closed');
  });

  test('a row with the wrong number of fields points at its record', async ({ write }) => {
    const file = await write('fields.csv', 'Problem ID,Problem\na,"x\ny"\nb,c,d\n');
    const error = await loadError(file);
    expectAt(error, file, 4);
    expect(error.message).toContain('Invalid Record Length');
  });

  test('duplicate ids across CSV rows name both lines', async ({ write }) => {
    const file = await write('dup.csv', 'Problem ID,Problem\na,"x\ny"\na,z\n');
    const error = await loadError(file);
    expectAt(error, file, 4);
    expect(error.message).toContain('already used on line 2');
  });

  // A spreadsheet saved in a decimal-comma locale, or a tab-separated export, was refused at its first row holding a comma,
  // with advice about quoting; a .tsv was read as JSONL.
  test("semicolon- and tab-separated files load as their comma-separated twins; the separator is the header's", async ({ write }) => {
    const expected = [
      { id: 'p1', question: 'What is 1,5 + 1?', answer: '2,5', extra: {} },
      { id: 'p2', question: 'Say "a;b"', answer: '3', extra: {} },
    ];
    expect(await loadProblems(await write('semi.csv', 'problem_id;question;answer\r\np1;What is 1,5 + 1?;2,5\r\np2;"Say ""a;b""";3\r\n'))).toEqual(expected);
    expect(await loadProblems(await write('tabs.tsv', 'problem_id\tquestion\tanswer\np1\tWhat is 1,5 + 1?\t2,5\np2\tSay "a;b"\t3\n'))).toEqual(expected);
    expect(await loadProblems(await write('tabs.csv', 'problem_id\tquestion\tanswer\np1\tWhat is 1,5 + 1?\t2,5\np2\tSay "a;b"\t3\n'))).toEqual(expected);
    const error = await loadError(await write('ragged.csv', 'problem_id;question;answer\np1;q;1;2\n'));
    expect(error.message).toContain('split on semicolons');
  });

  test('a header with no rows has no problems', async ({ write }) => {
    const file = await write('header.csv', 'Problem ID,Problem,Short Answer\n');
    const error = await loadError(file);
    expectAt(error, file, 1);
    expect(error.message).toContain('no problems');
  });
});

describe('problems/demo.jsonl', () => {
  test('loads at least 30 problems, all answered, with unique ids', async () => {
    const file = fileURLToPath(new URL('../../problems/demo.jsonl', import.meta.url));
    const problems = await loadProblems(file);
    expect(problems.length).toBeGreaterThanOrEqual(30);
    expect(problems.every((p) => p.answer !== undefined && p.answer.trim() !== '')).toBe(true);
    expect(new Set(problems.map((p) => p.id)).size).toBe(problems.length);
    expect(problems.every((p) => typeof p.extra['topic'] === 'string')).toBe(true);
  });
});
