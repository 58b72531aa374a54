import { defineConfig } from 'vitest/config'

// A fork's vitest that runs tests concurrently (sequence.concurrent), for tests/vitest-entry.test.ts.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.suite.ts'],
    testTimeout: 30_000,
    sequence: { concurrent: true },
  },
})
