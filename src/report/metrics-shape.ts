/**
 * Whether a parsed metrics.json has the shape its readers walk: a file edited
 * by hand or by another program (a list where the iterations are, a word
 * where a figure is) would otherwise fail deep inside the report as a bug of
 * tmas's (`iterations.some is not a function`), or print the word as a figure.
 * Only what the readers reach is checked, field by field.
 */

/** The figures of an iteration that the report reads as numbers (or null, where a figure does not apply). */
const ITERATION_NUMBERS = ['iteration', 'problems', 'graded', 'pass1', 'judgeCoverage', 'judgeAsked', 'pass1Rule', 'pass1Judge', 'majority', 'bestVerified', 'oracle', 'meanScore', 'judged', 'disagreements', 'sureJudged', 'sureDisagreements', 'reusedVerdicts', 'unsure', 'experienceBank', 'guidelineBank', 'exploitPromptTokens', 'calls', 'failures', 'trims', 'wallSeconds', 'problemSeconds'];

/** The parts of an iteration that the report reads as objects. */
const ITERATION_OBJECTS = ['flips', 'tokens', 'faults', 'outputsByRole'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `iterations[2].meanScore is "x"`: what is wrong with one iteration's figures, or null. */
function iterationFault(it: unknown, at: string): string | null {
  if (!isObject(it)) return `${at} is ${JSON.stringify(it)}, not an iteration's figures`;
  if (typeof it.iteration !== 'number') return `${at}.iteration is ${JSON.stringify(it.iteration)}, not a number`;
  const number = ITERATION_NUMBERS.find((field) => field in it && it[field] !== null && typeof it[field] !== 'number');
  if (number !== undefined) return `${at}.${number} is ${JSON.stringify(it[number])}, not a number`;
  const object = ITERATION_OBJECTS.find((field) => field in it && !isObject(it[field]));
  return object === undefined ? null : `${at}.${object} is ${JSON.stringify(it[object])}, not an object`;
}

/** What is wrong with the shape of a parsed metrics.json object, in words for a message, or null when nothing is. */
export function metricsShapeFault(metrics: Record<string, unknown>): string | null {
  const { iterations, totals, problems } = metrics;
  if (iterations !== undefined && !Array.isArray(iterations)) return `its "iterations" is ${JSON.stringify(iterations).slice(0, 40)}, not a list`;
  for (const [index, it] of (iterations ?? []).entries()) {
    const fault = iterationFault(it, `iterations[${index}]`);
    if (fault !== null) return fault.length > 200 ? `${fault.slice(0, 200)}…` : fault;
  }
  if (totals !== undefined && totals !== null && !isObject(totals)) return `its "totals" is ${JSON.stringify(totals).slice(0, 40)}, not an object`;
  if (problems !== undefined && problems !== null) {
    if (!Array.isArray(problems)) return `its "problems" is ${JSON.stringify(problems).slice(0, 40)}, not a list`;
    const bad = problems.findIndex((row) => !isObject(row) || typeof row.problem !== 'string' || !Array.isArray(row.iterations));
    if (bad >= 0) return `problems[${bad}] is not a problem's figures (a problem id and a list of iterations)`;
  }
  return incompleteFault(metrics.incomplete);
}

/** What is wrong with `incomplete`, the iterations failed calls stopped, or null (absent in files written before it was). */
function incompleteFault(incomplete: unknown): string | null {
  if (incomplete === undefined || incomplete === null) return null;
  if (!Array.isArray(incomplete)) return `its "incomplete" is ${JSON.stringify(incomplete).slice(0, 40)}, not a list`;
  const bad = incomplete.findIndex((entry) => !isObject(entry) || typeof entry.problem !== 'string' || typeof entry.iteration !== 'number' || typeof entry.failed !== 'number');
  if (bad >= 0) return `incomplete[${bad}] is not a stopped iteration (a problem id, an iteration and a count of failed calls)`;
  return null;
}
