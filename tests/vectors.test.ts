// Every golden vector against the reference interpreter: each case must pass, none may skip. And no
// vector asks an operation about an input outside its domain.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../conformance/adapters/reference.ts'
import { openResult } from '../conformance/input-domain.ts'
import { runCase } from '../conformance/run-case.ts'
import { decodeTagged } from '../conformance/tagged-values.ts'
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

// Outside an operation's domain (PROC-9, PROC-10 and each chapter's own) any answer conforms, so a port
// that answers such input as it likes still conforms: no vector may ask (conformance/input-domain.ts).
describe('every vector step', () => {
  it('is inside its operation\'s domain', () => {
    const counted = new Map<string, number>()
    const outside = cases.flatMap((vector) => vector.steps.flatMap((step) => {
      const input = decodeTagged(step.input) as Record<string, unknown>
      counted.set(step.operation, (counted.get(step.operation) ?? 0) + 1)
      const problem = openResult(step.operation, input)
      return problem === undefined ? [] : [`${vector.id}: ${step.operation}: ${problem}`]
    }))
    expect(outside).toEqual([])
    expect(counted.get('store')).toBeGreaterThan(20)
    expect(counted.get('append')).toBeGreaterThan(200)
  })
})
