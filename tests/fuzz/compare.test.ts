// How the fuzzer names a disagreement between the reference and an adapter (conformance/fuzz/compare.ts):
// the class text a `--known` file matches, and the seq where the two part. A class that changed its
// wording would excuse other disagreements, or no longer excuse its own.
import { describe, expect, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { callOperation, disagreement, probeOutcome, signatureOf } from '../../conformance/fuzz/compare.ts'
import type { Probe, ProbeVariant } from '../../conformance/fuzz/probes.ts'
import type { OperationResult } from '../../conformance/expectations.ts'
import { decodeTagged } from '../../conformance/tagged-values.ts'
import { user } from '../reference/helpers.ts'

const violations = (...list: [string, number][]): OperationResult => ({ ok: true, value: { violations: list.map(([code, seq]) => ({ code, seq })) } })
const answer = (result: OperationResult) => ({ kind: 'result' as const, result })
const LOG = [user(0), user(1)]
/** A log load rejects: a seq gap at index 1. */
const GAP = [user(0), user(2)]
const rejection = (code: string, place: { seq?: number; line?: number }): OperationResult => ({ ok: false, error: { code, ...place } })

function classOf(operation: string, expected: OperationResult, actual: OperationResult): { adapter: string; divergingSeq?: number } | undefined {
  const found = disagreement(operation, expected, answer(actual))
  return found === undefined ? undefined : { adapter: found.adapter, ...(found.divergingSeq === undefined ? {} : { divergingSeq: found.divergingSeq }) }
}

describe('a relations disagreement', () => {
  const expected = violations(['TURN_NOT_OPEN', 4], ['PAIR_ORPHAN_RESULT', 9])

  it('names the first violation the lists do not share, from the adapter\'s side, at the lower seq of the two', () => {
    expect(classOf('relations', expected, violations(['TURN_NOT_OPEN', 4]))).toEqual({ adapter: 'lacks a later violation PAIR_ORPHAN_RESULT', divergingSeq: 9 })
    expect(classOf('relations', expected, violations())).toEqual({ adapter: 'lacks violation TURN_NOT_OPEN', divergingSeq: 4 })
    expect(classOf('relations', expected, violations(['TURN_NOT_OPEN', 4], ['PAIR_ORPHAN_RESULT', 9], ['STEP_NOT_OPEN', 12]))).toEqual({ adapter: 'adds a later violation STEP_NOT_OPEN', divergingSeq: 12 })
    expect(classOf('relations', expected, violations(['TURN_NOT_OPEN', 3], ['PAIR_ORPHAN_RESULT', 9]))).toEqual({ adapter: 'lists violation TURN_NOT_OPEN at another seq', divergingSeq: 3 })
    expect(classOf('relations', expected, violations(['TURN_NOT_OPEN', 4], ['STEP_NOT_OPEN', 7]))).toEqual({ adapter: 'lists a later violation STEP_NOT_OPEN for PAIR_ORPHAN_RESULT', divergingSeq: 7 })
    expect(classOf('relations', expected, expected)).toBeUndefined()
  })

  it('names no seq an adapter\'s violation gives that is no seq, taking the other side\'s', () => {
    expect(classOf('relations', expected, violations(['TURN_NOT_OPEN', -1], ['PAIR_ORPHAN_RESULT', 9]))).toEqual({ adapter: 'lists violation TURN_NOT_OPEN at another seq', divergingSeq: 4 })
    expect(classOf('relations', violations(), violations(['TURN_NOT_OPEN', 2.5]))).toEqual({ adapter: 'adds violation TURN_NOT_OPEN' })
    // -0 is no seq 0: the violation is listed at another seq, as the verdict of a vector says.
    expect(classOf('relations', violations(['TURN_NOT_OPEN', 0]), violations(['TURN_NOT_OPEN', -0]))).toEqual({ adapter: 'lists violation TURN_NOT_OPEN at another seq', divergingSeq: 0 })
  })

  it('names no seq an adapter\'s rejection gives that is no seq', () => {
    for (const seq of [-1, 2.5, Number.NaN, 2 ** 53]) {
      expect(classOf('load', { ok: true, value: null }, rejection('STEP_NOT_OPEN', { seq })), String(seq)).toEqual({ adapter: 'rejects STEP_NOT_OPEN' })
      // The same code at a seq that is none: the reference's seq names the place.
      expect(classOf('load', rejection('STEP_NOT_OPEN', { seq: 4 }), rejection('STEP_NOT_OPEN', { seq })), String(seq)).toEqual({ adapter: 'rejects STEP_NOT_OPEN at another seq', divergingSeq: 4 })
    }
  })

  it('names a rejection at seq -0 where the reference rejects at seq 0 a rejection at another seq', () => {
    expect(classOf('load', rejection('STEP_NOT_OPEN', { seq: 0, line: 1 }), rejection('STEP_NOT_OPEN', { seq: -0, line: 1 }))).toEqual({ adapter: 'rejects STEP_NOT_OPEN at another seq', divergingSeq: 0 })
  })

  it('names a difference of another operation by its path, its indices generalized', () => {
    expect(classOf('surface', { ok: true, value: { nodes: [1, 2] } }, { ok: true, value: { nodes: [1, 3] } })).toEqual({ adapter: 'differs at $.nodes[]' })
  })
})

describe('a rejection disagreement', () => {
  it('names another code, another seq or another line, and an acceptance, each at the seq where the sides part', () => {
    expect(classOf('load', rejection('TURN_NOT_OPEN', { seq: 5 }), rejection('STEP_NOT_OPEN', { seq: 6 }))).toEqual({ adapter: 'rejects STEP_NOT_OPEN', divergingSeq: 5 })
    expect(classOf('load', { ok: true, value: null }, rejection('STEP_NOT_OPEN', { seq: 6 }))).toEqual({ adapter: 'rejects STEP_NOT_OPEN', divergingSeq: 6 })
    expect(classOf('load', rejection('TURN_NOT_OPEN', { seq: 5 }), rejection('TURN_NOT_OPEN', { seq: 2 }))).toEqual({ adapter: 'rejects TURN_NOT_OPEN at another seq', divergingSeq: 2 })
    expect(classOf('decodeJsonl', rejection('JSONL_SEQ_GAP', { seq: 5, line: 7 }), rejection('JSONL_SEQ_GAP', { seq: 5, line: 8 }))).toEqual({ adapter: 'rejects JSONL_SEQ_GAP at another line', divergingSeq: 5 })
    expect(classOf('decodeJsonl', rejection('JSONL_TORN', { line: 7 }), rejection('JSONL_TORN', { line: 8 }))).toEqual({ adapter: 'rejects JSONL_TORN at another line' })
    expect(classOf('load', rejection('TURN_NOT_OPEN', { seq: 5 }), { ok: true, value: null })).toEqual({ adapter: 'accepts', divergingSeq: 5 })
  })
})

describe('an in-process call', () => {
  it('gets a copy of the probe\'s input: an operation that changes it is an error saying so, and the probe stays as it was', async () => {
    const probe = { operation: 'surface' as const, events: [{ type: 'user/message', seq: 0, time: 1, data: {} }], extra: {} }
    const changing = {
      meta: { name: 'fake', version: '0', language: 'typescript', profiles: ['reader'] },
      operations: { surface: (input: Record<string, unknown>) => { (input['events'] as unknown[]).pop(); return { ok: true as const, value: {} } } },
    }
    const outcome = await callOperation(changing, probe)
    expect(outcome.kind).toBe('error')
    expect(outcome.kind === 'error' && outcome.message).toBe('surface changed its input: $.events[0] was removed')
    expect(probe.events).toHaveLength(1)
  })
})

describe('a call of a subprocess adapter', () => {
  const sendingTo = (received: unknown[]) => ({
    meta: { name: 'fake', version: '0', language: 'python', profiles: ['reader'], transport: 'subprocess' as const },
    operations: { load: (input: Record<string, unknown>) => { received.push(input); return { ok: true as const, value: [] } } },
  })

  it('sends the input in tagged form, an array record with a member of its own included (a record-not-object run)', async () => {
    const record = Object.assign([{ type: 'user/message' }], { extra: undefined })
    const received: unknown[] = []
    const outcome = await callOperation(sendingTo(received), { operation: 'load', events: [record], extra: {} })
    expect(outcome.kind).toBe('result')
    const events = decodeTagged(received[0]) as { events: unknown[] }
    expect(events.events).toEqual([record])
    expect(Object.keys(events.events[0] as object)).toEqual(['0', 'extra'])
  })

  it('fails the campaign, not the adapter, on an input the protocol cannot carry', async () => {
    const received: unknown[] = []
    const call = callOperation(sendingTo(received), { operation: 'load', events: [{ type: 'user/message', seq: 0, time: 1, data: { at: new Date(0) } }], extra: {} })
    await expect(call).rejects.toThrow('the fuzzer drew a load input the adapter protocol cannot carry (no tagged form for a class instance); this is a fault of the suite, not of the adapter')
    expect(received).toEqual([])
  })
})

/** The reference, but with the given operations replaced. */
function adapterWith(operations: Adapter['operations']): Adapter {
  return { meta: { name: 'audit', version: '0', language: 'typescript', profiles: ['reader', 'relations'] }, operations: { ...referenceAdapter.operations, ...operations } }
}

describe('disagreement: an error outcome is a failure of its kind, never an agreement', () => {
  it('classes a timeout as fails: timeout', () => {
    const found = disagreement('load', { ok: true, value: [] }, { kind: 'error', message: 'timeout: no answer within 5000 ms' })
    expect(found).toMatchObject({ adapter: 'fails: timeout', failure: true, reference: 'accepts' })
  })

  it('names no diverging seq for a failure, which gave no answer to diverge from', () => {
    const found = disagreement('load', { ok: false, error: { code: 'JSON_NEGATIVE_ZERO', seq: 0 } }, { kind: 'error', message: 'crash: the adapter process ended (exit code 9)' })
    expect(found).toMatchObject({ adapter: 'fails: crash', failure: true, reference: 'rejects JSON_NEGATIVE_ZERO' })
    expect(found).not.toHaveProperty('divergingSeq')
  })

  it('names a rejection of the reference by its code in the class', () => {
    const found = disagreement('load', { ok: false, error: { code: 'TURN_NOT_OPEN', seq: 2 } }, answer({ ok: true, value: [] }))
    expect(found?.reference).toBe('rejects TURN_NOT_OPEN')
    expect(signatureOf(found!)).toBe('load: reference rejects TURN_NOT_OPEN, adapter accepts')
  })
})

describe('disagreement: an input the adapter cannot handle', () => {
  it('is an answer of its own class, not a failure, so that a known class may cover it', async () => {
    const lacking = adapterWith({ decodeJsonl: () => ({ ok: false, unsupported: 'no zstd decoder' }) })
    const outcome = await callOperation(lacking, { operation: 'decodeJsonl', events: [], extra: { encoding: 'zstd', base64: '' } })
    expect(outcome).toEqual({ kind: 'unsupported', lacking: 'no zstd decoder' })
    const found = disagreement('decodeJsonl', { ok: false, error: { code: 'JSONL_HEADER_INVALID', line: 1 } }, outcome)
    expect(found).toMatchObject({ adapter: 'cannot handle it', detail: 'it answered unsupported: no zstd decoder' })
    expect(found).not.toHaveProperty('failure')
    expect(signatureOf(found!)).toBe('decodeJsonl: reference rejects JSONL_HEADER_INVALID, adapter cannot handle it')
  })
})

describe('disagreement: a relations answer of another shape is a difference, not a crash of the campaign', () => {
  it('a value that is null, absent or no object', () => {
    expect(disagreement('relations', violations(['TURN_NOT_OPEN', 4]), answer({ ok: true, value: null }))?.adapter).toBe('differs at $')
    expect(disagreement('relations', violations(['TURN_NOT_OPEN', 4]), answer({ ok: true, value: undefined }))?.adapter).toBe('differs at $')
  })

  it('a value with no violations list', () => {
    expect(disagreement('relations', violations(['TURN_NOT_OPEN', 4]), answer({ ok: true, value: {} }))?.adapter).toBe('differs at $.violations')
  })

  it('the same violations and another member', () => {
    expect(disagreement('relations', violations(['TURN_NOT_OPEN', 4]), answer({ ok: true, value: { violations: [{ code: 'TURN_NOT_OPEN', seq: 4 }], extra: 1 } }))?.adapter).toBe('differs at $.extra')
  })

  it('another code at the same seq', () => {
    expect(disagreement('relations', violations(['TURN_NOT_OPEN', 4]), answer(violations(['STEP_NOT_OPEN', 4])))).toMatchObject({ adapter: 'lists violation STEP_NOT_OPEN for TURN_NOT_OPEN', divergingSeq: 4 })
  })

  it('an added violation that has no code', () => {
    expect(disagreement('relations', violations(), answer({ ok: true, value: { violations: [{ seq: 3 }] } }))).toMatchObject({ adapter: 'adds violation undefined', divergingSeq: 3 })
  })
})

describe('callOperation: a reply that is no operation result', () => {
  it('is an error outcome of its own kind, fails: no operation result', async () => {
    const adapter = adapterWith({ load: () => ({ nope: 1 }) as never })
    const outcome = await callOperation(adapter, { operation: 'load', events: [], extra: {} })
    expect(outcome.kind).toBe('error')
    expect(outcome.kind === 'error' && outcome.message).toMatch(/^no operation result: /)
    expect(disagreement('load', { ok: true, value: [] }, outcome)?.adapter).toBe('fails: no operation result')
  })
})

describe('probeOutcome', () => {
  const differing = adapterWith({ messages: () => ({ ok: true, value: ['not the reference\'s'] }), load: () => ({ ok: false, error: { code: 'ENV_SEQ_NOT_CONTIGUOUS', seq: 0 } }) })
  const messages = (events: unknown[], more: Partial<Probe> = {}): Probe => ({ operation: 'messages', events, extra: {}, ...more })

  it('compares nothing where the spec leaves the result open', async () => {
    expect(await probeOutcome(referenceAdapter, differing, messages(GAP))).toEqual({ compared: false })
  })

  it('counts a compared probe and whether the reference rejects it', async () => {
    expect(await probeOutcome(referenceAdapter, referenceAdapter, messages(LOG))).toEqual({ compared: true, rejected: false, found: undefined })
    const load = await probeOutcome(referenceAdapter, referenceAdapter, { operation: 'load', events: GAP, extra: {} })
    expect(load).toEqual({ compared: true, rejected: true, found: undefined })
  })

  it('marks the classes of older shapes, variants and records that are no object', async () => {
    const variant = 'outside HDR-1' as ProbeVariant
    const plain = await probeOutcome(referenceAdapter, differing, messages(LOG))
    expect(plain.compared && plain.found).toMatchObject({ adapter: 'differs at $[]' })
    expect(plain.compared && Object.keys(plain.found!)).not.toContain('variant')
    expect(plain.compared && plain.found?.recordNotObject).toBeUndefined()
    const older = await probeOutcome(referenceAdapter, differing, messages(LOG, { olderShapes: true, variant }))
    expect(older.compared && older.found).toMatchObject({ olderShapes: true, variant })
    // A failure is a class of its own whatever the probe's variant: no answer is no answer.
    const failing = adapterWith({ messages: () => { throw new Error('boom') } })
    const failed = await probeOutcome(referenceAdapter, failing, messages(LOG, { variant }))
    expect(failed.compared && failed.found).toMatchObject({ adapter: 'fails: throws', failure: true })
    expect(failed.compared && signatureOf(failed.found!)).toBe('messages: reference accepts, adapter fails: throws')
    // A load probe whose log holds a record that is no object: the reference rejects it, the adapter accepts.
    const accepting = adapterWith({ load: () => ({ ok: true, value: [] }) })
    const notObject = await probeOutcome(referenceAdapter, accepting, { operation: 'load', events: [user(0), 5], extra: {} })
    expect(notObject.compared && notObject.found?.recordNotObject).toBe(true)
  })
})

describe('callOperation: replies that are no answer', () => {
  it('an operation the adapter does not provide is an error outcome saying so', async () => {
    const { load: _load, ...others } = referenceAdapter.operations
    const adapter: Adapter = { meta: referenceAdapter.meta, operations: others }
    expect(await callOperation(adapter, { operation: 'load', events: [], extra: {} })).toEqual({ kind: 'error', message: 'load is not provided' })
  })

  it('a reply with no tagged form is still no operation result, shown as text', async () => {
    const adapter = adapterWith({ load: () => new Date(0) as never })
    const outcome = await callOperation(adapter, { operation: 'load', events: [], extra: {} })
    expect(outcome.kind === 'error' && outcome.message).toMatch(/^no operation result: Thu Jan 01 1970/)
  })
})

describe('signatureOf: the class text a --known file matches', () => {
  it('marks older shapes and a record that is no object', () => {
    expect(signatureOf({ operation: 'load', reference: 'accepts', adapter: 'rejects X', olderShapes: true, recordNotObject: true })).toBe('load (older shapes) (a record no object): reference accepts, adapter rejects X')
    expect(signatureOf({ operation: 'load', reference: 'accepts', adapter: 'rejects X' })).toBe('load: reference accepts, adapter rejects X')
  })
})

describe('disagreement: an answer that throws when it is read', () => {
  it('is the failure uninspectable reply, not a crash of the campaign', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    const found = disagreement('load', { ok: true, value: [] }, answer({ ok: true, value: proxy }))
    expect(found).toMatchObject({ adapter: 'fails: uninspectable reply', failure: true })
    expect(found?.detail).toMatch(/^uninspectable reply: /)
  })
})
