// The test run Stryker kills mutants with (stryker.config.mjs): the golden vectors alone, since they
// are what third parties get; the reference's own unit tests are deliberately left out. Stryker starts
// a fresh vitest worker per mutant, so the vectors are read and expanded once, here, and each case is
// handed on as its own JSON text, parsed only when its file's test runs: most mutant runs reach a few
// files, and parsing every case was a good part of each run's cost. JSON text also keeps config merging
// (member by member) from turning a vector's data member named __proto__ into a prototype.
import { defineConfig } from 'vitest/config'
import { loadVectorCases } from './conformance/vector-cases.ts'

const mutationCases = loadVectorCases().map((vector) => ({
  file: vector.file,
  name: `${vector.id}: ${vector.title}`,
  caseJson: JSON.stringify(vector),
}))

export default defineConfig({
  test: {
    include: ['tests/mutation/vectors.mutation.ts'],
    provide: { mutationCases },
    testTimeout: 20_000,
  },
})
