// Every golden vector against the reference interpreter: each case must pass, none may skip.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../conformance/adapters/reference.ts'
import { runCase } from '../conformance/run-case.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'

const cases = loadVectorCases()
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
