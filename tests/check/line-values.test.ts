// How check counts the arrays and objects a line would build (conformance/check/line-values.ts): every
// `[` and `{` outside a string, strictly more than the bound refused, and a line no longer than the
// bound never scanned by check. audit counts every line of a log with its commas too (each one more
// member or element), up to its own bound for the whole log.
import { describe, expect, it } from 'vitest'
import { buildsMoreValues, FEWEST_MOST_VALUES, mostLineValues, valuesUpTo } from '../../conformance/check/line-values.ts'

const bytes = (text: string): Buffer => Buffer.from(text)

describe('the values of one line', () => {
  it('counts brackets and braces alike, and refuses only past the bound', () => {
    expect(buildsMoreValues(bytes(`${'['.repeat(5)}x`), 5)).toBe(false)
    expect(buildsMoreValues(bytes(`${'['.repeat(6)}`), 5)).toBe(true)
    expect(buildsMoreValues(bytes(`${'{'.repeat(6)}`), 5)).toBe(true)
    expect(buildsMoreValues(bytes('[{[{[{'), 5)).toBe(true)
  })

  it('counts none inside a string, an escaped quote and a multi-byte character included', () => {
    expect(buildsMoreValues(bytes(`["${'['.repeat(10)}"]`), 5)).toBe(false)
    expect(buildsMoreValues(bytes(`["\\"${'['.repeat(10)}"]`), 5)).toBe(false)
    expect(buildsMoreValues(bytes(`["é\\\\",${'['.repeat(6)}`), 5)).toBe(true)
  })

  it('counts as far as one past the bound, for audit, which sums the lines of a log', () => {
    expect(valuesUpTo(bytes('[{"a":[1],"b":"{["}]'), 10)).toBe(3)
    expect(valuesUpTo(bytes('[[[[[[[['), 2)).toBe(3)
    expect(valuesUpTo(bytes('[[[[[[[['), 0)).toBe(1)
    // With members, for audit: each comma outside a string is one more member or element.
    expect(valuesUpTo(bytes('[{"a":[1,2],"b":"{[,"}]'), 10, true)).toBe(5)
    expect(valuesUpTo(bytes('[1,2,3,4]'), 2, true)).toBe(3)
  })

  it('never scans a line no longer than the bound, and bounds by --max-line-bytes with a floor', () => {
    expect(buildsMoreValues(bytes('[[[[['), 5)).toBe(false)
    expect(mostLineValues(64 * 1024 * 1024)).toBe(1_048_576)
    expect(mostLineValues(300)).toBe(FEWEST_MOST_VALUES)
  })
})
