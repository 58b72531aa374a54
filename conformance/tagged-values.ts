// Values that JSON (and YAML) text cannot carry travel as tagged objects: {"$dsh": "<tag>", ...}.
// Vectors and the subprocess protocol both use this form; spec: vectors/README.md, "Tagged values".
// Decoding builds the in-memory JavaScript value an in-process adapter is handed.
import { runInNewContext } from 'node:vm'

export const TAG_KEY = '$dsh'

type Decoder = (tagged: Record<string, unknown>) => unknown

class TaggedClassInstance {
  constructor(readonly value: unknown) {}
}

function decodeSparseArray(tagged: Record<string, unknown>): unknown[] {
  const array: unknown[] = new Array(Number(tagged['length'] ?? 0))
  const entries = (tagged['entries'] ?? {}) as Record<string, unknown>
  for (const [index, value] of Object.entries(entries)) array[Number(index)] = decodeTagged(value)
  return array
}

function decodeSelfCycle(tagged: Record<string, unknown>): Record<string, unknown> {
  const object = decodeTagged(tagged['object'] ?? {}) as Record<string, unknown>
  object[String(tagged['key'] ?? 'self')] = object
  return object
}

function decodeWithSymbolKey(tagged: Record<string, unknown>): Record<string | symbol, unknown> {
  const object = decodeTagged(tagged['object'] ?? {}) as Record<string | symbol, unknown>
  object[Symbol('tagged')] = decodeTagged(tagged['value'] ?? true)
  return object
}

function decodeWithHiddenKey(tagged: Record<string, unknown>): Record<string, unknown> {
  const object = decodeTagged(tagged['object'] ?? {}) as Record<string, unknown>
  Object.defineProperty(object, String(tagged['key'] ?? 'hidden'), { value: decodeTagged(tagged['value'] ?? 1), enumerable: false })
  return object
}

function decodeArrayWithProperty(tagged: Record<string, unknown>): unknown[] {
  const array = (decodeTagged(tagged['items'] ?? []) as unknown[]).slice()
  Object.assign(array, { [String(tagged['key'] ?? 'extra')]: decodeTagged(tagged['value'] ?? 1) })
  return array
}

function decodeInstance(tagged: Record<string, unknown>): unknown {
  switch (tagged['class']) {
    case 'Date': return new Date(0)
    case 'Map': return new Map()
    case 'Set': return new Set()
    case 'RegExp': return /x/
    case 'Error': return new Error('tagged')
    case 'Uint8Array': return new Uint8Array(1)
    case 'Boolean': return Object(true)
    case 'ArraySubclass': return new (class extends Array {})()
    default: return new TaggedClassInstance(decodeTagged(tagged['value'] ?? null))
  }
}

/** The plain JSON `value` as another realm's JSON.parse builds it, with that realm's prototypes. */
function decodeForeignRealm(tagged: Record<string, unknown>): unknown {
  return runInNewContext('JSON.parse(text)', { text: JSON.stringify(tagged['value'] ?? null) })
}

/** A constructor that merely looks like Object: named Object, linked to its prototype, not native. */
function forgedObjectPrototype(): object {
  const prototype = Object.create(null) as { constructor?: unknown }
  const constructor = Object.defineProperty(function () {}, 'name', { value: 'Object' })
  constructor.prototype = prototype
  prototype.constructor = constructor
  return prototype
}

/** Prototypes that are no realm's intrinsic Object.prototype or Array.prototype. */
const NON_INTRINSIC_PROTOTYPES: Record<string, () => object> = {
  'bare': () => Object.create(null),
  'object-lookalike': () => Object.assign(Object.create(null), { constructor: Object }),
  'forged-object': forgedObjectPrototype,
  'plain-object': () => ({}),
  'array': () => [],
}

function decodeWithPrototype(tagged: Record<string, unknown>): unknown {
  const make = NON_INTRINSIC_PROTOTYPES[String(tagged['prototype'])]
  if (!make) throw new Error(`unknown prototype "${String(tagged['prototype'])}" in a with-prototype tag`)
  return Object.setPrototypeOf(decodeTagged(tagged['value'] ?? {}), make())
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

/** An array holding `count` references to one value: shared, not cyclic (JSON-10). */
function decodeShared(tagged: Record<string, unknown>): unknown[] {
  const value = decodeTagged(tagged['value'] ?? null)
  return Array.from({ length: Number(tagged['count'] ?? 2) }, () => value)
}

/** Arrays nested `depth` deep around `leaf`, built without recursion so any depth can be written. */
function decodeNested(tagged: Record<string, unknown>): unknown {
  let value = decodeTagged(tagged['leaf'] ?? null)
  for (let level = 0; level < Number(tagged['depth'] ?? 1); level += 1) value = [value]
  return value
}

const DECODERS: Record<string, Decoder> = {
  'undefined': () => undefined,
  '-0': () => -0,
  'NaN': () => Number.NaN,
  'Infinity': () => Number.POSITIVE_INFINITY,
  '-Infinity': () => Number.NEGATIVE_INFINITY,
  'bigint': (tagged) => BigInt(String(tagged['value'] ?? '0')),
  'function': () => () => undefined,
  'symbol': () => Symbol('tagged'),
  'sparse-array': decodeSparseArray,
  'self-cycle': decodeSelfCycle,
  'symbol-key': decodeWithSymbolKey,
  'non-enumerable': decodeWithHiddenKey,
  'array-property': decodeArrayWithProperty,
  'instance': decodeInstance,
  'nested': decodeNested,
  'shared': decodeShared,
  'null-prototype': (tagged) => Object.assign(Object.create(null), decodeTagged(tagged['object'] ?? {})),
  'foreign-realm': decodeForeignRealm,
  'with-prototype': decodeWithPrototype,
  'revoked-proxy': revokedProxy,
  // Escape hatch for data that really has a "$dsh" member.
  'object': (tagged) => decodeObjectMembers((tagged['value'] ?? {}) as Record<string, unknown>),
}

function decodeObjectMembers(object: Record<string, unknown>): Record<string, unknown> {
  const decoded: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(object)) {
    // defineProperty keeps a literal "__proto__" member as data instead of setting the prototype.
    Object.defineProperty(decoded, key, { value: decodeTagged(value), enumerable: true, writable: true, configurable: true })
  }
  return decoded
}

/** Replaces every tagged object in a JSON-shaped value by the value it stands for. */
export function decodeTagged(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeTagged)
  if (typeof value !== 'object' || value === null) return value
  const record = value as Record<string, unknown>
  const tag = record[TAG_KEY]
  if (typeof tag === 'string') {
    const decoder = DECODERS[tag]
    if (!decoder) throw new Error(`unknown tagged value "${tag}"`)
    return decoder(record)
  }
  return decodeObjectMembers(record)
}

export const KNOWN_TAGS = Object.keys(DECODERS)
