/**
 * Problem files whose whole content is one JSON array of objects.
 *
 * Accepted (rather than rejected with "convert to JSONL") because exported data
 * sets often come this way and the intent is unambiguous. The file must start
 * with `[`; errors then name the element's array index and the line it starts on.
 * A file that starts with `[` but is not one array (say, JSONL whose first line
 * is an array) is left to the JSONL reader, which reports that line.
 */
import { inputError } from './input-error.ts';
import { lineAt, parseJson, type JsonParse } from './json-parse.ts';
import type { JsonItem } from './json-record.ts';

/** Parses `text` as one JSON array; `undefined` when the text is not meant as one. */
export function parseJsonArray(text: string, file: string): JsonItem[] | undefined {
  if (!text.trimStart().startsWith('[')) return undefined;
  const whole = parseJson(text);
  if (whole.ok && Array.isArray(whole.value)) {
    const elements: unknown[] = whole.value;
    const slices = elementSlices(text);
    return elements.map((value, index) => {
      const slice = slices[index];
      return { value, where: { file, line: slice?.line ?? 1, index }, ...(slice === undefined ? {} : { source: text.slice(slice.start, slice.end) }) };
    });
  }
  const firstLine = text.split('\n').find((line) => line.trim() !== '') ?? '';
  if (parseJson(firstLine).ok) return undefined;
  throw locateArrayError(text, file, whole);
}

interface ElementSlice {
  start: number;
  end: number;
  /** Line of the element's first non-blank character. */
  line: number;
}

/**
 * Finds the top-level elements of an array by tracking strings and nesting, so
 * each can be given a line. Tolerates broken JSON inside the elements, which is
 * what lets an error be pinned to the element that holds it.
 */
function elementSlices(text: string): ElementSlice[] {
  const slices: ElementSlice[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = 1;
  let start = -1;
  let startLine = 0;
  const open = (at: number): void => {
    start = at;
    startLine = 0;
  };
  const close = (at: number): void => {
    slices.push({ start, end: at, line: startLine === 0 ? line : startLine });
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    if (depth >= 1 && startLine === 0 && ch !== undefined && !/\s/.test(ch)) startLine = line;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') {
      depth++;
      if (depth === 1) open(i + 1);
    } else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) {
        close(i);
        return slices;
      }
    } else if (ch === ',' && depth === 1) {
      close(i);
      open(i + 1);
    }
  }
  if (start !== -1) close(text.length);
  return slices;
}

function locateArrayError(text: string, file: string, whole: JsonParse): Error {
  const fix = 'Fix the JSON there, or write the file as JSONL: one object per line';
  const slices = elementSlices(text);
  for (const [index, slice] of slices.entries()) {
    const body = text.slice(slice.start, slice.end);
    if (body.trim() === '') {
      if (slices.length === 1) continue;
      return inputError(
        { file, line: slice.line, index },
        'the array element is empty (a stray or trailing comma?)',
        'Remove the extra comma',
      );
    }
    const parsed = parseJson(body);
    if (!parsed.ok) {
      const line = parsed.position === undefined ? slice.line : lineAt(text, slice.start + parsed.position);
      return inputError({ file, line, index }, `the array element is not valid JSON (${parsed.reason})`, fix);
    }
  }
  // Every element parses, so the array itself is malformed (e.g. no closing bracket).
  const reason = whole.ok ? 'unknown reason' : whole.reason;
  const position = whole.ok ? undefined : whole.position;
  const line = lineAt(text, position ?? text.length);
  return inputError({ file, line }, `the file starts with "[" but is not one valid JSON array (${reason})`, fix);
}
