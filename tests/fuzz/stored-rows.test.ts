// The decodeJsonl probes the fuzzer makes over artifacts with a packed row out of ROW-3's range
// (conformance/fuzz/stored-rows.ts): one plan in four, one of two edits, each of which ROW-3 rejects.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { withStoredRowOutOfRange } from '../../conformance/fuzz/stored-rows.ts'

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
const ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const TURN_END = '{"type":"turn/end","seq":3,"time":20,"data":{"turn":1,"reason":{"kind":"completed"}}}'
const TEXT = `${HEADER}\n${ROW}\n${TURN_END}\n`

// By hand: the zero in dt written as -0 (item 9), and seq0 + 3 = 2^53 + 1, so the last member's seq
// would be 2^53 (item 11).
const NEGATIVE_ZERO_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[-0,5],"texts":["a","b","c"]}}'
const UNSAFE_LAST_ROW = '{"type":"text-chunks","seq0":9007199254740990,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'

describe('stored rows out of range', () => {
  it('are drawn for about one plan in four, with each edit, and rejected by the reference as invalid rows', async () => {
    const rows = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 400; seed += 1) {
      const text = withStoredRowOutOfRange(TEXT, seed)
      if (text === undefined) continue
      edited += 1
      const [header, row, turnEnd] = text.split('\n')
      expect([header, turnEnd]).toEqual([HEADER, TURN_END])
      rows.add(row!)
      const decoded = await referenceAdapter.operations.decodeJsonl!({ text }, { caseId: 'rows', step: 0 })
      expect(decoded).toMatchObject({ ok: false, error: { code: 'JSONL_ROW_INVALID', line: 2 } })
    }
    expect(edited).toBeGreaterThan(60)
    expect(edited).toBeLessThan(140)
    expect([...rows].sort()).toEqual([UNSAFE_LAST_ROW, NEGATIVE_ZERO_ROW].sort())
  })

  it('edit only rows the reference reads, with a dt: none in a text without one, or whose row-tagged record is none', () => {
    const notRow = '{"type":"text-chunks","seq":1,"time":10,"data":{"turn":1}}'
    const oneMember = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a"]}}'
    // The seeds whose draw edits a text, as it does TEXT's row.
    const editing = Array.from({ length: 80 }, (_, index) => index + 1).filter(seed => withStoredRowOutOfRange(TEXT, seed) !== undefined)
    expect(editing.length).toBeGreaterThan(10)
    for (const seed of editing) {
      expect(withStoredRowOutOfRange(`${HEADER}\n${TURN_END}\n`, seed)).toBeUndefined()
      expect(withStoredRowOutOfRange(`${HEADER}\n${notRow}\n${TURN_END}\n`, seed)).toBeUndefined()
      expect(withStoredRowOutOfRange(`${HEADER}\n${oneMember}\n${TURN_END}\n`, seed)).toBeUndefined()
    }
  })

  it('write -0 over the first element of a dt that holds no zero', () => {
    const noZero = ROW.replace('[0,5]', '[1,5]')
    const rows = new Set<string | undefined>()
    for (let seed = 1; seed <= 400; seed += 1) rows.add(withStoredRowOutOfRange(`${HEADER}\n${noZero}\n${TURN_END}\n`, seed)?.split('\n')[1])
    const expected = [noZero.replace('[1,5]', '[-0,5]'), noZero.replace('"seq0":0', '"seq0":9007199254740990'), undefined]
    expect([...rows].sort()).toEqual(expected.sort())
  })
})
