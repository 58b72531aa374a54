import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { snapshotJson } from '../../reference/lossless-json.ts'
import { reference } from '../../reference/index.ts'
import { user } from './helpers.ts'

const codeOf = (value: unknown): string | undefined => snapshotJson(value).fault?.code

describe('lossless JSON domain', () => {
  it('accepts the six kinds, null-prototype objects and plain objects of another realm', () => {
    const nullPrototype = Object.assign(Object.create(null) as object, { a: 1 })
    const foreign: unknown = runInNewContext('({ a: [1, { b: "x" }] })')
    expect(codeOf({ a: [null, true, 1.5, 'x\ud800', [], {}] })).toBeUndefined()
    expect(codeOf(nullPrototype)).toBeUndefined()
    expect(codeOf(foreign)).toBeUndefined()
  })

  it('detects negative zero in values parsed from JSON text', () => {
    expect(codeOf(JSON.parse('{"seq":-0}'))).toBe('JSON_NEGATIVE_ZERO')
    expect(codeOf(JSON.parse('[-0.0e5]'))).toBe('JSON_NEGATIVE_ZERO')
    expect(codeOf(JSON.parse('{"x":1e400}'))).toBe('JSON_NON_FINITE')
  })

  it('gives each host construct its code', () => {
    const sparse: unknown[] = [1]
    sparse[2] = 3
    const withProperty = Object.assign([1, 2], { extra: true })
    const withSymbol = { a: 1, [Symbol('s')]: 2 }
    const hidden = Object.defineProperty({ a: 1 }, 'b', { value: 2, enumerable: false })
    const cycle: Record<string, unknown> = {}
    cycle['self'] = cycle
    expect(codeOf({ a: undefined })).toBe('JSON_UNDEFINED')
    expect(codeOf([undefined])).toBe('JSON_UNDEFINED')
    expect(codeOf(Number.NaN)).toBe('JSON_NON_FINITE')
    expect(codeOf(() => 1)).toBe('JSON_UNSUPPORTED_VALUE')
    expect(codeOf(10n)).toBe('JSON_UNSUPPORTED_VALUE')
    expect(codeOf(Symbol('x'))).toBe('JSON_UNSUPPORTED_VALUE')
    expect(codeOf(sparse)).toBe('JSON_SPARSE_ARRAY')
    expect(codeOf(withProperty)).toBe('JSON_SPARSE_ARRAY')
    expect(codeOf(new Map())).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(new Date(0))).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(new (class Thing {})())).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(new (class List extends Array {})())).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(withSymbol)).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(hidden)).toBe('JSON_NON_PLAIN_OBJECT')
    expect(codeOf(cycle)).toBe('JSON_CYCLE')
  })

  it('reports by priority, not by position (JSON-13)', () => {
    const cycle: Record<string, unknown> = { first: -0, second: Number.NaN }
    cycle['last'] = cycle
    expect(codeOf(cycle)).toBe('JSON_CYCLE')
    expect(codeOf([-0, Number.NaN])).toBe('JSON_NON_FINITE')
    expect(codeOf([Number.NaN, undefined])).toBe('JSON_UNDEFINED')
  })

  it('does not enter values it rejects as non-plain', () => {
    const inner: Record<string, unknown> = {}
    inner['self'] = inner
    const withSymbol = { inner, [Symbol('s')]: 1 }
    expect(codeOf(withSymbol)).toBe('JSON_NON_PLAIN_OBJECT')
  })

  it('accepts shared references and copies them apart (JSON-10)', () => {
    const shared = { n: 1 }
    const snapshot = snapshotJson({ a: shared, b: shared })
    expect(snapshot.fault).toBeUndefined()
    const copy = snapshot.value as { a: object; b: object }
    expect(copy.a).toEqual(shared)
    expect(copy.a).not.toBe(copy.b)
  })

  it('reads a getter exactly once, ignores toJSON and keeps __proto__ as data (JSON-11)', () => {
    let reads = 0
    const value = { get n(): number { reads++; return reads } }
    expect(snapshotJson(value).value).toEqual({ n: 1 })
    expect(reads).toBe(1)
    expect(codeOf({ toJSON: () => 1 })).toBe('JSON_UNSUPPORTED_VALUE')
    const parsed: unknown = JSON.parse('{"__proto__":{"polluted":true}}')
    const copy = snapshotJson(parsed).value as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.keys(copy)).toEqual(['__proto__'])
  })

  it('reads the source header of a fork once: the child copies what load checked (JSON-11, FORK-5)', () => {
    const reads = { id: 0, cwd: 0 }
    // Each getter answers differently after its first read, so a second read would show in the child.
    const header = {
      version: 0,
      get id(): string { reads.id++; return reads.id === 1 ? 'parent-3' : 'someone-else' },
      createdAt: 500,
      get cwd(): string { reads.cwd++; return reads.cwd === 1 ? '/workspace' : '/elsewhere' },
    }
    const forked = reference.fork({ header, events: [user(0)], childId: 'child-7', now: 9000 })
    expect(forked).toMatchObject({ ok: true, value: { header: { id: 'child-7', cwd: '/workspace', parentSession: 'parent-3' } } })
    expect(reads).toEqual({ id: 1, cwd: 1 })
  })

  it('reads the header of resume once, though it loads the log twice (JSON-11, REPAIR-13)', () => {
    let reads = 0
    const header = { version: 0, get id(): unknown { reads++; return reads === 1 ? 'parent-3' : 42 }, createdAt: 500 }
    const resumed = reference.resume({ header, events: [user(0)], now: 9000 })
    expect(resumed.ok).toBe(true)
    expect(reads).toBe(1)
  })

  it('accepts deep nesting without the call stack (JSON-11)', () => {
    let deep: unknown = 1
    for (let depth = 0; depth < 20_000; depth++) deep = [deep]
    expect(codeOf(deep)).toBeUndefined()
  })

  it('names where the reported fault is, for the people reading the message (PROC-1: no vector compares it)', () => {
    const messageOf = (value: unknown): string | undefined => snapshotJson(value).fault?.message
    expect(messageOf(-0)).toBe('the value is negative zero')
    expect(messageOf({ data: { usage: [1, Number.NaN] } })).toBe('member data.usage[1] is NaN, which is not finite')
    expect(messageOf({ data: [{ note: undefined }] })).toBe('member data[0].note is undefined')
    const cycle: Record<string, unknown> = {}
    cycle['self'] = { list: [cycle] }
    expect(messageOf(cycle)).toBe('member self.list[0] contains itself')
    expect(messageOf({ tags: new Map() })).toContain('member tags is an object that is not a plain')
    // Naming the place must not throw where the walk itself does not: a container revoked mid-walk.
    const { proxy, revoke } = Proxy.revocable<Record<string, unknown>>({ a: 1, b: 2 }, {
      get: (target, key) => {
        if (key === 'a') revoke()
        return Reflect.get(target, key)
      },
    })
    expect(snapshotJson({ outer: proxy }).fault).toEqual({ code: 'JSON_UNSUPPORTED_VALUE', message: 'reading member outer.b threw' })
    const header = { version: 0, id: 's-1', createdAt: -0 }
    expect(reference.load({ header, events: [] })).toMatchObject({
      ok: false, error: { code: 'JSON_NEGATIVE_ZERO', message: 'in the session header, member createdAt is negative zero' },
    })
  })

  it('rejects an append candidate whose surfaceOp member holds undefined (JSON-6)', () => {
    const candidate = { type: 'todo/write', data: { todos: [] }, surfaceOp: undefined }
    expect(reference.append({ events: [], candidate, time: 1 })).toMatchObject({ ok: false, error: { code: 'JSON_UNDEFINED', seq: 0 } })
  })
})
