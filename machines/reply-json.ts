/**
 * Where the JSON object of a reply is when the model wrote prose around it
 * without a fence. A reasoning model writes "Here is the update, with
 * $\frac{1}{2}$ in mind:" before its object, or a remark on "the set {1, 2}"
 * after it: the span from the first `{` to the last `}` then took LaTeX's
 * braces along and did not parse, and the bank update, though whole, counted
 * as unusable. An object is found here as JSON writes one: a `{` followed by a
 * key or by `}`, up to the brace that closes it, strings read as strings.
 */

/** A `{` that opens a JSON object: followed, past white space, by a key's quote or by the closing brace. */
const OBJECT_START = /\{(?=\s*["}])/g;

/** The index just past the `}` that closes the object opened at `start`, or the text's length when none does. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The value of `span` when it is JSON, else undefined. */
function parsedOrUndefined(span: string): unknown {
  try {
    return JSON.parse(span) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The outermost JSON objects written in a text, in order. A candidate inside
 * an earlier one (an item of a list, or anything after an object left open)
 * is not one of them: a reply cut inside its object does not give up one of
 * its items as the whole update.
 */
export function jsonObjectsIn(text: string): object[] {
  const objects: object[] = [];
  let coveredUntil = 0;
  for (const match of text.matchAll(OBJECT_START)) {
    if (match.index < coveredUntil) continue;
    coveredUntil = objectEnd(text, match.index);
    const value = parsedOrUndefined(text.slice(match.index, coveredUntil));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) objects.push(value);
  }
  return objects;
}

/** The object a reply gives: the last one with a key, else the last one; undefined when it wrote none. */
export function lastJsonObjectIn(text: string): object | undefined {
  const objects = jsonObjectsIn(text);
  return objects.filter((value) => Object.keys(value).length > 0).at(-1) ?? objects.at(-1);
}
