// The check that an in-process operation left its input as it was (conformance/unchanged-input.ts):
// every change to what the input reaches through data members is found and named by its path; the
// host values vectors build on purpose are not walked, and no getter runs.
import { describe, expect, it } from 'vitest'
import { inputChange, recordInput } from '../conformance/unchanged-input.ts'

type Input = Record<string | symbol, unknown>
const hidden = Symbol('hidden')
const sample = (): Input => ({ events: [{ seq: 0, data: { list: [1], 'odd key': -0 } }], [hidden]: { inner: {} } })

/** The change `change` makes to a fresh sample, as inputChange names it. */
function changeOf(change: (input: Input) => void): string | undefined {
  const input = sample()
  const before = recordInput(input)
  change(input)
  return inputChange(before)
}

const events = (input: Input): Record<string, unknown>[] => input['events'] as Record<string, unknown>[]
const dataOf = (input: Input): Record<string, unknown> => events(input)[0]!['data'] as Record<string, unknown>

describe('inputChange', () => {
  it('finds nothing when the operation only reads, copies or freezes its input', () => {
    expect(changeOf(() => {})).toBeUndefined()
    expect(changeOf(input => { structuredClone(events(input)).pop() })).toBeUndefined()
    expect(changeOf(input => { Object.freeze(dataOf(input)) })).toBeUndefined()
  })

  it('names each kind of change by its path: added, removed, changed, reordered, a prototype replaced', () => {
    expect(changeOf(input => { events(input).push({}) })).toBe('$.events[1] was added')
    expect(changeOf(input => { events(input).pop() })).toBe('$.events[0] was removed')
    expect(changeOf(input => { (dataOf(input)['list'] as number[])[0] = 2 })).toBe('$.events[0].data.list[0] was changed')
    expect(changeOf(input => { dataOf(input)['odd key'] = 0 })).toBe('$.events[0].data["odd key"] was changed')
    expect(changeOf(input => { dataOf(input)['list'] = [1] })).toBe('$.events[0].data.list was changed')
    expect(changeOf(input => { ((input[hidden] as Input)['inner'] as Input)['x'] = 1 })).toBe('$[Symbol(hidden)].inner.x was added')
    expect(changeOf(input => { Object.defineProperty(events(input)[0], 'seq', { enumerable: false }) })).toBe('$.events[0].seq was changed')
    expect(changeOf(input => {
      const seq = events(input)[0]!['seq']
      delete events(input)[0]!['seq']
      events(input)[0]!['seq'] = seq
    })).toBe('$.events[0]: its members were reordered')
    expect(changeOf(input => { Object.setPrototypeOf(dataOf(input), null) })).toBe('$.events[0].data: its prototype was replaced')
  })

  it('walks no proxy, revoked or not, and no typed array, and runs no getter', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    let reads = 0
    const input = { revoked: proxy, live: new Proxy({ a: 1 }, {}), bytes: new Uint8Array([1, 2]), get counted() { reads += 1; return {} } }
    const before = recordInput(input)
    expect(inputChange(before)).toBeUndefined()
    expect(reads).toBe(0)
    input.bytes[0] = 9
    expect(inputChange(before)).toBeUndefined()
    Object.defineProperty(input, 'counted', { value: {} })
    expect(inputChange(before)).toBe('$.counted was changed')
  })

  it('walks an input nested far deeper than the call stack, and names a change deep inside it', () => {
    // Once a recursive walk: a 5,000-deep value in a case overflowed the stack, an error blamed on the adapter.
    const leaf: Input = { n: 1 }
    let input: unknown = leaf
    for (let depth = 0; depth < 200_000; depth++) input = [input]
    const before = recordInput(input)
    expect(before).toHaveLength(200_001)
    leaf['n'] = 2
    expect(inputChange(before)).toBe(`$${'[0]'.repeat(200_000)}.n was changed`)
  })

  it('records an object reached twice once, where it was first reached', () => {
    const shared = { n: 1 }
    const input = { a: shared, b: [shared] }
    const before = recordInput(input)
    expect(before.map(record => record.path)).toEqual(['$', '$.a', '$.b'])
    shared.n = 2
    expect(inputChange(before)).toBe('$.a.n was changed')
  })
})
