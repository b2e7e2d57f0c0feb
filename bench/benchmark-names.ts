import { UserError } from '../src/kernel/errors.ts';

/**
 * The benchmarks' names, in the order they run: what `tmas bench --only`
 * lists in its help without loading the benchmarks (they load only when the
 * command runs). The runner refuses to start when its list and this one differ.
 */
export const BENCHMARK_NAMES = [
  'overhead',
  'pipelining',
  'capacity',
  'capacity-replicas',
  'capacity-chains',
  'capacity-ablations',
  'capacity-spread',
  'schedule',
  'plan',
  'event-loop',
  'stream-chunks',
  'memory',
  'store',
  'dedup',
  'tokenizer',
  'replay-export',
  'grader',
  'format-breaks',
  'rse-window',
  'view',
  'open-run',
] as const;

/**
 * Throws the usage error for names in `only` that name no benchmark. Checked
 * before the benchmarks load: a misspelt --only is told in a second of CPU,
 * where loading every benchmark first (the runtime through tsx) took three.
 */
export function checkBenchmarkNames(only: readonly string[]): void {
  const unknown = only.filter((name) => !(BENCHMARK_NAMES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new UserError('TMAS_USAGE', `--only names no benchmark called ${unknown.join(', ')}. The benchmarks are ${BENCHMARK_NAMES.join(', ')}.`);
  }
}
