/**
 * `JSON.parse` that reports instead of throwing, with the parser's reason cleaned
 * up for a one-line message and the error position when V8 gives one.
 */
import { thrownText } from '../kernel/thrown-text.ts';

/** Outcome of parsing one piece of JSON text. */
export type JsonParse =
  | { ok: true; value: unknown }
  | { ok: false; reason: string; /** Offset into the parsed text, when the parser says. */ position?: number };

const MAX_REASON = 160;

/** Parses `text` as JSON without throwing. */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = thrownText(error);
    const position = /at position (\d+)/.exec(message)?.[1];
    return {
      ok: false,
      reason: cleanReason(message),
      ...(position === undefined ? {} : { position: Number(position) }),
    };
  }
}

/** 1-based line of a UTF-16 offset in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  let at = text.indexOf('\n');
  while (at !== -1 && at < offset) {
    line++;
    at = text.indexOf('\n', at + 1);
  }
  return line;
}

/** Describes a JSON value's kind for a message: "a string", "an array", "null". */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** True for a JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cleanReason(message: string): string {
  // V8 appends the whole input (`, "<text>" is not valid JSON`); on a 10 MB line that is noise.
  const reason = message.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '').replace(/\s+/g, ' ').trim();
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON)}…` : reason;
}
