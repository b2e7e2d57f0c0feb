/**
 * Whether what a plugin's `prompt` returned is a prompt the run can send: a
 * system message (a text, or a template part) and a list of parts, each a
 * text part `{ id, text }` or a template part `{ id, template, variables }`
 * (src/kernel/prompt-wire.ts). A part whose text is a number, a part that is
 * a bare string or null, or a system message that is an empty object reached
 * the worker pool as it was and stopped the run there with a TypeError and a
 * stack trace of tmas's own code; it is named here instead, with its place.
 */

/** How a value reads in a message: its type, and its keys for an object. */
export function described(value: unknown): string {
  if (value === null || typeof value !== 'object') return value === null ? 'null' : typeof value;
  // An async function's result: read as an object of no keys, its message said nothing of what to change.
  if (typeof (value as { then?: unknown }).then === 'function') return 'a Promise (the run calls it synchronously and cannot wait: make it a plain function, not async, that returns the value itself)';
  // At most 8 keys, each bounded: a module's object of any size.
  const keys = Object.keys(value);
  const named = keys.slice(0, 8).map((key) => key.slice(0, 40)).join(', ');
  return Array.isArray(value) ? 'an array' : `an object with keys ${named || '(none)'}${keys.length > 8 ? ', …' : ''}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with an optional field of a part that must be a number when present, or null. */
function numberField(part: Record<string, unknown>, key: 'drop' | 'maxTokens', where: string): string | null {
  const value = part[key];
  if (value === undefined) return null;
  const whole = key === 'maxTokens';
  const fine = typeof value === 'number' && Number.isFinite(value) && (!whole || (Number.isInteger(value) && value > 0));
  return fine ? null : `${where}'s ${key} is ${JSON.stringify(value) ?? described(value)}, not ${whole ? 'a whole number of tokens above 0' : 'a finite number'}`;
}

/** What is wrong with one part (`where` names it: `parts[2]`, `system`), or null. */
function partProblem(part: unknown, where: string): string | null {
  if (!isRecord(part)) return `${where} is ${typeof part === 'string' ? 'a bare string' : described(part)}, not a part { id, text }`;
  if (typeof part.id !== 'string') return `${where}'s id is ${described(part.id)}, not a string`;
  if ('template' in part) {
    if (typeof part.template !== 'string') return `${where}'s template is ${described(part.template)}, not a string`;
    if (!isRecord(part.variables)) return `${where}'s variables are ${described(part.variables)}, not an object`;
    return null;
  }
  if (typeof part.text !== 'string') return `${where}'s text is ${described(part.text)}, not a string`;
  return numberField(part, 'drop', where) ?? numberField(part, 'maxTokens', where);
}

/** What is wrong with a value returned as a prompt, or null when the run can send it. */
export function promptProblem(value: unknown): string | null {
  if (!isRecord(value) || !('system' in value) || !Array.isArray(value.parts)) return `returned ${described(value)}, not a prompt ({ system, parts: [{ id, text }] })`;
  const system = value.system;
  if (typeof system !== 'string') {
    if (!isRecord(system) || !('template' in system)) return `returned a prompt whose system is ${described(system)}, not a text or a template part { id, template, variables }`;
    const problem = partProblem(system, 'system');
    if (problem !== null) return `returned a prompt whose ${problem}`;
  }
  for (const [index, part] of value.parts.entries()) {
    const problem = partProblem(part, `parts[${index}]`);
    if (problem !== null) return `returned a prompt whose ${problem}`;
  }
  return null;
}
