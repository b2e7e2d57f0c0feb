/**
 * The samples of a Prometheus or OpenMetrics page, one per series (a name
 * and its labels: vLLM serves one series per model and per data-parallel
 * engine), as real servers write them: labels whose values hold spaces or
 * braces, an exemplar after the value (`… 123 # {trace_id="a"} 1.0 1.7e9`),
 * a timestamp in ms (Prometheus text) or in seconds (OpenMetrics), `NaN`
 * and `+Inf` values, comment lines (`# HELP`, `# TYPE`, `# UNIT`, `# EOF`).
 */

/** One sample of a series. */
export interface SeriesSample {
  /** The metric's name. */
  name: string;
  /** The name and its labels as written: one series. */
  key: string;
  value: number;
  /** When the server read it (epoch ms), when the sample says. */
  stampMs: number | null;
}

/** A stamp below this is in seconds (OpenMetrics); Prometheus's text format stamps in ms (1.7e12 in 2024). */
const SECONDS_BELOW = 1e11;

/** Where the labels of `line` end (its closing brace outside quotes), from the brace at `open`; -1 when they never close. */
function labelsEnd(line: string, open: number): number {
  let quoted = false;
  for (let index = open + 1; index < line.length; index++) {
    const char = line[index];
    if (quoted && char === '\\') index++;
    else if (char === '"') quoted = !quoted;
    else if (!quoted && char === '}') return index;
  }
  return -1;
}

/** The sample of one line when its metric is in `names`; null for a comment, another metric, or a line that is not a sample. */
function sampleOf(line: string, names: ReadonlySet<string>): SeriesSample | null {
  if (line === '' || line.startsWith('#')) return null;
  const nameEnd = line.search(/[{\s]/);
  const name = nameEnd < 0 ? line : line.slice(0, nameEnd);
  if (!names.has(name) || nameEnd < 0) return null;
  const keyEnd = line[nameEnd] === '{' ? labelsEnd(line, nameEnd) + 1 : nameEnd;
  if (keyEnd <= 0) return null;
  // An exemplar (OpenMetrics) follows the value and its timestamp after a '#'.
  const exemplar = line.indexOf('#', keyEnd);
  const [valueText, stampText] = line.slice(keyEnd, exemplar < 0 ? undefined : exemplar).trim().split(/\s+/);
  if (valueText === undefined || valueText === '') return null;
  const stamp = stampText === undefined ? Number.NaN : Number(stampText);
  const stampMs = Number.isFinite(stamp) && stamp > 0 ? (stamp < SECONDS_BELOW ? stamp * 1000 : stamp) : null;
  return { name, key: line.slice(0, keyEnd).replace(/\s+/g, ''), value: Number(valueText), stampMs };
}

/** The samples of the metrics named in `names`, in the order of the page. */
export function seriesSamples(text: string, names: ReadonlySet<string>): SeriesSample[] {
  const samples: SeriesSample[] = [];
  for (const line of text.split('\n')) {
    const sample = sampleOf(line.endsWith('\r') ? line.slice(0, -1) : line, names);
    if (sample !== null) samples.push(sample);
  }
  return samples;
}
