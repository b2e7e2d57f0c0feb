import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Rebuilds dist/ first when the sources are newer: test/global-setup.ts says why.
    globalSetup: ['test/global-setup.ts'],
    // Runs spawn worker pools and HTTP servers; two cores are shared between them.
    // Four files at a time, not two: most slow tests wait on a paced simulator or
    // a child process's start, and two forks kept two cores only half busy (the
    // suite used 431 s of CPU in 415 s).
    pool: 'forks',
    poolOptions: {
      forks: {
        maxForks: 4,
        // Each fork keeps the modules it loaded from one test file to the next, so the runtime
        // loads once per fork, not once per file: 353 s and 666 CPU-s became 268 s and 507 CPU-s.
        // No test mocks a module, stubs the environment or fakes timers, and the suite passes in
        // a shuffled file order too (--sequence.shuffle.files).
        isolate: false,
        // All four kept to the end: a fork retired while idle fails such a run with tinypool's
        // "Terminating worker thread" (vitest-dev/vitest#8133).
        minForks: 4,
      },
    },
    // A machine's proxy settings stay out of the tests, which call servers on loopback: set to nothing, each is
    // unset for tmas (proxy-env.ts), in the forks and the children they start alike; test/gateway/request/proxy.test.ts sets its own.
    env: Object.fromEntries(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'NO_PROXY', 'no_proxy'].map((name) => [name, ''])),
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
