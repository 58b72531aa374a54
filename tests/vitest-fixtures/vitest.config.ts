import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// A fork's vitest that runs tests concurrently (sequence.concurrent), for tests/vitest-entry.test.ts.
export default defineConfig({
  test: {
    // A path, not a URL's: a URL escapes a space or any non-ASCII character of the checkout's path.
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['*.suite.ts'],
    testTimeout: 30_000,
    sequence: { concurrent: true },
  },
})
