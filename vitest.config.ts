import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A worker keeps its imported modules from one test file to the next: importing the sources
    // afresh for each of ~200 files cost about 40% of the suite's time. Tests close what they open
    // and restore what they change (process.env, NODE_ENV), which the suite depends on anyway.
    isolate: false,
    // The CLI that test/cli runs as a child process (see the file for why it is compiled).
    globalSetup: ['test/support/compile-cli.ts'],
  },
});
