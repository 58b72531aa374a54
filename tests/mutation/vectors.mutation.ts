// tests/vectors.test.ts for mutation runs (vitest.mutation.config.ts): the same cases, expanded once by
// the config instead of once per mutant. Not matched by the default `*.test.ts` include.
import { describe, expect, inject, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { runCase } from '../../conformance/run-case.ts'
import type { VectorCase } from '../../conformance/vector-cases.ts'
import { reference } from '../../reference/index.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    vectorCases: VectorCase[]
  }
}

// The reference adapter, built here because conformance/adapters/reference.ts loads the YAML and
// schema tooling that each mutant run would otherwise import again.
const { name, version, language, profiles, ...operations } = reference
const referenceAdapter: Adapter = { meta: { name, version, language, profiles: [...profiles] }, operations: operations as Adapter['operations'] }
const cases = inject('vectorCases')
const files = [...new Set(cases.map((vector) => vector.file))]

for (const file of files) {
  describe(file, () => {
    for (const vector of cases.filter((candidate) => candidate.file === file)) {
      it(`${vector.id}: ${vector.title}`, async () => {
        const outcome = await runCase(referenceAdapter, vector)
        expect(outcome.reason ?? '', outcome.status).toBe('')
        expect(outcome.status).toBe('pass')
      })
    }
  })
}
