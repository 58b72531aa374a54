// The tag decoders that build host values JSON cannot carry (conformance/tagged-values.ts): each
// must give exactly the value vectors/README.md ("Tagged values") describes.
import { describe, expect, it } from 'vitest'
import { decodeTagged } from '../conformance/tagged-values.ts'

const prototypeOf = (value: unknown): unknown => Object.getPrototypeOf(value)

describe('tagged values', () => {
  it('foreign-realm builds the JSON value in another realm, members named __proto__ kept as data', () => {
    const value = decodeTagged({ $dsh: 'foreign-realm', value: JSON.parse('{"a":[1,{"b":"x"}],"__proto__":{"c":1}}') }) as Record<string, unknown>
    const list = value['a'] as unknown[]
    expect(prototypeOf(value)).not.toBe(Object.prototype)
    expect(prototypeOf(prototypeOf(value))).toBeNull()
    expect(Array.isArray(list) && prototypeOf(list) !== Array.prototype).toBe(true)
    expect(Object.keys(value)).toEqual(['a', '__proto__'])
    expect(JSON.stringify(value)).toBe('{"a":[1,{"b":"x"}],"__proto__":{"c":1}}')
  })

  it('with-prototype gives the value a prototype that is no intrinsic one', () => {
    const withPrototype = (prototype: string, value: unknown = { a: 1 }): unknown => decodeTagged({ $dsh: 'with-prototype', value, prototype })
    const bare = prototypeOf(withPrototype('bare')) as object
    expect(prototypeOf(bare)).toBeNull()
    expect(Reflect.ownKeys(bare)).toEqual([])
    const lookalike = prototypeOf(withPrototype('object-lookalike')) as Record<string, unknown>
    expect(prototypeOf(lookalike)).toBeNull()
    expect(lookalike['constructor']).toBe(Object)
    const forged = prototypeOf(withPrototype('forged-object')) as { constructor: { name: string; prototype: unknown } }
    expect(prototypeOf(forged)).toBeNull()
    expect(forged.constructor.name).toBe('Object')
    expect(forged.constructor.prototype).toBe(forged)
    expect(Function.prototype.toString.call(forged.constructor)).not.toContain('[native code]')
    const onObject = prototypeOf(withPrototype('plain-object', [1])) as object
    expect(prototypeOf(onObject)).toBe(Object.prototype)
    const onArray = withPrototype('array', [1]) as unknown[]
    expect([Array.isArray(onArray), Array.isArray(prototypeOf(onArray)), prototypeOf(prototypeOf(onArray)) === Array.prototype]).toEqual([true, true, true])
    expect({ ...(withPrototype('bare') as object) }).toEqual({ a: 1 })
    expect(() => withPrototype('Object')).toThrow(/unknown prototype/)
  })

  it('revoked-proxy throws on every inspection', () => {
    const proxy = decodeTagged({ $dsh: 'revoked-proxy' }) as object
    expect(() => Array.isArray(proxy)).toThrow(TypeError)
    expect(() => Object.getPrototypeOf(proxy)).toThrow(TypeError)
    expect(() => Reflect.ownKeys(proxy)).toThrow(TypeError)
  })

  it('shared holds one value several times by reference, so a diamond shares its innermost value', () => {
    const pair = decodeTagged({ $dsh: 'shared', value: { x: [1] }, count: 3 }) as unknown[]
    expect(pair).toHaveLength(3)
    expect(pair[0]).toEqual({ x: [1] })
    expect(pair[1]).toBe(pair[0])
    expect(pair[2]).toBe(pair[0])
    const diamond = decodeTagged({ $dsh: 'shared', value: { $dsh: 'shared', value: { y: 1 } } }) as unknown[][]
    expect(diamond).toHaveLength(2)
    expect(diamond[1]).toBe(diamond[0])
    expect(diamond[0]?.[1]).toBe(diamond[0]?.[0])
  })

  it('symbol-key puts the given value under a symbol, on an object or an array', () => {
    const array = decodeTagged({ $dsh: 'symbol-key', object: [1], value: { $dsh: 'function' } }) as unknown[]
    const symbols = Object.getOwnPropertySymbols(array)
    expect(Array.isArray(array) && array.length === 1 && symbols.length === 1).toBe(true)
    expect(typeof (array as unknown as Record<symbol, unknown>)[symbols[0]!]).toBe('function')
    const object = decodeTagged({ $dsh: 'symbol-key', object: { a: 1 } }) as Record<symbol, unknown>
    expect(Object.getOwnPropertySymbols(object).map(symbol => object[symbol])).toEqual([true])
  })
})
