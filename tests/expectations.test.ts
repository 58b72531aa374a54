import { describe, expect, it } from 'vitest'
import { expectedRejectionOf, firstDifference, firstDivergingSeq, judge, showValue, withImpliedPlaces } from '../conformance/expectations.ts'
import { decodeTagged } from '../conformance/tagged-values.ts'

describe('firstDifference', () => {
  it('tells 0 from -0 and NaN from NaN as equal', () => {
    expect(firstDifference({ a: 0 }, { a: -0 })).toBe('$.a')
    expect(firstDifference([Number.NaN], [Number.NaN])).toBeUndefined()
  })

  it('reports a missing member, an extra element and the first differing leaf in order', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 })).toBe('$.b')
    // A member missing on one side comes after a difference inside an earlier member, in sorted order.
    expect(firstDifference({ a: [1], b: 2 }, { a: [2] })).toBe('$.a[0]')
    expect(firstDifference([1, 2], [1, 2, 3])).toBe('$[2]')
    expect(firstDifference({ a: [1, { x: 1 }], b: 1 }, { a: [1, { x: 2 }], b: 2 })).toBe('$.a[1].x')
  })

  it('compares own members only, so a __proto__ member is not confused with the prototype', () => {
    const asData = JSON.parse('{"__proto__": {"admin": true}}')
    expect(firstDifference(asData, { admin: true })).toBe('$.__proto__')
    expect(firstDifference(asData, JSON.parse('{"__proto__": {"admin": true}}'))).toBeUndefined()
  })

  it('handles values far deeper than the call stack', () => {
    let deep: unknown = 1
    let other: unknown = 2
    for (let level = 0; level < 100_000; level += 1) {
      deep = [deep]
      other = [other]
    }
    expect(firstDifference(deep, other)?.length).toBeGreaterThan(100_000)
  })
})

