/**
 * `tmas grade`: the answer grader on the command line, for one pair of
 * answers or for a JSONL file of them (checking the grader against labelled
 * cases, or regrading saved outputs).
 */
import { readFile } from 'node:fs/promises';
import { UserError } from '../../kernel/errors.ts';
import { gradeAnswer, statedAnswer, type GradeOptions } from '../../grader/index.ts';
import { thrownText } from '../../kernel/thrown-text.ts';

/** Flags of `tmas grade`. */
export interface GradeCommandOptions {
  gold?: string;
  pred?: string;
  jsonl?: string;
  units?: 'ignore' | 'strict';
}

/** Where the command writes its report. */
export interface GradeCommandIo {
  stdout: (line: string) => void;
}

const INPUT = 'TMAS_INPUT';

/** A reference is an answer; a boxed one is read as a response would be. */
function referenceOf(text: string): string {
  return /\\(?:boxed|fbox)(?![a-zA-Z])/.test(text) ? statedAnswer(text) : text;
}

function inputError(place: string, what: string, fix: string, cause?: unknown): UserError {
  return new UserError(INPUT, `${place}: ${what}. ${fix}.`, cause === undefined ? undefined : { cause });
}

async function readLines(file: string): Promise<string[]> {
  try {
    // LF, CRLF or a lone CR (classic Mac OS) ends a line, as in a problem file.
    return (await readFile(file, 'utf8')).replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    const what = code === 'ENOENT' ? 'file not found' : `cannot read the file (${thrownText(error)})`;
    throw inputError(file, what, `Check the path given to --jsonl; a relative path is resolved from ${process.cwd()}`, error);
  }
}

interface Row {
  gold: string;
  pred: string | null;
  equal?: boolean;
  /** The problem's text, when the line gives it: a form it asks for is then read (GradeContext). */
  question?: string;
}

/** Validates one parsed line; throws `TMAS_INPUT` naming file and line. */
function toRow(value: unknown, place: string): Row {
  const fix = 'Each line must be a JSON object like {"gold": "\\\\frac{1}{2}", "pred": "0.5"}';
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw inputError(place, 'the line is not a JSON object', fix);
  const gold: unknown = Reflect.get(value, 'gold');
  const pred: unknown = Reflect.get(value, 'pred');
  const equal: unknown = Reflect.get(value, 'equal');
  const question: unknown = Reflect.get(value, 'question');
  if (typeof gold !== 'string') throw inputError(place, '"gold" is missing or not a string', fix);
  if (typeof pred !== 'string' && pred !== null) throw inputError(place, '"pred" is missing or not a string (null is allowed)', fix);
  if (equal !== undefined && typeof equal !== 'boolean') throw inputError(place, '"equal" must be true or false when present', fix);
  if (question !== undefined && typeof question !== 'string') throw inputError(place, '"question" must be a string when present', fix);
  return { gold, pred, ...(equal === undefined ? {} : { equal }), ...(question === undefined ? {} : { question }) };
}

async function gradeFile(file: string, options: GradeOptions, io: GradeCommandIo): Promise<number> {
  const lines = await readLines(file);
  let labelled = 0;
  let agreed = 0;
  let unsure = 0;
  for (let index = 0; index < lines.length; index += 1) {
    const text = (lines[index] ?? '').trim();
    if (text === '') continue;
    const place = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const reason = thrownText(error);
      throw inputError(place, `invalid JSON (${reason})`, 'Each line must be one complete JSON object', error);
    }
    const row = toRow(value, place);
    const context = { ...(row.pred === null ? {} : { response: row.pred }), ...(row.question === undefined ? {} : { question: row.question }) };
    const grade = gradeAnswer(row.pred === null ? null : statedAnswer(row.pred), referenceOf(row.gold), options, context);
    if (grade.verdict === 'unsure') unsure += 1;
    io.stdout(JSON.stringify({ line: index + 1, equal: grade.equal, verdict: grade.verdict, pred: grade.pred, gold: grade.gold }));
    if (row.equal !== undefined) {
      labelled += 1;
      if (row.equal === grade.equal) agreed += 1;
    }
  }
  if (labelled > 0) io.stdout(`agreement: ${agreed}/${labelled} (${((100 * agreed) / labelled).toFixed(1)}%)`);
  io.stdout(`unsure: ${unsure}`);
  return 0;
}

/**
 * Runs `tmas grade` and returns the exit code. With `--gold G --pred P` it
 * prints `equal`, `not equal` or `unsure`, then `pred: ...` and `gold: ...`
 * (the normalised forms), and exits 0 when equal, 1 when not (like `cmp`),
 * 2 when unsure, so scripts can test the result. With `--jsonl FILE` it
 * prints one JSON line `{line, equal, verdict, pred, gold}` per row, then
 * `agreement: X/Y (Z%)` when rows carry an `equal` label, then `unsure: N`,
 * and exits 0. A prediction is read with the run's extraction
 * (`statedAnswer`): a whole response is reduced to its answer, a bare answer
 * is kept; a response that gives several different final answers is
 * `unsure`, as in a run. A row's optional `question` is read as a run reads
 * the problem's (a form it asks for).
 *
 * @throws UserError `TMAS_INPUT` for a missing or unreadable file or a bad
 * line (the message names file and line), or for missing flags.
 */
export async function runGradeCommand(options: GradeCommandOptions, io: GradeCommandIo): Promise<number> {
  const gradeOptions: GradeOptions = { units: options.units ?? 'ignore' };
  if (options.jsonl !== undefined) return gradeFile(options.jsonl, gradeOptions, io);
  if (options.gold === undefined || options.pred === undefined) {
    throw new UserError(INPUT, 'tmas grade needs --gold G and --pred P, or --jsonl FILE.');
  }
  const grade = gradeAnswer(statedAnswer(options.pred), referenceOf(options.gold), gradeOptions, { response: options.pred });
  io.stdout(grade.verdict === 'different' ? 'not equal' : grade.verdict);
  io.stdout(`pred: ${grade.pred}`);
  io.stdout(`gold: ${grade.gold}`);
  return grade.verdict === 'equal' ? 0 : grade.verdict === 'unsure' ? 2 : 1;
}
