// Every golden vector against the reference interpreter: each case must pass, none may skip. And no
// vector asks an operation about a log outside its domain.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../conformance/adapters/reference.ts'
import { OVER_LOADED_LOG } from '../conformance/fuzz/probes.ts'
import { runCase } from '../conformance/run-case.ts'
import { decodeTagged } from '../conformance/tagged-values.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'
import { loadLog } from '../reference/processing.ts'
import { jsonEqual, optionalSnapshot, snapshotJson } from '../reference/lossless-json.ts'

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

// PROC-9 defines the operations other than load only for a log load accepts (a surface
// window is checked as a log of its own; append's log may hold types a vocabulary refuses), so a port
// that does not load first answers other input as it likes and still conforms: no vector may ask.
describe('operations over a loaded log', () => {
  it('never meet a log that load rejects, in any vector', () => {
    let judged = 0
    const outside = cases.flatMap((vector) => vector.steps.flatMap((step) => {
      const input = decodeTagged(step.input) as Record<string, unknown>
      if (!(OVER_LOADED_LOG.has(step.operation) || step.operation === 'append') || 'baseSeq' in input) return []
      judged += 1
      // append's log is one load accepts but for the vocabulary phase: a writer accepts any type (UNK-2).
      const loaded = loadLog({
        header: optionalSnapshot(input['header']), events: input['events'] as unknown[], sessionId: input['sessionId'], vocabulary: input['vocabulary'],
        checkVocabulary: step.operation !== 'append',
      })
      return loaded.ok ? [] : [`${vector.id}: ${step.operation} on a log load rejects with ${loaded.error.code}`]
    }))
    expect(outside).toEqual([])
    expect(judged).toBeGreaterThan(500)
  })
})

// STORE-1 defines store for a header chapter 03 accepts and batches (at least one, none empty) that
// form a log a writer could have written; only a value outside the lossless domain (STORE-4), in the
// header or a record, may leave that, and then it is the first fault.
describe('store', () => {
  it('meets only batches a writer could have written, or whose first fault is STORE-4\'s, in any vector', () => {
    let judged = 0
    const outside = cases.flatMap((vector) => vector.steps.flatMap((step) => {
      if (step.operation !== 'store') return []
      judged += 1
      const { header, batches } = decodeTagged(step.input) as { header: unknown; batches: unknown[][] }
      if (batches.length === 0 || batches.some((batch) => batch.length === 0)) return [`${vector.id}: an empty store`]
      // A hole of a sparse batch is the record undefined (STORE-4), which flat() would skip.
      const records = batches.flatMap((batch) => Array.from(batch))
      // A header outside the domain is checked first (STORE-4), before it could be created.
      if (snapshotJson(header).fault !== undefined || records.some((record) => snapshotJson(record).fault !== undefined)) return []
      const loaded = loadLog({ header: optionalSnapshot(header), events: records, checkVocabulary: false })
      if (!loaded.ok) return loaded.error.code.startsWith('JSON_') ? [] : [`${vector.id}: store of a log load rejects with ${loaded.error.code}`]
      // load upgrades legacy shapes without a word; a log in current shapes comes out as it went in.
      return jsonEqual(loaded.value, records) ? [] : [`${vector.id}: store of a log in legacy shapes`]
    }))
    expect(outside).toEqual([])
    expect(judged).toBeGreaterThan(20)
  })
})
