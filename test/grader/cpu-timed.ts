/**
 * Milliseconds of CPU a piece of work takes, and what it returns: CPU, not the
 * clock, so that a machine shared with other work (CI, four test files at
 * once) does not read as slow code. Tests use it only to tell a linear pass
 * from a quadratic one, with bounds far from either; timings belong in the
 * benchmarks.
 */
export function cpuTimed<T>(work: () => T): { ms: number; value: T } {
  const start = process.cpuUsage();
  const value = work();
  const { user, system } = process.cpuUsage(start);
  return { ms: (user + system) / 1000, value };
}
