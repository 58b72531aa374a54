// The test run Stryker kills mutants with (stryker.config.mjs): the golden vectors alone, since they
// are what third parties get; the reference's own unit tests are deliberately left out. Stryker starts
// one vitest run per mutant, so the vectors are read and expanded once, here, and handed to every run
// as JSON text: config values are merged member by member, which would turn a vector's data member
// named __proto__ into a prototype.
import { defineConfig } from 'vitest/config'
import { loadVectorCases } from './conformance/vector-cases.ts'

export default defineConfig({
  test: {
    include: ['tests/mutation/vectors.mutation.ts'],
    provide: { vectorCasesJson: JSON.stringify(loadVectorCases()) },
    testTimeout: 20_000,
  },
})
