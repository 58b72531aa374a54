// tests/vectors.test.ts for mutation runs (vitest.mutation.config.ts): the same cases, expanded once by
// the config instead of once per mutant. Not matched by the default `*.test.ts` include.
import { describe, expect, inject, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { runCase } from '../../conformance/run-case.ts'
import type { VectorCase } from '../../conformance/vector-cases.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    vectorCasesJson: string
  }
}

/**
 * The reference adapter, built here rather than taken from conformance/adapters/reference.ts, which
 * loads the YAML and schema tooling again on every mutant run. A mutant that breaks the reference while
 * its modules load must fail every test, not the file, so the import error is kept and rethrown.
 */
async function loadReferenceAdapter(): Promise<Adapter | Error> {
  try {
    const { reference } = await import('../../reference/index.ts')
    const { name, version, language, profiles, ...operations } = reference
    return { meta: { name, version, language, profiles: [...profiles] }, operations: operations as Adapter['operations'] }
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}

const referenceAdapter = await loadReferenceAdapter()
const cases = JSON.parse(inject('vectorCasesJson')) as VectorCase[]
const files = [...new Set(cases.map((vector) => vector.file))]

for (const file of files) {
  describe(file, () => {
    for (const vector of cases.filter((candidate) => candidate.file === file)) {
      it(`${vector.id}: ${vector.title}`, async () => {
        if (referenceAdapter instanceof Error) throw referenceAdapter
        const outcome = await runCase(referenceAdapter, vector)
        expect(outcome.reason ?? '', outcome.status).toBe('')
        expect(outcome.status).toBe('pass')
      })
    }
  })
}
