/**
 * Turns one parsed JSON value (a JSONL line or an element of a JSON array) into
 * a `Problem`: field aliases, type checks, and every other field kept in `extra`.
 *
 * Accepted fields: `problem_id` (aliases `id`, `Problem ID`), `question` (aliases
 * `problem`, `Problem`), optional `answer` (alias `Short Answer`) and `solution`, each
 * exactly and then in any case, or the fields `--id-column`, `--question-column` and
 * `--answer-column` name. `null` or a blank string for an optional field means "not
 * given". When both a name and its alias are present the name wins and the alias is
 * kept in `extra`.
 */
import { COLUMN_FIELDS, firstPresent, SOLUTION_COLUMN } from './columns.ts';
import { inputError, quote } from './input-error.ts';
import { topLevelNumberText } from './json-number-text.ts';
import { describeJson, isJsonObject } from './json-parse.ts';
import { locatedProblem, type LocatedProblem, type SourceLocation } from './problem.ts';

/** One parsed JSON value and where it starts in its file. */
export interface JsonItem {
  value: unknown;
  where: SourceLocation;
  /** The JSON text the value was parsed from (its line, or its array element), where a number answer is read back as written. */
  source?: string;
}

/**
 * The names each field is looked for under when no flag names it: the JSONL names, then IMO-AnswerBench's
 * CSV names (a JSONL written from its CSV by pandas has them), each exactly and then in any case, as a
 * CSV's or a Parquet file's columns are: an "Answer" field was kept as an extra, its problem silently ungraded.
 */
const DEFAULT_KEYS = {
  id: [...COLUMN_FIELDS.id.jsonNames, COLUMN_FIELDS.id.csvDefault],
  question: [...COLUMN_FIELDS.question.jsonNames, COLUMN_FIELDS.question.csvDefault],
  answer: [...COLUMN_FIELDS.answer.jsonNames, COLUMN_FIELDS.answer.csvDefault],
  solution: [SOLUTION_COLUMN],
};

/** The fields that hold the id, the question and the answer when not the default names (`--id-column`, `--question-column`, `--answer-column`). */
export interface JsonFields {
  id?: string | null;
  question?: string | null;
  answer?: string | null;
}

/** The field a flag names, which every problem must have: a problem without it is a mistake at its line. */
function namedField(value: Record<string, unknown>, field: string, flag: string, where: SourceLocation): string {
  if (Object.hasOwn(value, field)) return field;
  throw inputError(where, `"${field}" (the field ${flag} names) is missing`, `Check the field's name, or leave ${flag} out to read the default fields`);
}

/** Validates one JSON item and converts it to a problem, its fields named by `fields` where given; throws `TMAS_INPUT` at its line. */
export function toProblemFromJson(item: JsonItem, fields: JsonFields = {}): LocatedProblem {
  const { value, where } = item;
  const subject = where.index === undefined ? 'the line' : 'the array element';
  if (!isJsonObject(value)) {
    throw inputError(
      where,
      `${subject} is ${describeJson(value)}, not a JSON object`,
      'Give each problem as one object, e.g. {"problem_id": "p1", "question": "What is 1+1?", "answer": "2"}',
    );
  }
  // A field that is null counts as absent, so that another name of it can be picked.
  const given = Object.keys(value).filter((key) => value[key] !== null);
  const fieldsHere = `the ${subject.replace('the ', '')}'s fields: ${Object.keys(value).slice(0, 12).map((key) => quote(key, 40)).join(', ') || 'none'}`;
  const idKey = fields.id ? namedField(value, fields.id, '--id-column', where) : firstPresent(DEFAULT_KEYS.id, given);
  const questionKey = fields.question ? namedField(value, fields.question, '--question-column', where) : firstPresent(DEFAULT_KEYS.question, given);
  const answerKey = fields.answer ? namedField(value, fields.answer, '--answer-column', where) : (firstPresent(DEFAULT_KEYS.answer, given) ?? 'answer');
  const solutionKey = firstPresent(DEFAULT_KEYS.solution, given.filter((key) => key !== idKey && key !== questionKey && key !== answerKey)) ?? SOLUTION_COLUMN;
  const writtenAs = (key: string) => () => (item.source === undefined ? undefined : topLevelNumberText(item.source, key));
  const id = toId(idKey === undefined ? undefined : value[idKey], where, fieldsHere, writtenAs(idKey ?? ''));
  const question = toQuestion(questionKey === undefined ? undefined : value[questionKey], questionKey, where, fieldsHere);
  const answer = toAnswer(value[answerKey], where, writtenAs(answerKey));
  const solution = toSolution(value[solutionKey], where);
  const used = new Set<string>([idKey ?? '', questionKey ?? '', answerKey, solutionKey]);
  // fromEntries defines properties, so a "__proto__" field stays a plain field.
  const extra = Object.fromEntries(Object.entries(value).filter(([key]) => !used.has(key)));
  return locatedProblem({ id, question, answer, solution, extra }, where);
}

