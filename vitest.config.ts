import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 20_000,
    // A worker per core: vitest's default leaves one core to its own process, which on a two-core
    // machine runs the files one at a time, while most of their time is spent in child processes.
    maxWorkers: availableParallelism(),
  },
})
