// The freezing of an in-process operation's input (conformance/frozen-input.ts): plain data is frozen
// all the way down; the host values vectors build on purpose are left as they are, and no getter runs.
import { describe, expect, it } from 'vitest'
import { frozenDeep, isFrozenInputWrite } from '../conformance/frozen-input.ts'

describe('frozenDeep', () => {
  it('freezes objects and arrays reached through data members, symbol-keyed ones included', () => {
    const hidden = Symbol('hidden')
    const value = { events: [{ data: { list: [1] } }], [hidden]: { inner: {} } }
    frozenDeep(value)
    expect([value, value.events, value.events[0], value.events[0]!.data, value.events[0]!.data.list, value[hidden], value[hidden].inner].every(Object.isFrozen)).toBe(true)
  })

  it('leaves a proxy, a revoked one included, and a typed array as they are, and runs no getter', () => {
    const { proxy, revoke } = Proxy.revocable({}, {})
    revoke()
    let reads = 0
    const value = { revoked: proxy, live: new Proxy({ a: 1 }, {}), bytes: new Uint8Array([1, 2]), get counted() { reads += 1; return {} } }
    expect(() => frozenDeep(value)).not.toThrow()
    expect(reads).toBe(0)
    expect(Object.isFrozen(value)).toBe(true)
    expect(Object.isFrozen(value.bytes)).toBe(false)
  })

  it('makes a write to it a TypeError that isFrozenInputWrite recognizes, and no other error', () => {
    const value = frozenDeep({ list: [1] })
    const writes = [() => { value.list.push(2) }, () => { value.list[0] = 2 }, () => { delete (value as Record<string, unknown>)['list'] }]
    for (const write of writes) expect(isFrozenInputWrite((() => { try { write() } catch (error) { return error } })())).toBe(true)
    expect(isFrozenInputWrite(new TypeError('no such node'))).toBe(false)
  })
})