describe('kinds (JSON-14: equal values are of the same kind)', () => {
  const reasonFor = (actual: unknown, expected: unknown): string | undefined => {
    const verdict = judge({ ok: true, value: actual }, { value: expected })
    return verdict.pass ? undefined : verdict.reason
  }

  it.each([
    [{ $dsh: 'instance', class: 'Date' }, 'an instance of Date {}'],
    [{ $dsh: 'instance', class: 'Map' }, 'an instance of Map {}'],
    [{ $dsh: 'instance', class: 'Widget', value: 1 }, 'an instance of Widget {"value":1}'],
    [{ $dsh: 'with-prototype', prototype: 'bare', value: {} }, 'an object with a non-intrinsic prototype {}'],
    [{ $dsh: 'with-prototype', prototype: 'forged-object', value: {} }, 'an object with a non-intrinsic prototype {}'],
    [{ $dsh: 'with-prototype', prototype: 'plain-object', value: {} }, 'an object with a non-intrinsic prototype {}'],
    [{ $dsh: 'symbol-key', object: {} }, 'an object with a symbol-keyed member {}'],
    [{ $dsh: 'non-enumerable', object: {}, key: 'k', value: 1 }, 'an object with the non-enumerable member "k" {}'],
  ])('a plain object is not %j', (tagged, actual) => {
    expect(reasonFor({ data: decodeTagged(tagged) }, { data: {} })).toBe(`value differs at $.data: expected a plain object {}, actual ${actual}`)
  })

  it.each([
    [{ $dsh: 'array-property', items: [], key: 'extra', value: 1 }, 'an array with the extra property "extra" []'],
    [{ $dsh: 'symbol-key', object: [] }, 'an array with a symbol-keyed member []'],
    [{ $dsh: 'with-prototype', prototype: 'array', value: [] }, 'an array with a non-intrinsic prototype []'],
    [{ $dsh: 'instance', class: 'ArraySubclass' }, 'an array with a non-intrinsic prototype []'],
    [{ $dsh: 'sparse-array', length: 1 }, 'a sparse array [<1 hole>]'],
  ])('an array is not %j', (tagged, actual) => {
    expect(reasonFor({ replacements: decodeTagged(tagged) }, { replacements: [] })).toBe(`value differs at $.replacements: expected an array [], actual ${actual}`)
  })

  it('names a class only when its prototype links back to it and it has a name', () => {
    const forged = Object.create({ constructor: class Widget {} }) as object
    const anonymous = new (class {})()
    const nullArray = Object.setPrototypeOf([], null) as unknown[]
    expect(reasonFor({ data: forged }, { data: {} })).toBe('value differs at $.data: expected a plain object {}, actual an object with a non-intrinsic prototype {}')
    expect(reasonFor({ data: anonymous }, { data: {} })).toBe('value differs at $.data: expected a plain object {}, actual an object with a non-intrinsic prototype {}')
    expect(reasonFor({ data: nullArray }, { data: [] })).toBe('value differs at $.data: expected an array [], actual an array with a non-intrinsic prototype []')
  })

  it('shows both sides at an index of several digits', () => {
    const eleven = Array.from({ length: 11 }, (_, index) => index)
    expect(reasonFor([...eleven.slice(0, 10), 99], eleven)).toBe('value differs at $[10] (logs diverge at seq 10): expected 10, actual 99')
  })

  it('tells an array from an object by kind, and finds no kind difference where there is none', () => {
    expect(reasonFor({}, [])).toBe('value differs at $: expected an array [], actual a plain object {}')
    expect(reasonFor({ a: [1] }, { a: [2] })).toBe('value differs at $.a[0]: expected 2, actual 1')
  })

  it("counts null-prototype objects and another realm's objects and arrays as plain (JSON-9, JSON-8)", () => {
    expect(reasonFor(decodeTagged({ $dsh: 'null-prototype', object: { a: 1 } }), { a: 1 })).toBeUndefined()
    expect(reasonFor(decodeTagged({ $dsh: 'foreign-realm', value: { a: [1, { b: 2 }] } }), { a: [1, { b: 2 }] })).toBeUndefined()
    expect(reasonFor({ a: 1 }, decodeTagged({ $dsh: 'null-prototype', object: { a: 1 } }))).toBeUndefined()
  })

  it('compares two sparse arrays by length and entries, never by walking their holes', () => {
    const sparse = (length: number, entries: Record<string, unknown>): unknown => decodeTagged({ $dsh: 'sparse-array', length, entries })
    expect(reasonFor(sparse(4_294_967_295, { 7: 'x' }), sparse(4_294_967_295, { 7: 'x' }))).toBeUndefined()
    expect(reasonFor(sparse(3, { 1: 'x' }), sparse(3, { 1: 'y' }))).toBe('value differs at $[1]: expected "y", actual "x"')
    expect(reasonFor(sparse(3, { 1: 'x' }), sparse(3, { 2: 'x' }))).toBe('value differs at $[1]: expected (absent), actual "x"')
    expect(reasonFor(sparse(4, {}), sparse(3, {}))).toBe('value differs at $: expected [<3 holes>], actual [<4 holes>]')
  })

  it('judges a reply of the longest sparse array at once', () => {
    const started = performance.now()
    const longest = decodeTagged({ $dsh: 'sparse-array', length: 4_294_967_295, entries: { 1: 'x' } })
    expect(reasonFor(longest, [])).toBe('value differs at $: expected an array [], actual a sparse array [<1 hole>,"x",<4294967293 holes>]')
    expect(reasonFor([longest], [[1]])).toBe('value differs at $[0] (logs diverge at seq 0): expected an array [1], actual a sparse array [<1 hole>,"x",<4294967293 holes>]')
    expect(performance.now() - started).toBeLessThan(1000)
  })
})

