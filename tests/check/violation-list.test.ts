// conformance/check/violation-list.ts: the first MOST_VIOLATIONS_LISTED violations of a log listed, the
// rest counted by kind from the first of each; every kept message cut for a report exactly once.
// (tests/check/relations-stream.test.ts holds the list to the reference's relations over long logs.)
import { describe, expect, it } from 'vitest'
import { MOST_VIOLATIONS_LISTED, ViolationList, type RelationViolation } from '../../conformance/check/violation-list.ts'
import { reportMessage } from '../../conformance/wording.ts'

const QUOTING = `tool call "${'c'.repeat(300)}" has no result`

function violation(seq: number, code: RelationViolation['code'] = 'TOOL_RESULT_ORPHAN', message = QUOTING): RelationViolation {
  return { code, message, seq, line: seq + 2, eventType: 'tool/result', replaces: false }
}

describe('a violation list', () => {
  it('lists the first ones, their messages cut, and counts the rest by kind from the first of each', () => {
    const list = new ViolationList()
    for (let seq = 0; seq < MOST_VIOLATIONS_LISTED + 5; seq++) list.add(violation(seq, seq % 2 === 0 ? 'TOOL_RESULT_ORPHAN' : 'TURN_NOT_OPEN'))
    expect(list.listed).toHaveLength(MOST_VIOLATIONS_LISTED)
    expect(list.listed[0]?.message).toBe(reportMessage(QUOTING))
    // The first of each counted kind is kept with its message cut too.
    expect([...list.unlisted.values()]).toEqual([
      { count: 3, first: { ...violation(MOST_VIOLATIONS_LISTED), message: reportMessage(QUOTING) } },
      { count: 2, first: { ...violation(MOST_VIOLATIONS_LISTED + 1, 'TURN_NOT_OPEN'), message: reportMessage(QUOTING) } },
    ])
    expect(list.total()).toBe(MOST_VIOLATIONS_LISTED + 5)
  })

  it('counts an appended and a replacing event apart, whose turn rules differ (TURN-8, TURN-9)', () => {
    const list = new ViolationList()
    for (let seq = 0; seq < MOST_VIOLATIONS_LISTED; seq++) list.add(violation(seq))
    for (let seq = MOST_VIOLATIONS_LISTED; seq < MOST_VIOLATIONS_LISTED + 4; seq++) list.add({ ...violation(seq, 'TURN_NOT_OPEN'), replaces: seq % 2 === 1 })
    expect([...list.unlisted.values()].map(({ count, first }) => [first.seq, first.replaces, count])).toEqual([
      [MOST_VIOLATIONS_LISTED, false, 2],
      [MOST_VIOLATIONS_LISTED + 1, true, 2],
    ])
  })

  it('repeats a packed row\'s violation at each member\'s seq, as many listed as there is room for', () => {
    const list = new ViolationList()
    list.addRepeated(violation(7), 7, MOST_VIOLATIONS_LISTED + 1000)
    expect(list.listed.at(-1)).toMatchObject({ seq: 7 + MOST_VIOLATIONS_LISTED - 1, message: reportMessage(QUOTING) })
    // The members share the row's line.
    expect([...list.unlisted.values()]).toEqual([{ count: 1000, first: { ...violation(7), seq: 7 + MOST_VIOLATIONS_LISTED, message: reportMessage(QUOTING) } }])
  })

  it('appends another list after its own, cutting no message twice', () => {
    const earlier = new ViolationList()
    for (let seq = 0; seq < MOST_VIOLATIONS_LISTED - 1; seq++) earlier.add(violation(seq))
    const later = new ViolationList()
    for (let seq = MOST_VIOLATIONS_LISTED - 1; seq < MOST_VIOLATIONS_LISTED + 2; seq++) later.add(violation(seq))
    later.addRepeated(violation(50_000, 'TURN_NOT_OPEN'), 50_000, MOST_VIOLATIONS_LISTED + 1)
    earlier.append(later)
    expect(earlier.listed.at(-1)).toEqual({ ...violation(MOST_VIOLATIONS_LISTED - 1), message: reportMessage(QUOTING) })
    expect([...earlier.unlisted.values()]).toEqual([
      { count: 2, first: { ...violation(MOST_VIOLATIONS_LISTED), message: reportMessage(QUOTING) } },
      { count: MOST_VIOLATIONS_LISTED + 1, first: { ...violation(50_000, 'TURN_NOT_OPEN'), message: reportMessage(QUOTING) } },
    ])
    expect(earlier.total()).toBe(2 * MOST_VIOLATIONS_LISTED + 3)
  })
})
