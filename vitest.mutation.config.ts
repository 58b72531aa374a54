// The test run Stryker kills mutants with (stryker.config.mjs): the golden vectors alone, since they
// are what third parties get; the reference's own unit tests are deliberately left out. Stryker starts
// one vitest run per mutant, so the vectors are read and expanded once, here, and handed to every run.
import { defineConfig } from 'vitest/config'
import { loadVectorCases } from './conformance/vector-cases.ts'

export default defineConfig({
  test: {
    include: ['tests/mutation/vectors.mutation.ts'],
    provide: { vectorCases: loadVectorCases() },
    testTimeout: 20_000,
  },
})