describe('the difference of two long strings', () => {
  const header = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}\n'
  const row = (members: string): string => `{"type":"text-chunks","seq0":1,"time0":1,"data":{"turn":1,"step":1,"index":0,${members}}}\n`
  const diffOf = (expected: string, actual: string): unknown => (judge({ ok: true, value: { text: actual } }, { value: { text: expected } }) as { diff: unknown }).diff

  it('shows both sides around the first differing character, and says on which line and column it is', () => {
    const expected = header + row('"dt":[2,-1],"texts":["a","b","c"]')
    const verdict = judge({ ok: true, value: { text: header + row('"texts":["a","b","c"],"dt":[2,-1]') } }, { value: { text: expected } })
    // 24 code units before the place ("dt" against "texts"), and up to 48 from it.
    const [before, after] = [`…${JSON.stringify('":1,"step":1,"index":0,"dt":[2,-1],"texts":["a","b","c"]}}\n')}`, `…${JSON.stringify('":1,"step":1,"index":0,"texts":["a","b","c"],"dt":[2,-1]}}\n')}`]
    expect(verdict).toEqual({
      pass: false,
      reason: `value differs at $.text (line 2, column 79 of the string): expected ${before}, actual ${after}`,
      diff: { path: '$.text', expected: before, actual: after, at: { index: header.length + 78, line: 2, column: 79 } },
    })
  })

  it('names the end of the string that stops short: a line feed left out', () => {
    const last = row('"dt":[2,-1],"texts":["a","b","c"]')
    const expected = header + last
    expect(diffOf(expected, expected.slice(0, -1))).toEqual({
      path: '$.text',
      expected: `…${JSON.stringify(',"texts":["a","b","c"]}}\n')}`,
      actual: `…${JSON.stringify(',"texts":["a","b","c"]}}')} (the string ends there)`,
      at: { index: expected.length - 1, line: 2, column: last.length },
    })
  })

  it('counts characters, not UTF-16 code units, and cuts the excerpt at whole characters', () => {
    // Ten emoji (twenty code units) and 80 x before the place: character 90, column 91.
    const lead = `${'\u{1F600}'.repeat(10)}${'x'.repeat(80)}`
    expect(diffOf(`${lead}a`, `${lead}b`)).toMatchObject({ at: { index: 90, line: 1, column: 91 } })
    // 24 code units before the place fall inside a pair: the excerpt starts at the pair, not inside it.
    const pairs = `${'y'.repeat(60)}${'\u{1F600}'.repeat(20)}`
    expect(diffOf(`${pairs}a${'z'.repeat(50)}`, `${pairs}b${'z'.repeat(50)}`)).toMatchObject({ expected: `…"${'\u{1F600}'.repeat(12)}a${'z'.repeat(47)}"…` })
    // 48 code units from the place end inside a pair: the excerpt keeps the whole pair.
    const tail = `${'z'.repeat(46)}${'\u{1F600}'.repeat(3)}`
    expect(diffOf(`${'y'.repeat(60)}a${tail}`, `${'y'.repeat(60)}b${tail}`)).toMatchObject({ expected: `…"${'y'.repeat(24)}a${'z'.repeat(46)}\u{1F600}"…` })
    // One string stops inside the other's pair: the place is the pair's start.
    expect(diffOf(`${'x'.repeat(100)}\u{1F600}z`, `${'x'.repeat(100)}\uD83D`)).toMatchObject({ at: { index: 100, line: 1, column: 101 } })
    expect(diffOf(`${'x'.repeat(100)}\uD83Dx`, `${'x'.repeat(100)}\u{1F600}`)).toMatchObject({ at: { index: 100, line: 1, column: 101 } })
  })

  it('marks no cut before an excerpt that starts at the string\'s start', () => {
    expect(diffOf(`ab${'x'.repeat(100)}`, `aB${'x'.repeat(100)}`)).toMatchObject({ expected: `${JSON.stringify(`ab${'x'.repeat(47)}`)}…`, at: { index: 1 } })
  })

  it('takes an excerpt when either string is too long to show whole, the other short', () => {
    expect(diffOf('short', `short${'x'.repeat(100)}`)).toMatchObject({ expected: '"short" (the string ends there)', actual: `${JSON.stringify(`short${'x'.repeat(48)}`)}…`, at: { index: 5 } })
  })

  it('shows strings of 80 code units or fewer whole, and never splits a surrogate pair', () => {
    expect(diffOf('a'.repeat(80), 'b'.repeat(80))).toEqual({ path: '$.text', expected: JSON.stringify('a'.repeat(80)), actual: JSON.stringify('b'.repeat(80)) })
    const [before, after] = ['x'.repeat(100), 'y'.repeat(10)]
    expect(diffOf(`${before}\u{1F600}${after}`, `${before}\u{1F601}${after}`)).toMatchObject({ at: { index: 100, line: 1, column: 101 } })
    expect(diffOf(`${before}\u{1F600}${after}`, `${before}\u{1F601}${after}`)).toMatchObject({ expected: `…"${'x'.repeat(24)}\u{1F600}${after}"`, actual: `…"${'x'.repeat(24)}\u{1F601}${after}"` })
    // A pair astride either cut of the excerpt is shown whole: the excerpt widens by its other half.
    const [head, tail] = [`${'x'.repeat(76)}\u{1F600}${'x'.repeat(23)}`, `${'y'.repeat(46)}\u{1F600}${'z'.repeat(10)}`]
    expect(diffOf(`${head}a${tail}`, `${head}b${tail}`)).toMatchObject({
      expected: `…"\u{1F600}${'x'.repeat(23)}a${'y'.repeat(46)}\u{1F600}"…`,
      actual: `…"\u{1F600}${'x'.repeat(23)}b${'y'.repeat(46)}\u{1F600}"…`,
    })
  })
})