/** An integer as JSON writes one: no fraction, no exponent. */
const INTEGER_TEXT = /^-?(?:0|[1-9]\d*)$/;

function toId(value: unknown, where: SourceLocation, fieldsHere: string, writtenAs: () => string | undefined): string {
  if (value === undefined) {
    // Rejected rather than numbered by position: results are keyed by id, and a
    // position-based id would point at another problem once the file is edited.
    throw inputError(
      where,
      `"problem_id" is missing (${fieldsHere})`,
      'Add a unique "problem_id": "<id>" to every problem (the aliases "id" and "Problem ID" are also accepted), or name the field that holds the ids with --id-column; ids key the saved results, so an interrupted run can resume',
    );
  }
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value)) return String(value);
    // JSON.parse has rounded an integer above 2^53 (two ids could merge): its digits are read back as the file wrote them.
    const written = Number.isInteger(value) ? writtenAs() : undefined;
    if (written !== undefined && INTEGER_TEXT.test(written)) return written;
    const why = Number.isInteger(value) ? 'an integer written in a form other than its digits' : 'not an integer';
    throw inputError(where, `"problem_id" is the number ${written ?? value}, ${why}`, 'Write the id as a string, e.g. "problem_id": "42"');
  }
  if (typeof value !== 'string') {
    throw inputError(where, `"problem_id" is ${describeJson(value)}`, 'Make it a string (or an integer), e.g. "problem_id": "p1"');
  }
  if (value.trim() === '') throw inputError(where, '"problem_id" is empty', 'Give every problem a unique, non-empty id');
  return value;
}

function toQuestion(value: unknown, key: string | undefined, where: SourceLocation, fieldsHere: string): string {
  const name = key ?? 'question';
  if (value === undefined) {
    throw inputError(
      where,
      `"question" is missing (${fieldsHere})`,
      'Add "question": "<the problem statement>" (the aliases "problem" and "Problem" are also accepted), or name the field that holds it with --question-column',
    );
  }
  if (typeof value !== 'string') {
    throw inputError(where, `"${name}" is ${describeJson(value)}, not a string`, 'Write the problem statement as a JSON string');
  }
  if (value.trim() === '') throw inputError(where, `"${name}" is empty`, 'Write the problem statement, or delete the problem');
  return value;
}

/** The answer as text; a number as the file wrote it (`writtenAs`), since the double JSON.parse made of it may differ (1e400, a 20-digit decimal, an integer above 2^53). */
function toAnswer(value: unknown, where: SourceLocation, writtenAs: () => string | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    // JSON.parse has rounded an integer above 2^53 (12345678901234567890 became …7000): the digits graded are the file's.
    const written = writtenAs();
    if (written !== undefined) return written;
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) {
      throw inputError(where, `"answer" is the number ${value}, too large for a JSON number to hold exactly`, 'Write the answer as a string, e.g. "answer": "12345678901234567890"');
    }
    return String(value);
  }
  if (typeof value !== 'string') {
    throw inputError(where, `"answer" is ${describeJson(value)}`, 'Write the answer as a string (or a number), e.g. "answer": "\\\\frac{3}{8}"');
  }
  return value.trim() === '' ? undefined : value;
}

function toSolution(value: unknown, where: SourceLocation): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw inputError(where, `"solution" is ${describeJson(value)}, not a string`, 'Write the reference solution as a JSON string, or remove the field');
  }
  return value.trim() === '' ? undefined : value;
}

