// tests/vectors.test.ts for mutation runs (vitest.mutation.config.ts): the same cases, expanded once by
// the config instead of once per mutant. Not matched by the default `*.test.ts` include.
//
// One test per vector file, running its cases in order until one fails: Stryker starts a vitest worker
// per mutant, and registering and reporting a test per case (over 800) cost about a third of each such
// run, while running a file's other cases costs a millisecond or so each. A failure names its case, so
// a killed mutant's report still says which vector killed it.
import { expect, inject, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { runCase } from '../../conformance/run-case.ts'
import type { VectorCase } from '../../conformance/vector-cases.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    mutationCases: { file: string; name: string; caseJson: string }[]
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
const cases = inject('mutationCases')
const files = [...new Set(cases.map((vector) => vector.file))]

for (const file of files) {
  it(file, async () => {
    if (referenceAdapter instanceof Error) throw referenceAdapter
    for (const { name, caseJson } of cases.filter((candidate) => candidate.file === file)) {
      const outcome = await runCase(referenceAdapter, JSON.parse(caseJson) as VectorCase)
      expect(outcome.reason ?? '', `${name}: ${outcome.status}`).toBe('')
      expect(outcome.status, name).toBe('pass')
    }
  })
}
