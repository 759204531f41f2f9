import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The CLI that test/cli runs as a child process (see the file for why it is compiled).
    globalSetup: ['test/support/compile-cli.ts'],
  },
});