describe('judge', () => {
  const rejection = { ok: false as const, error: { code: 'SURFACE_REPLACE_REVERSED', seq: 4 } }

  it('quotes each side of a value difference short enough that both fit a console line; the diff keeps more', () => {
    let deep: unknown = 0
    for (let level = 0; level < 1000; level += 1) deep = [deep]
    const verdict = judge({ ok: true, value: { deep: 1 } }, { value: { deep } })
    if (verdict.pass) throw new Error('a difference passed')
    expect(verdict.reason).toBe(`value differs at $.deep: expected ${'['.repeat(150)}…, actual 1`)
    expect(verdict.diff?.expected.length).toBeGreaterThan(400)
  })

  it('passes only the exact code, and the seq when the expectation gives one', () => {
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 4 } })).toEqual({ pass: true })
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED' } })).toEqual({ pass: true })
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 5 } }).pass).toBe(false)
    expect(judge(rejection, { reject: { code: 'SURFACE_OP_INVALID' } }).pass).toBe(false)
    expect(judge(rejection, { accept: true }).pass).toBe(false)
  })

  it('reads a null seq or line as "the rejection carries none"', () => {
    const headerFault = { ok: false as const, error: { code: 'FORMAT_VERSION_NEWER' } }
    const lineFault = { ok: false as const, error: { code: 'JSONL_FRAME_INVALID', line: 2 } }
    expect(judge(headerFault, { reject: { code: 'FORMAT_VERSION_NEWER', seq: null, line: null } })).toEqual({ pass: true })
    expect(judge(rejection, { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: null } })).toMatchObject({
      pass: false,
      reason: 'expected SURFACE_REPLACE_REVERSED with no seq, got seq 4',
      diff: { path: '$.error.seq' },
    })
    expect(judge(lineFault, { reject: { code: 'JSONL_FRAME_INVALID', line: null } })).toMatchObject({ pass: false, reason: 'expected JSONL_FRAME_INVALID with no line, got line 2', diff: { path: '$.error.line' } })
    expect(judge(headerFault, { reject: { code: 'FORMAT_VERSION_NEWER', seq: 0 } })).toMatchObject({ pass: false, reason: 'expected FORMAT_VERSION_NEWER at seq 0, got no seq' })
    expect(judge(lineFault, { reject: { code: 'JSONL_FRAME_INVALID', seq: null, line: 2 } })).toEqual({ pass: true })
  })

  it('expects no line of a rejection unless the operation reads a stored artifact (PROC-1)', () => {
    const atSeq = { reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 4 } }
    expect(withImpliedPlaces(atSeq, 'load')).toEqual({ reject: { code: 'SURFACE_REPLACE_REVERSED', seq: 4, line: null } })
    expect(judge({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: 4, line: 5 } }, withImpliedPlaces(atSeq, 'append'))).toMatchObject({
      pass: false, reason: 'expected SURFACE_REPLACE_REVERSED with no line, got line 5', diff: { path: '$.error.line' },
    })
    // decodeJsonl's rejections carry lines; a line a vector gives, and values, stay as they are.
    const seqGap = { reject: { code: 'JSONL_SEQ_GAP' } }
    expect(withImpliedPlaces(seqGap, 'decodeJsonl')).toBe(seqGap)
    const atLine = { reject: { code: 'JSONL_SEQ_GAP', line: 3 } }
    expect(withImpliedPlaces(atLine, 'load')).toBe(atLine)
    const value = { value: null }
    expect(withImpliedPlaces(value, 'load')).toBe(value)
  })

  it('pins a rejection where it lies, or says it carries no place', () => {
    // Strictly: a pinned rejection is written into vectors and baselines, where a member holding undefined would show.
    expect(expectedRejectionOf({ code: 'SURFACE_REPLACE_REVERSED', seq: 4 })).toStrictEqual({ code: 'SURFACE_REPLACE_REVERSED', seq: 4 })
    expect(expectedRejectionOf({ code: 'JSONL_SEQ_GAP', line: 3 })).toStrictEqual({ code: 'JSONL_SEQ_GAP', line: 3 })
    expect(expectedRejectionOf({ code: 'JSONL_SEQ_GAP', seq: 2, line: 3 })).toStrictEqual({ code: 'JSONL_SEQ_GAP', seq: 2, line: 3 })
    expect(expectedRejectionOf({ code: 'FORMAT_VERSION_NEWER' })).toStrictEqual({ code: 'FORMAT_VERSION_NEWER', seq: null })
  })

  it('passes an acceptance, an equal value and the expected rejection, with nothing else in the verdict', () => {
    expect(judge({ ok: true, value: { any: 'thing' } }, { accept: true })).toStrictEqual({ pass: true })
    expect(judge({ ok: true, value: [{ seq: 0 }] }, { value: [{ seq: 0 }] })).toStrictEqual({ pass: true })
    expect(judge({ ok: false, error: { code: 'X_Y', seq: 2 } }, { reject: { code: 'X_Y', seq: 2 } })).toStrictEqual({ pass: true })
    expect(judge({ ok: true, value: [{ seq: 1 }] }, { value: [{ seq: 0 }] }).pass).toBe(false)
    expect(judge({ ok: false, error: { code: 'X_Y', seq: 3 } }, { reject: { code: 'X_Y', seq: 2 } }).pass).toBe(false)
  })

  it('fails a rejection where an acceptance was expected, naming its code, its seq when it has one, and its message', () => {
    expect(judge({ ok: false, error: { code: 'X_Y', seq: 3, message: 'why' } }, { accept: true })).toStrictEqual({
      pass: false,
      reason: 'expected acceptance, got rejection X_Y at seq 3: why',
      diff: { path: '$', expected: 'acceptance', actual: 'rejection {"code":"X_Y","seq":3}' },
    })
    expect(judge({ ok: false, error: { code: 'X_Y' } }, { value: 1 })).toMatchObject({ pass: false, reason: 'expected acceptance, got rejection X_Y' })
    expect(judge({ ok: false, error: { code: 'X_Y', message: '' } }, { accept: true })).toMatchObject({ pass: false, reason: 'expected acceptance, got rejection X_Y' })
  })

  it('quotes only the start of a long message, which every report of the run would carry whole', () => {
    const message = `${'m'.repeat(5000)} end`
    for (const expected of [{ accept: true }, { reject: { code: 'A_B' } }] as const) {
      const verdict = judge({ ok: false, error: { code: 'X_Y', message } }, expected)
      expect(verdict.pass).toBe(false)
      expect((verdict as { reason: string }).reason).toMatch(/: m{4000}… \(1004 more characters\)$/)
    }
  })

  it('tells a missing member or element from one that holds undefined', () => {
    expect(judge({ ok: true, value: { data: { turn: 1, step: undefined } } }, { value: { data: { turn: 1 } } })).toMatchObject({
      pass: false,
      reason: 'value differs at $.data.step: expected (absent), actual undefined',
    })
    expect(judge({ ok: true, value: [1] }, { value: [1, 2] })).toMatchObject({ reason: 'value differs at $[1] (logs diverge at seq 1; the expected log has 2 entries, the actual 1): expected 2, actual (absent)' })
  })

  it('fails an acceptance where a rejection was expected, and a wrong value', () => {
    expect(judge({ ok: true, value: 1 }, { reject: { code: 'X_Y' } }).pass).toBe(false)
    expect(judge({ ok: true, value: { nodes: [1, 2] } }, { value: { nodes: [2, 1] } })).toMatchObject({ pass: false, reason: expect.stringContaining('$.nodes[0]') })
  })

  it('says where the events a stored session gave back part from the ones expected, and how many each side has', () => {
    const event = (seq: number) => ({ type: 'assistant/chunk', seq, time: 1000, data: { text: String(seq) } })
    const stored = { header: { id: 's' }, events: [event(0), event(1), event(2), event(3)] }
    const read = { header: { id: 's' }, events: [event(0), event(2), event(3)] }
    // The event's seq is compared before its data: the event at index 1 is another one.
    expect(judge({ ok: true, value: read }, { value: stored })).toMatchObject({ reason: 'value differs at $.events[1].seq (logs diverge at seq 1; the expected log has 4 entries, the actual 3): expected 1, actual 2' })
    // And its type before its seq: a turn/end where a step/end was expected.
    const typed = (type: string, seq: number) => ({ type, seq, time: 1000, data: {} })
    expect(firstDifference([typed('step/end', 4)], [typed('turn/end', 5)])).toBe('$[0].type')
  })

  it('names the first seq where two logs diverge', () => {
    const log = [{ seq: 0, type: 'a' }, { seq: 1, type: 'b' }]
    expect(firstDivergingSeq(log, [{ seq: 0, type: 'a' }, { seq: 1, type: 'c' }])).toBe(1)
    expect(firstDivergingSeq(log, log)).toBeUndefined()
  })

  it('names the diverging event by its index when the side it comes from gives it a seq that is no seq', () => {
    const log = [{ seq: 0, type: 'a' }]
    for (const seq of [Number.NaN, Number.POSITIVE_INFINITY, -1, 2.5, '1']) expect(firstDivergingSeq(log, [...log, { seq, type: 'b' }]), String(seq)).toBe(1)
  })

  it('names the diverging event by its own seq, taken from the expected side, else the actual one, else its index', () => {
    const log = [{ seq: 7, type: 'a' }, { seq: 9, type: 'b' }]
    expect(firstDivergingSeq(log, [{ seq: 7, type: 'a' }, { seq: 9, type: 'c' }])).toBe(9)
    expect(firstDivergingSeq(log, [{ seq: 7, type: 'a' }, { seq: 8, type: 'b' }])).toBe(9)
    // The actual log is longer: its extra event is where they diverge.
    expect(firstDivergingSeq(log, [...log, { seq: 12, type: 'c' }])).toBe(12)
    // No numeric seq to name: the index.
    expect(firstDivergingSeq([{ seq: 7 }, { seq: '9' }], [{ seq: 7 }, { seq: '10' }])).toBe(1)
    expect(firstDivergingSeq([{ seq: 7 }, 'x'], [{ seq: 7 }, 'y'])).toBe(1)
    // The logs of two values that hold one (store, decodeJsonl, fork), and only where the logs differ.
    expect(firstDivergingSeq({ header: { id: 'a' }, events: log }, { header: { id: 'a' }, events: [log[0]] })).toBe(9)
    expect(firstDivergingSeq({ header: { id: 'a' }, events: log }, { header: { id: 'b' }, events: log })).toBeUndefined()
    // Not two logs: nothing to name.
    expect(firstDivergingSeq({ seq: 1 }, { seq: 2 })).toBeUndefined()
    expect(firstDivergingSeq({ events: log }, { events: 'none' })).toBeUndefined()
    expect(firstDivergingSeq([{ seq: 1 }], { 0: { seq: 2 } })).toBeUndefined()
  })
})

