// The tag decoders that build host values JSON cannot carry (conformance/tagged-values.ts): each
// must give exactly the value vectors/README.md ("Tagged values") describes.
import { describe, expect, it } from 'vitest'
import { decodeTagged, MalformedTaggedValue, MOST_BUILT_ELEMENTS, MOST_SPARSE_LENGTH } from '../conformance/tagged-values.ts'
import { encodeTagged } from '../conformance/protocol.ts'

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

  it('builds the foreign-realm values of one decoded value in one realm, made once', () => {
    // A realm per tag once made 15,000 tags cost 28 s and 2.5 GB.
    const started = performance.now()
    const values = decodeTagged(Array.from({ length: 5000 }, () => ({ $dsh: 'foreign-realm', value: {} }))) as object[]
    expect(performance.now() - started).toBeLessThan(3000)
    expect(new Set(values.map(prototypeOf)).size).toBe(1)
    expect(prototypeOf(values[0])).not.toBe(Object.prototype)
    expect(prototypeOf(decodeTagged({ $dsh: 'foreign-realm', value: {} }))).not.toBe(prototypeOf(values[0]))
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

describe('malformed tagged values', () => {
  // In a reply these are `invalid reply:` (spec/adapter-protocol.md): nothing may be filled in.
  it.each([
    [{ $dsh: 'object' }, /tag "object" needs a member "value"/],
    [{ $dsh: 'object', value: [1] }, /tag "object" needs "value" to be an object/],
    [{ $dsh: 'null-prototype' }, /tag "null-prototype" needs a member "object"/],
    [{ $dsh: 'null-prototype', object: [1] }, /tag "null-prototype" needs "object" to be an object/],
    [{ $dsh: 'sparse-array' }, /tag "sparse-array" needs a member "length"/],
    [{ $dsh: 'sparse-array', length: -1 }, /tag "sparse-array" needs "length" to be an integer from 0 to 4294967295, not -1/],
    [{ $dsh: 'sparse-array', length: 2, entries: { 2: 'x' } }, /tag "sparse-array" of length 2 has no index "2"/],
    [{ $dsh: 'sparse-array', length: 2, entries: { extra: 'x' } }, /has no index "extra"/],
    [{ $dsh: 'nested', depth: 'deep', leaf: [] }, /tag "nested" needs "depth" to be an integer from 0 to 1000000, not "deep"/],
    [{ $dsh: 'nested', depth: 1.5, leaf: [] }, /"depth" to be an integer/],
    [{ $dsh: 'nested', depth: 3 }, /tag "nested" needs a member "leaf"/],
    [{ $dsh: 'shared', count: 'none', value: [] }, /tag "shared" needs "count" to be an integer/],
    [{ $dsh: 'shared', count: 2 }, /tag "shared" needs a member "value"/],
    [{ $dsh: 'foreign-realm' }, /tag "foreign-realm" needs a member "value"/],
    [{ $dsh: 'bigint' }, /tag "bigint" needs a member "value"/],
    [{ $dsh: 'bigint', value: '' }, /tag "bigint" needs "value" to be a decimal integer/],
    [{ $dsh: 'bigint', value: 12 }, /tag "bigint" needs "value" to be a string, not 12/],
    [{ $dsh: 'self-cycle', object: {} }, /tag "self-cycle" needs a member "key"/],
    [{ $dsh: 'self-cycle', object: 1, key: 'k' }, /tag "self-cycle" needs "object" to be an object, not 1/],
    [{ $dsh: 'non-enumerable', object: {}, key: 'k' }, /tag "non-enumerable" needs a member "value"/],
    [{ $dsh: 'array-property', items: [], key: 'length', value: 1 }, /tag "array-property" needs "key" to name no element and not the length/],
    [{ $dsh: 'array-property', items: [], key: '0', value: 1 }, /needs "key" to name no element/],
    [{ $dsh: 'array-property', items: [1], key: '0', value: 1 }, /needs "key" to name no element/],
    [{ $dsh: 'array-property', items: [1], key: '1', value: 1, enumerable: false }, /needs "key" to name no element .*an element to hide/],
    [{ $dsh: 'array-property', items: {}, key: 'k', value: 1 }, /needs "items" to be an array/],
    [{ $dsh: 'array-property', items: [], key: 'k', value: 1, enumerable: 'no' }, /needs "enumerable" to be true or false, not "no"/],
    [{ $dsh: 'with-prototype', prototype: 'bare' }, /tag "with-prototype" needs a member "value"/],
    [{ $dsh: 'with-prototype', prototype: 'bare', value: 1 }, /needs "value" to be an object or an array, not 1/],
    [{ $dsh: 'instance' }, /tag "instance" needs a member "class"/],
    [{ $dsh: 'instance', class: 'Date', value: 1 }, /tag "instance" of class Date takes no "value"/],
    [{ $dsh: '-0', value: 1 }, /tag "-0" has no member "value"/],
    [{ $dsh: 'undefined', extra: true }, /tag "undefined" has no member "extra"/],
    [{ $dsh: 'Object' }, /unknown tagged value "Object"/],
    [{ $dsh: 5 }, /unknown tagged value 5/],
  ])('%j is refused', (tagged, message) => {
    expect(() => decodeTagged({ data: [tagged] })).toThrow(MalformedTaggedValue)
    expect(() => decodeTagged({ data: [tagged] })).toThrow(message)
  })

  it('keeps the defaults the tag table documents: symbol-key holds true, shared has two, entries may be absent', () => {
    const object = decodeTagged({ $dsh: 'symbol-key', object: {} }) as Record<symbol, unknown>
    expect(Object.getOwnPropertySymbols(object).map(symbol => object[symbol])).toEqual([true])
    expect(decodeTagged({ $dsh: 'shared', value: 1 })).toEqual([1, 1])
    expect(decodeTagged({ $dsh: 'sparse-array', length: 2 })).toHaveLength(2)
  })

  it('decodes the escape literally, a $dsh member included', () => {
    expect(decodeTagged({ $dsh: 'object', value: { $dsh: 'literal', n: { $dsh: '-0' } } })).toEqual({ $dsh: 'literal', n: -0 })
  })
})

describe('sizes a tagged value may ask for', () => {
  it('refuses a nested depth or a shared count beyond the limit at once, before building anything', () => {
    const started = performance.now()
    expect(() => decodeTagged({ $dsh: 'nested', depth: 1e12, leaf: 0 })).toThrow(`tag "nested" needs "depth" to be an integer from 0 to ${MOST_BUILT_ELEMENTS}, not 1000000000000`)
    expect(() => decodeTagged({ $dsh: 'shared', count: 1e9, value: 0 })).toThrow(`tag "shared" needs "count" to be an integer from 0 to ${MOST_BUILT_ELEMENTS}`)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it('counts every nested and shared tag of one value against one limit', () => {
    const half = { $dsh: 'nested', depth: MOST_BUILT_ELEMENTS / 2 + 1, leaf: 0 }
    expect(() => decodeTagged([half, half])).toThrow(/would make the nested and shared tags of one value build more than 1000000 arrays and elements/)
    expect(() => decodeTagged({ $dsh: 'shared', count: MOST_BUILT_ELEMENTS, value: { $dsh: 'nested', depth: 1, leaf: 0 } })).toThrow(/build more than/)
    // A shared value counts once per copy: shared tags inside shared tags (1.7 KB, 2^28 leaves as a
    // tree) once kept serve busy for minutes, as did a count of 1,001 over an array of 1,000.
    let doubling: unknown = 0
    for (let level = 0; level < 28; level++) doubling = { $dsh: 'shared', value: doubling }
    const started = performance.now()
    expect(() => decodeTagged(doubling)).toThrow(/build more than 1000000 arrays and elements/)
    expect(() => decodeTagged({ $dsh: 'shared', count: 1001, value: Array.from({ length: 1000 }, () => 0) })).toThrow(/build more than/)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(decodeTagged({ $dsh: 'shared', count: 999, value: Array.from({ length: 1000 }, () => 0) })).toHaveLength(999)
    // Each decoded value has its own budget.
    expect(decodeTagged(half)).toBeInstanceOf(Array)
    expect(decodeTagged(half)).toBeInstanceOf(Array)
  })

  it('builds a sparse array of the longest length from its entries alone', () => {
    const started = performance.now()
    const array = decodeTagged({ $dsh: 'sparse-array', length: MOST_SPARSE_LENGTH, entries: { 0: 'a', 4294967294: 'z' } }) as unknown[]
    expect(array).toHaveLength(4_294_967_295)
    expect(Object.keys(array)).toEqual(['0', '4294967294'])
    expect(performance.now() - started).toBeLessThan(1000)
    expect(() => decodeTagged({ $dsh: 'sparse-array', length: MOST_SPARSE_LENGTH + 1 })).toThrow(/"length" to be an integer from 0 to 4294967295/)
  })
})

describe('each tag builds the value its row of vectors/README.md names', () => {
  it('undefined (an own member), -0, NaN and the infinities', () => {
    const members = decodeTagged({ a: { $dsh: 'undefined' }, z: { $dsh: '-0' }, n: { $dsh: 'NaN' }, p: { $dsh: 'Infinity' }, m: { $dsh: '-Infinity' } }) as Record<string, unknown>
    expect(Object.keys(members)).toEqual(['a', 'z', 'n', 'p', 'm'])
    expect(members['a']).toBeUndefined()
    expect(Object.is(members['z'], -0)).toBe(true)
    expect(Number.isNaN(members['n'])).toBe(true)
    expect([members['p'], members['m']]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])
  })

  it('bigint from decimal digits with an optional minus; function; symbol', () => {
    expect([decodeTagged({ $dsh: 'bigint', value: '12' }), decodeTagged({ $dsh: 'bigint', value: '-3' }), decodeTagged({ $dsh: 'bigint', value: '007' })]).toEqual([12n, -3n, 7n])
    for (const digits of ['12a', 'a12', '-', '1.5', '--1', '+1', '1e3', ' 1']) {
      expect(() => decodeTagged({ $dsh: 'bigint', value: digits })).toThrow(/tag "bigint" needs "value" to be a decimal integer/)
    }
    expect(typeof decodeTagged({ $dsh: 'function' })).toBe('function')
    expect(typeof decodeTagged({ $dsh: 'symbol' })).toBe('symbol')
  })

  it('sparse-array: its length, holes where no entry is given, entries decoded', () => {
    const array = decodeTagged({ $dsh: 'sparse-array', length: 3, entries: { 1: { $dsh: '-0' } } }) as unknown[]
    expect([array.length, 0 in array, 1 in array, 2 in array, Object.is(array[1], -0)]).toEqual([3, false, true, false, true])
    expect(decodeTagged({ $dsh: 'sparse-array', length: 0 })).toEqual([])
    expect(() => decodeTagged({ $dsh: 'sparse-array', length: 1, entries: ['a'] })).toThrow(/tag "sparse-array" needs "entries" to be an object, not \["a"\]/)
    for (const key of ['01', '-1', '1.0', '1.5']) expect(() => decodeTagged({ $dsh: 'sparse-array', length: 3, entries: { [key]: 'x' } })).toThrow(/has no index/)
  })

  it('array-property: the items with one more own enumerable member, which may be any name but an index or the length', () => {
    const array = decodeTagged({ $dsh: 'array-property', items: [1, 2], key: 'extra', value: { $dsh: '-0' } }) as unknown[] & Record<string, unknown>
    expect([Array.isArray(array), array.length, Object.keys(array), Object.is(array['extra'], -0)]).toEqual([true, 2, ['0', '1', 'extra'], true])
    expect(Object.getOwnPropertyDescriptor(array, 'extra')).toMatchObject({ enumerable: true, writable: true, configurable: true })
    // Not indexes: a leading zero, a sign, a fraction, and 2^32 - 1, which is past the last index.
    for (const key of ['01', '-1', '1.5', '4294967295']) {
      const withKey = decodeTagged({ $dsh: 'array-property', items: [], key, value: true }) as unknown[] & Record<string, unknown>
      expect([withKey.length, withKey[key]]).toEqual([0, true])
    }
  })

  it('array-property with enumerable false: the same member, hidden from Object.keys and JSON.stringify', () => {
    const array = decodeTagged({ $dsh: 'array-property', items: [1], key: 'extra', value: 2, enumerable: false }) as unknown[] & Record<string, unknown>
    expect([array.length, Object.keys(array), array['extra'], JSON.stringify(array)]).toEqual([1, ['0'], 2, '[1]'])
    expect(Object.getOwnPropertyDescriptor(array, 'extra')).toMatchObject({ enumerable: false, writable: true, configurable: true })
    const shown = decodeTagged({ $dsh: 'array-property', items: [], key: 'extra', value: 2, enumerable: true }) as unknown[]
    expect(Object.keys(shown)).toEqual(['extra'])
  })

  it('array-property with enumerable false and an element\'s index: that element, holding the value, hidden', () => {
    const array = decodeTagged({ $dsh: 'array-property', items: ['a', 'b', 'c'], key: '1', value: 'B', enumerable: false }) as unknown[]
    expect([array.length, Object.keys(array), array[1], Array.isArray(array)]).toEqual([3, ['0', '2'], 'B', true])
    expect(Object.getOwnPropertyDescriptor(array, '1')).toMatchObject({ value: 'B', enumerable: false })
    expect(encodeTagged(array)).toEqual({ $dsh: 'array-property', items: ['a', 'B', 'c'], key: '1', value: 'B', enumerable: false })
  })

  it('self-cycle: the object with an enumerable member that is the object itself', () => {
    const object = decodeTagged({ $dsh: 'self-cycle', object: { a: 1 }, key: 'self' }) as Record<string, unknown>
    expect(object['self']).toBe(object)
    expect(Object.keys(object)).toEqual(['a', 'self'])
    expect(Object.getOwnPropertyDescriptor(object, 'self')).toMatchObject({ enumerable: true, writable: true, configurable: true })
  })

  it('self-cycle with a path: the member of a node inside the object points back to it, through arrays too', () => {
    const object = decodeTagged({ $dsh: 'self-cycle', object: { a: { b: [1] } }, path: ['a', 'b'], key: '1' }) as { a: { b: unknown[] } }
    expect(object.a.b[1]).toBe(object)
    expect(object.a.b).toHaveLength(2)
    expect(() => decodeTagged({ $dsh: 'self-cycle', object: { a: 1 }, path: ['a'], key: 'k' })).toThrow(/tag "self-cycle" has a "path" that leads to no object or array at "a"/)
    expect(() => decodeTagged({ $dsh: 'self-cycle', object: {}, path: 'a', key: 'k' })).toThrow(/tag "self-cycle" needs "path" to be a list of member names, not "a"/)
    const replaced = decodeTagged({ $dsh: 'self-cycle', object: { a: [1, 2] }, path: ['a'], key: '0' }) as { a: unknown[] }
    expect(replaced.a).toEqual([replaced, 2])
    for (const key of ['3', 'length', 'x', '01']) {
      expect(() => decodeTagged({ $dsh: 'self-cycle', object: { a: [1, 2] }, path: ['a'], key })).toThrow(`tag "self-cycle" needs "key" at an array to be an index at most its length 2, not ${JSON.stringify(key)}`)
    }
  })

  it('non-enumerable: the object with a hidden own member', () => {
    const object = decodeTagged({ $dsh: 'non-enumerable', object: { a: 1 }, key: 'hidden', value: { $dsh: '-0' } }) as Record<string, unknown>
    expect(Object.keys(object)).toEqual(['a'])
    expect(Object.hasOwn(object, 'hidden') && Object.is(object['hidden'], -0)).toBe(true)
    expect(Object.getOwnPropertyDescriptor(object, 'hidden')?.enumerable).toBe(false)
    expect(() => decodeTagged({ $dsh: 'non-enumerable', object: [1], key: 'hidden', value: 1 })).toThrow(/tag "non-enumerable" needs "object" to be an object, not \[1\]/)
  })

  it('instance: the built-in classes the table names', () => {
    const instance = (name: string): unknown => decodeTagged({ $dsh: 'instance', class: name })
    for (const builtIn of [Date, Map, Set, RegExp, Error, Uint8Array]) expect(instance(builtIn.name)).toBeInstanceOf(builtIn)
    const boxed = instance('Boolean') as object
    expect([typeof boxed, boxed instanceof Boolean, boxed.valueOf()]).toEqual(['object', true, true])
    const subclassed = instance('ArraySubclass') as unknown[]
    expect(Array.isArray(subclassed) && prototypeOf(subclassed) !== Array.prototype && prototypeOf(prototypeOf(subclassed)) === Array.prototype).toBe(true)
  })

  it('instance: any other name is a class of that name whose one own member is value (null unless given)', () => {
    const widget = decodeTagged({ $dsh: 'instance', class: 'Widget', value: { id: 'm' } }) as Record<string, unknown>
    expect([widget.constructor.name, Object.keys(widget), widget['value']]).toEqual(['Widget', ['value'], { id: 'm' }])
    expect(prototypeOf(widget)).not.toBe(Object.prototype)
    expect((decodeTagged({ $dsh: 'instance', class: 'Gadget' }) as Record<string, unknown>)['value']).toBeNull()
  })

  it('nested: the leaf, decoded, inside depth arrays', () => {
    expect(decodeTagged({ $dsh: 'nested', depth: 3, leaf: 'x' })).toEqual([[['x']]])
    expect(decodeTagged({ $dsh: 'nested', depth: 0, leaf: 'x' })).toBe('x')
    expect(Object.is((decodeTagged({ $dsh: 'nested', depth: 1, leaf: { $dsh: '-0' } }) as unknown[])[0], -0)).toBe(true)
    expect(() => decodeTagged({ $dsh: 'nested', depth: MOST_BUILT_ELEMENTS, leaf: 0 })).not.toThrow()
  })

  it('null-prototype: the members on an object with no prototype', () => {
    const object = decodeTagged({ $dsh: 'null-prototype', object: { a: { $dsh: '-0' } } }) as Record<string, unknown>
    expect(prototypeOf(object)).toBeNull()
    expect(Object.keys(object)).toEqual(['a'])
    expect(Object.is(object['a'], -0)).toBe(true)
  })

  it('with-prototype none: an array with no prototype at all, still an array; an object may not have it', () => {
    const none = decodeTagged({ $dsh: 'with-prototype', value: [1, 2], prototype: 'none' }) as unknown[]
    expect([Array.isArray(none), prototypeOf(none), none.length, Reflect.ownKeys(none)]).toEqual([true, null, 2, ['0', '1', 'length']])
    expect(() => decodeTagged({ $dsh: 'with-prototype', value: { a: 1 }, prototype: 'none' })).toThrow(/needs "value" to be an array for prototype "none", not \{"a":1\}/)
  })

  it('with-prototype array: the prototype is an empty array', () => {
    const onArray = decodeTagged({ $dsh: 'with-prototype', value: [1], prototype: 'array' }) as unknown[]
    expect(Reflect.ownKeys(prototypeOf(onArray) as object)).toEqual(['length'])
  })

  it('leaves what is not tagged as it is; decoded objects keep every member as own enumerable writable data, __proto__ too', () => {
    expect(decodeTagged([null, 1, 'x', true, [null]])).toEqual([null, 1, 'x', true, [null]])
    const object = decodeTagged(JSON.parse('{"__proto__":{"a":1},"b":2}')) as Record<string, unknown>
    expect(prototypeOf(object)).toBe(Object.prototype)
    expect(Object.keys(object)).toEqual(['__proto__', 'b'])
    expect(Object.getOwnPropertyDescriptor(object, 'b')).toEqual({ value: 2, enumerable: true, writable: true, configurable: true })
  })

  it('takes only a string naming one of its tags: an inherited name is no tag', () => {
    for (const name of ['toString', 'constructor', '__proto__']) expect(() => decodeTagged({ $dsh: name })).toThrow(MalformedTaggedValue)
  })
})
