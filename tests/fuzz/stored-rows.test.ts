// The decodeJsonl probes the fuzzer makes over artifacts with a packed row out of ROW-3's range
// (conformance/fuzz/stored-rows.ts): one plan in four, one of ten edits, each of which ROW-3 rejects.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { withStoredRowOutOfRange } from '../../conformance/fuzz/stored-rows.ts'

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
const ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const TURN_END = '{"type":"turn/end","seq":3,"time":20,"data":{"turn":1,"reason":{"kind":"completed"}}}'
const TEXT = `${HEADER}\n${ROW}\n${TURN_END}\n`

// By hand: the zero in dt written as -0 (item 9); seq0 + 3 = 2^53 + 1, so the last member's seq would
// be 2^53 (item 11); time0 2^53 - 2 and gaps 5 and -10, so the middle member's time is 2^53 + 3 and the
// last one's 2^53 - 7 (item 12); null for the turn or the step (item 7), or the first text (item 8);
// true for the turn or the step (item 7: booleans are no integers) or the first gap (item 9); the row
// cut to its first member without dt (item 9: a one-member row has dt [], not none).
const NEGATIVE_ZERO_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[-0,5],"texts":["a","b","c"]}}'
const UNSAFE_LAST_ROW = '{"type":"text-chunks","seq0":9007199254740990,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const UNSAFE_MIDDLE_ROW = '{"type":"text-chunks","seq0":0,"time0":9007199254740990,"data":{"turn":1,"step":1,"index":0,"dt":[5,-10],"texts":["a","b","c"]}}'
const NULL_TURN_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":null,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const NULL_STEP_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":null,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const NULL_TEXT_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[0,5],"texts":[null,"b","c"]}}'
const TRUE_TURN_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":true,"step":1,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const TRUE_STEP_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":true,"index":0,"dt":[0,5],"texts":["a","b","c"]}}'
const TRUE_GAP_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[true,5],"texts":["a","b","c"]}}'
const FIRST_MEMBER_ROW = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"texts":["a"]}}'
const EDITED_ROWS = [
  NEGATIVE_ZERO_ROW, UNSAFE_LAST_ROW, UNSAFE_MIDDLE_ROW, NULL_TURN_ROW, NULL_STEP_ROW, NULL_TEXT_ROW,
  TRUE_TURN_ROW, TRUE_STEP_ROW, TRUE_GAP_ROW, FIRST_MEMBER_ROW,
]

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
    expect([...rows].sort()).toEqual([...EDITED_ROWS].sort())
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
    // The other edits keep this dt, but the middle-time one, which writes its own.
    const expected = [noZero.replace('[1,5]', '[-0,5]'), ...EDITED_ROWS.slice(1).map(row => row.replace('[0,5]', '[1,5]')), undefined]
    expect([...rows].sort()).toEqual(expected.sort())
  })

  it('put a middle time beyond the safe integers only in a row of three members or more', () => {
    const twoMembers = '{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[5],"texts":["a","b"]}}'
    const edits = Array.from({ length: 400 }, (_, seed) => withStoredRowOutOfRange(`${HEADER}\n${twoMembers}\n${TURN_END}\n`, seed + 1)?.split('\n')[1])
    expect(edits.some(row => row?.includes('"time0":9007199254740990'))).toBe(false)
    expect(edits.some(row => row?.includes('"turn":null'))).toBe(true)
  })
})
