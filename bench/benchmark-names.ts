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