describe('how a judged value is shown', () => {
  it('writes what JSON text cannot tell apart, so a message never says "expected 0, actual 0"', () => {
    expect((judge({ ok: true, value: { generation: -0 } }, { value: { generation: 0 } }) as { reason: string }).reason).toBe('value differs at $.generation: expected 0, actual -0')
    expect(showValue([-0, Number.NaN, Number.POSITIVE_INFINITY, -Infinity, undefined, 5n, 'x', null, true])).toBe('[-0,NaN,Infinity,-Infinity,undefined,5n,"x",null,true]')
    expect(showValue({ a: undefined, b: { c: -0 } })).toBe('{"b":{"c":-0}}')
  })

  it('counts the holes of an array instead of walking them', () => {
    expect(showValue([1, , 3, , ,])).toBe('[1,<1 hole>,3,<2 holes>]')
    expect(showValue(decodeTagged({ $dsh: 'sparse-array', length: 4_294_967_295, entries: { 0: null } }))).toBe('[null,<4294967294 holes>]')
  })

  it('marks a cycle, stops soon after its limit, and survives an object that throws when inspected', () => {
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic['self'] = cyclic
    expect(showValue(cyclic)).toBe('{"a":1,"self":[cycle]}')
    expect(showValue(Array.from({ length: 1_000_000 }, () => 12345), 40)).toMatch(/^\[12345,12345,.*… \(\d+ more characters\)$/)
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    expect(showValue({ inner: proxy })).toBe('[an object that cannot be inspected]')
  })
})

// Each test below was written by the mutation audit of the runner's own verdict code (CHANGELOG,
// 2026-12-06): a change of the code it names survived every other test.
const accepted = (value: unknown) => ({ ok: true as const, value })

describe('values the judge must not take for plain objects or arrays (verdict)', () => {
  it('fails an object whose prototype only looks like Object.prototype (its constructor is the native Object)', () => {
    const lookalike = decodeTagged({ $dsh: 'with-prototype', prototype: 'object-lookalike', value: {} })
    expect(judge(accepted({ data: lookalike }), { value: { data: {} } })).toMatchObject({
      pass: false,
      reason: 'value differs at $.data: expected a plain object {}, actual an object with a non-intrinsic prototype {}',
    })
  })

  it('fails an array with a hole and an extra property as many keys as a dense array has', () => {
    // Own keys: "0", "length", "x": as many as a dense array of length 2 has, but the third is no "length".
    const holed = Object.assign([1, ,], { x: 1 })
    expect(judge(accepted(holed), { value: [1, undefined] })).toMatchObject({ pass: false })
    const withSymbol = Object.assign([1, ,], { [Symbol('s')]: 1 })
    expect(judge(accepted(withSymbol), { value: [1, undefined] })).toMatchObject({ pass: false })
  })
})

describe('a difference is a fail, never an exception of the judge (an error instead of a fail)', () => {
  it('fails a reply that lacks a string member the vector expects', () => {
    expect(judge(accepted({}), { value: { a: 'x' } })).toStrictEqual({
      pass: false,
      reason: 'value differs at $.a: expected "x", actual (absent)',
      diff: { path: '$.a', expected: '"x"', actual: '(absent)' },
    })
  })

  it('fails a log where a value that holds no log was expected', () => {
    expect(firstDivergingSeq({ a: 1 }, [1])).toBeUndefined()
    expect(judge(accepted([1]), { value: { a: 1 } })).toMatchObject({ pass: false, reason: 'value differs at $: expected a plain object {"a":1}, actual an array [1]' })
  })
})

describe('what a verdict reports (diff, reason)', () => {
  it('names the first differing member in sorted order, type and seq first, whatever order the members come in', () => {
    expect(firstDifference({ b: 1, a: 1 }, { b: 2, a: 2 })).toBe('$.a')
    expect(firstDifference({ data: 1, seq: 1 }, { data: 2, seq: 2 })).toBe('$.seq')
    expect(firstDifference({ seq: 1, type: 'a' }, { seq: 2, type: 'b' })).toBe('$.type')
  })

  it('keeps the diverging seq of two logs in the diff, for the reports', () => {
    const verdict = judge(accepted([{ seq: 0, type: 'a' }, { seq: 1, type: 'c' }]), { value: [{ seq: 0, type: 'a' }, { seq: 1, type: 'b' }] })
    expect(verdict).toMatchObject({ pass: false, diff: { path: '$[1].type', divergingSeq: 1 } })
  })

  it('says "1 entry" of a log of one event', () => {
    expect(judge(accepted([]), { value: [{ seq: 0 }] })).toMatchObject({ reason: 'value differs at $[0] (logs diverge at seq 0; the expected log has 1 entry, the actual 0): expected {"seq":0}, actual (absent)' })
  })

  it('quotes a side of exactly 150 characters whole', () => {
    const long = 'x'.repeat(148)
    expect(judge(accepted(1), { value: long })).toMatchObject({ reason: `value differs at $: expected ${JSON.stringify(long)}, actual 1` })
  })

  it('gives the expected and actual rejection in the diff of every rejection verdict', () => {
    expect(judge(accepted(1), { reject: { code: 'X_Y', seq: 2 } })).toStrictEqual({
      pass: false,
      reason: 'expected rejection X_Y, got acceptance: 1',
      diff: { path: '$', expected: 'rejection {"code":"X_Y","seq":2}', actual: 'acceptance 1' },
    })
    expect(judge({ ok: false, error: { code: 'X_Z', seq: 2 } }, { reject: { code: 'X_Y', seq: 2 } })).toStrictEqual({
      pass: false,
      reason: 'expected code X_Y, got X_Z',
      diff: { path: '$.error.code', expected: 'rejection {"code":"X_Y","seq":2}', actual: 'rejection {"code":"X_Z","seq":2}' },
    })
    expect(judge({ ok: false, error: { code: 'X_Y', seq: 3 } }, { reject: { code: 'X_Y', seq: 2 } })).toStrictEqual({
      pass: false,
      reason: 'expected X_Y at seq 2, got seq 3',
      diff: { path: '$.error.seq', expected: 'rejection {"code":"X_Y","seq":2}', actual: 'rejection {"code":"X_Y","seq":3}' },
    })
  })
})

describe('how a value is shown', () => {
  it('names an instance of a class called Array as an array with a non-intrinsic prototype', () => {
    const { Array: OwnArray } = { Array: class extends globalThis.Array {} }
    expect(judge(accepted(new OwnArray()), { value: [] })).toMatchObject({ reason: 'value differs at $: expected an array [], actual an array with a non-intrinsic prototype []' })
  })

  it('stops an array at its limit the same way when the limit falls right after an element', () => {
    expect(showValue([1, 2, 3], 4)).toBe('[1,2… (2 more characters)')
  })

  it('counts holes up to the next index, never up to another member', () => {
    expect(showValue(Object.assign([1, ,], { '1.5': 'x' }))).toBe('[1,<1 hole>]')
  })
})

describe('a rejection place of -0', () => {
  it('is no seq 0 or line 0, and is shown as -0', () => {
    expect(judge({ ok: false, error: { code: 'X_Y', seq: -0 } }, { reject: { code: 'X_Y', seq: 0 } })).toMatchObject({ pass: false, reason: 'expected X_Y at seq 0, got seq -0', diff: { path: '$.error.seq' } })
    expect(judge({ ok: false, error: { code: 'X_Y', line: -0 } }, { reject: { code: 'X_Y', line: 0 } })).toMatchObject({ pass: false, reason: 'expected X_Y at line 0, got line -0' })
    expect(judge({ ok: false, error: { code: 'X_Y', seq: -0 } }, { accept: true })).toMatchObject({ pass: false, reason: 'expected acceptance, got rejection X_Y at seq -0' })
    expect(judge({ ok: false, error: { code: 'X_Y', seq: 0 } }, { reject: { code: 'X_Y', seq: 0 } }).pass).toBe(true)
  })
})
