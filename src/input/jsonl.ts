/**
 * JSONL problem files: one JSON value per line, blank lines skipped (line ends
 * already made LF: problems.ts). Values are checked and converted by `toProblemFromJson`.
 */
import { inputError } from './input-error.ts';
import { parseJson } from './json-parse.ts';
import type { JsonItem } from './json-record.ts';

/** Splits JSONL text into parsed values with their 1-based line numbers. */
export function parseJsonLines(text: string, file: string): JsonItem[] {
  const items: JsonItem[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = { file, line: index + 1 };
    const parsed = parseJson(line);
    if (!parsed.ok) {
      throw inputError(
        where,
        `not valid JSON (${parsed.reason})`,
        'Each line must hold one complete JSON object (JSONL); an object pretty-printed over several lines is not JSONL, and `jq -c` rewrites it as one',
      );
    }
    items.push({ value: parsed.value, where, source: line });
  }
  return items;
}
