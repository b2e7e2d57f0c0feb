import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Runs spawn worker pools and HTTP servers; two cores are shared between them.
    // Four files at a time, not two: most slow tests wait on a paced simulator or
    // a child process's start, and two forks kept two cores only half busy (the
    // suite used 431 s of CPU in 415 s).
    pool: 'forks',
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
