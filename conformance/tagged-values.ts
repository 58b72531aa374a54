// Values that JSON (and YAML) text cannot carry travel as tagged objects: {"$dsh": "<tag>", ...}.
// Vectors and the subprocess protocol both use this form; spec: vectors/README.md, "Tagged values".
// Decoding builds the in-memory JavaScript value an in-process adapter is handed. It is strict: a
// tagged value that lacks a member, has one of the wrong type or one its tag does not know, or asks
// for more than the limits below, is malformed (in a reply, spec/adapter-protocol.md makes that an
// `invalid reply:`), never filled in with a default the writer did not give.
import { createContext, runInContext, type Context } from 'node:vm'
import { shortened } from './wording.ts'

export const TAG_KEY = '$dsh'

/**
 * The most arrays and elements the `nested` (depth) and `shared` (count) tags of one decoded value
 * may add to it, added up, the elements of a shared value counted again for each of its copies but the
 * first (JSON-10 reads it as that many copies, so a shared value inside a shared value is the square):
 * far beyond the 1,000 levels of JSON-11, and small enough that a reply cannot run the runner out of
 * memory or time.
 */
export const MOST_BUILT_ELEMENTS = 1_000_000

/** The longest array there is (2^32 - 1); a sparse array costs only its entries, whatever its length. */
export const MOST_SPARSE_LENGTH = 4_294_967_295

/** A tagged value that breaks its tag's rules; the message names the tag and the member. */
export class MalformedTaggedValue extends Error {}

type Members = Record<string, unknown>

/** What the decoders of one value share: the decoder itself, and the elements decoded so far. */
interface Decoding {
  decode: (value: unknown) => unknown
  /** The arrays and elements the tags added, counted against MOST_BUILT_ELEMENTS. */
  built: number
  /** Every element and member decoded so far, each copy of a shared value counted: the value's size as a tree. */
  elements: number
  /** The realm the `foreign-realm` tags of the value are built in, made at the first. */
  foreignRealm?: Context
}

interface TagRule {
  required?: readonly string[]
  optional?: readonly string[]
  decode: (tagged: Members, decoding: Decoding) => unknown
}

const shown = (value: unknown): string => shortened(JSON.stringify(value) ?? String(value), 60)

function malformed(tagged: Members, problem: string): MalformedTaggedValue {
  return new MalformedTaggedValue(`tag "${String(tagged[TAG_KEY])}" ${problem}`)
}

export const isObjectLike = (value: unknown): value is object => typeof value === 'object' && value !== null
const isMapping = (value: unknown): value is Members => isObjectLike(value) && !Array.isArray(value)

/** An integer member from 0 to `most`. */
function sizeMember(tagged: Members, name: string, most: number): number {
  const value = tagged[name]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0 || value > most) {
    throw malformed(tagged, `needs "${name}" to be an integer from 0 to ${most}, not ${shown(value)}`)
  }
  return value
}

/** Counts `count` more built elements against MOST_BUILT_ELEMENTS. */
function countBuilt(tagged: Members, decoding: Decoding, count: number): void {
  decoding.built += count
  decoding.elements += count
  if (decoding.built > MOST_BUILT_ELEMENTS) {
    throw malformed(tagged, `would make the nested and shared tags of one value build more than ${MOST_BUILT_ELEMENTS} arrays and elements`)
  }
}

function stringMember(tagged: Members, name: string): string {
  const value = tagged[name]
  if (typeof value !== 'string') throw malformed(tagged, `needs "${name}" to be a string, not ${shown(value)}`)
  return value
}

/** A member decoded, which must give an object (and, unless `arrays`, not an array). */
function objectMember(tagged: Members, name: string, decoding: Decoding, arrays: boolean): Members {
  const value = decoding.decode(tagged[name])
  if (!isObjectLike(value) || (!arrays && Array.isArray(value))) {
    throw malformed(tagged, `needs "${name}" to be ${arrays ? 'an object or an array' : 'an object'}, not ${shown(tagged[name])}`)
  }
  return value as Members
}

/** Whether `key` is an array index: the canonical decimal string of an integer below 2^32 - 1. */
export function isArrayIndex(key: string): boolean {
  const index = Number(key)
  return String(index) === key && Number.isInteger(index) && index >= 0 && index < MOST_SPARSE_LENGTH
}

/**
 * An array of `length` holes. `new Array(n)` reserves n slots below some size, so the array is cut
 * down from one of the largest length instead, which the engine stores by its entries alone.
 */
function holes(length: number): unknown[] {
  const array: unknown[] = new Array(MOST_SPARSE_LENGTH)
  array.length = length
  return array
}

function decodeSparseArray(tagged: Members, decoding: Decoding): unknown[] {
  const length = sizeMember(tagged, 'length', MOST_SPARSE_LENGTH)
  const entries = tagged['entries'] ?? {}
  if (!isMapping(entries)) throw malformed(tagged, `needs "entries" to be an object, not ${shown(entries)}`)
  const array = holes(length)
  decoding.elements += Object.keys(entries).length
  for (const [index, value] of Object.entries(entries)) {
    if (!isArrayIndex(index) || Number(index) >= length) throw malformed(tagged, `of length ${length} has no index ${shown(index)}`)
    array[Number(index)] = decoding.decode(value)
  }
  return array
}

/**
 * The object, with member `key` of the node that `path` leads to (the object itself when there is no
 * path) pointing back to it: a cycle of one step, or of as many as the path has, through arrays too.
 */
function decodeSelfCycle(tagged: Members, decoding: Decoding): Members {
  const object = objectMember(tagged, 'object', decoding, false)
  const node = nodeAlong(tagged, object, tagged['path'] ?? [])
  const key = stringMember(tagged, 'key')
  // At an array the object is an element: an index of one, or the one just past the last.
  if (Array.isArray(node) && !(isArrayIndex(key) && Number(key) <= node.length)) throw malformed(tagged, `needs "key" at an array to be an index at most its length ${node.length}, not ${shown(key)}`)
  Object.defineProperty(node, key, { value: object, enumerable: true, writable: true, configurable: true })
  return object
}

/** The object or array that `path` (member names, and array indexes as strings) leads to from `start`. */
function nodeAlong(tagged: Members, start: Members, path: unknown): Members {
  if (!Array.isArray(path) || !path.every(step => typeof step === 'string')) throw malformed(tagged, `needs "path" to be a list of member names, not ${shown(path)}`)
  let node: unknown = start
  for (const step of path as string[]) {
    node = isObjectLike(node) && Object.hasOwn(node, step) ? (node as Members)[step] : undefined
    if (!isObjectLike(node)) throw malformed(tagged, `has a "path" that leads to no object or array at ${shown(step)}`)
  }
  return node as Members
}

function decodeWithSymbolKey(tagged: Members, decoding: Decoding): Members {
  const object = objectMember(tagged, 'object', decoding, true) as Record<string | symbol, unknown>
  // The one documented default: the symbol-keyed member holds true unless a value is given.
  object[Symbol('tagged')] = Object.hasOwn(tagged, 'value') ? decoding.decode(tagged['value']) : true
  return object
}

function decodeWithHiddenKey(tagged: Members, decoding: Decoding): Members {
  const object = objectMember(tagged, 'object', decoding, false)
  Object.defineProperty(object, stringMember(tagged, 'key'), { value: decoding.decode(tagged['value']), enumerable: false })
  return object
}

function decodeArrayWithProperty(tagged: Members, decoding: Decoding): unknown[] {
  const items = decoding.decode(tagged['items'])
  if (!Array.isArray(items)) throw malformed(tagged, `needs "items" to be an array, not ${shown(tagged['items'])}`)
  const key = stringMember(tagged, 'key')
  const enumerable = tagged['enumerable'] ?? true
  if (typeof enumerable !== 'boolean') throw malformed(tagged, `needs "enumerable" to be true or false, not ${shown(enumerable)}`)
  // "length", or an index that is not a hidden element, would change the elements, not add a property.
  const hiddenElement = !enumerable && isArrayIndex(key) && Number(key) < items.length
  if ((isArrayIndex(key) && !hiddenElement) || key === 'length') throw malformed(tagged, `needs "key" to name no element and not the length (or, not enumerable, an element to hide), not ${shown(key)}`)
  Object.defineProperty(items, key, { value: decoding.decode(tagged['value']), enumerable, writable: true, configurable: true })
  return items
}

/** An instance of a class named `name` (so messages can name it) that holds `value`. */
function classInstance(name: string, value: unknown): object {
  const named = { [name]: class { constructor(readonly value: unknown) {} } }[name]!
  return new named(value)
}

const BUILT_IN_INSTANCES: Record<string, () => object> = {
  'Date': () => new Date(0),
  'Map': () => new Map(),
  'Set': () => new Set(),
  'RegExp': () => /x/,
  'Error': () => new Error('tagged'),
  'Uint8Array': () => new Uint8Array(1),
  'Boolean': () => Object(true) as object,
  'ArraySubclass': () => new (class extends Array {})(),
}

function decodeInstance(tagged: Members, decoding: Decoding): object {
  const name = stringMember(tagged, 'class')
  const builtIn = Object.hasOwn(BUILT_IN_INSTANCES, name) ? BUILT_IN_INSTANCES[name] : undefined
  if (builtIn !== undefined && Object.hasOwn(tagged, 'value')) throw malformed(tagged, `of class ${name} takes no "value"`)
  return builtIn?.() ?? classInstance(name, decoding.decode(tagged['value'] ?? null))
}

/**
 * The plain JSON `value` as another realm's JSON.parse builds it, with that realm's prototypes. The
 * foreign values of one decoded value share one realm: a realm costs about 170 KB and two milliseconds.
 */
function decodeForeignRealm(tagged: Members, decoding: Decoding): unknown {
  const text = JSON.stringify(tagged['value'])
  // Every element takes a character at least: a bound on the value's size that costs no walk.
  decoding.elements += text.length
  decoding.foreignRealm ??= createContext({ text: '' })
  decoding.foreignRealm['text'] = text
  return runInContext('JSON.parse(text)', decoding.foreignRealm)
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

function decodeWithPrototype(tagged: Members, decoding: Decoding): unknown {
  const name = stringMember(tagged, 'prototype')
  // An object without a prototype is plain (JSON-9: the null-prototype tag); an array is not (JSON-8).
  if (name === 'none') {
    const items = decoding.decode(tagged['value'])
    if (!Array.isArray(items)) throw malformed(tagged, `needs "value" to be an array for prototype "none", not ${shown(tagged['value'])}`)
    return Object.setPrototypeOf(items, null)
  }
  const make = Object.hasOwn(NON_INTRINSIC_PROTOTYPES, name) ? NON_INTRINSIC_PROTOTYPES[name] : undefined
  if (!make) throw malformed(tagged, `has an unknown prototype ${shown(name)} (known: ${[...Object.keys(NON_INTRINSIC_PROTOTYPES), 'none'].join(', ')})`)
  return Object.setPrototypeOf(objectMember(tagged, 'value', decoding, true), make())
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

/** An array holding `count` references to one value: shared, not cyclic (JSON-10). */
function decodeShared(tagged: Members, decoding: Decoding): unknown[] {
  // The one documented default: two references unless a count is given.
  const count = Object.hasOwn(tagged, 'count') ? sizeMember(tagged, 'count', MOST_BUILT_ELEMENTS) : 2
  countBuilt(tagged, decoding, count)
  const before = decoding.elements
  const value = decoding.decode(tagged['value'])
  // The elements of the value, read once per copy: the first copy is counted as it was decoded.
  if (count > 1) countBuilt(tagged, decoding, (decoding.elements - before) * (count - 1))
  return Array.from({ length: count }, () => value)
}

/** Arrays nested `depth` deep around `leaf`, built without recursion so any depth can be written. */
function decodeNested(tagged: Members, decoding: Decoding): unknown {
  const depth = sizeMember(tagged, 'depth', MOST_BUILT_ELEMENTS)
  countBuilt(tagged, decoding, depth)
  let value = decoding.decode(tagged['leaf'])
  for (let level = 0; level < depth; level += 1) value = [value]
  return value
}

function decodeObjectTag(tagged: Members, decoding: Decoding): Members {
  const value = tagged['value']
  if (!isMapping(value)) throw malformed(tagged, `needs "value" to be an object, not ${shown(value)}`)
  return decodeObjectMembers(value, decoding)
}

function decodeNullPrototype(tagged: Members, decoding: Decoding): Members {
  return Object.assign(Object.create(null) as Members, objectMember(tagged, 'object', decoding, false))
}

const constant = (value: unknown): TagRule => ({ decode: () => value })

const TAGS: Record<string, TagRule> = {
  'undefined': constant(undefined),
  '-0': constant(-0),
  'NaN': constant(Number.NaN),
  'Infinity': constant(Number.POSITIVE_INFINITY),
  '-Infinity': constant(Number.NEGATIVE_INFINITY),
  'bigint': {
    required: ['value'],
    decode: (tagged) => {
      const digits = stringMember(tagged, 'value')
      if (!/^-?\d+$/.test(digits)) throw malformed(tagged, `needs "value" to be a decimal integer, not ${shown(digits)}`)
      return BigInt(digits)
    },
  },
  'function': { decode: () => () => undefined },
  'symbol': { decode: () => Symbol('tagged') },
  'sparse-array': { required: ['length'], optional: ['entries'], decode: decodeSparseArray },
  'self-cycle': { required: ['object', 'key'], optional: ['path'], decode: decodeSelfCycle },
  'symbol-key': { required: ['object'], optional: ['value'], decode: decodeWithSymbolKey },
  'non-enumerable': { required: ['object', 'key', 'value'], decode: decodeWithHiddenKey },
  'array-property': { required: ['items', 'key', 'value'], optional: ['enumerable'], decode: decodeArrayWithProperty },
  'instance': { required: ['class'], optional: ['value'], decode: decodeInstance },
  'nested': { required: ['depth', 'leaf'], decode: decodeNested },
  'shared': { required: ['value'], optional: ['count'], decode: decodeShared },
  'null-prototype': { required: ['object'], decode: decodeNullPrototype },
  'foreign-realm': { required: ['value'], decode: decodeForeignRealm },
  'with-prototype': { required: ['value', 'prototype'], decode: decodeWithPrototype },
  'revoked-proxy': { decode: revokedProxy },
  // Escape hatch for data that really has a "$dsh" member.
  'object': { required: ['value'], decode: decodeObjectTag },
}

function decodeObjectMembers(object: Members, decoding: Decoding): Members {
  const decoded: Members = {}
  decoding.elements += Object.keys(object).length
  for (const [key, value] of Object.entries(object)) {
    // defineProperty keeps a literal "__proto__" member as data instead of setting the prototype.
    Object.defineProperty(decoded, key, { value: decoding.decode(value), enumerable: true, writable: true, configurable: true })
  }
  return decoded
}

/** Checks the members a tag has against those it takes, then builds its value. */
function decodeTag(tagged: Members, decoding: Decoding): unknown {
  const tag = tagged[TAG_KEY]
  const rule = typeof tag === 'string' && Object.hasOwn(TAGS, tag) ? TAGS[tag] : undefined
  if (rule === undefined) throw new MalformedTaggedValue(`unknown tagged value ${shown(tag)} (a "${TAG_KEY}" member of data is escaped with the "object" tag)`)
  const known = new Set([TAG_KEY, ...rule.required ?? [], ...rule.optional ?? []])
  const missing = rule.required?.find((name) => !Object.hasOwn(tagged, name))
  if (missing !== undefined) throw malformed(tagged, `needs a member "${missing}"`)
  const unknown = Object.keys(tagged).find((name) => !known.has(name))
  if (unknown !== undefined) throw malformed(tagged, `has no member ${shown(unknown)}`)
  return rule.decode(tagged, decoding)
}

/**
 * Replaces every tagged object in a JSON-shaped value by the value it stands for. Throws
 * MalformedTaggedValue for a tagged value that breaks its tag's rules (vectors/README.md).
 */
export function decodeTagged(value: unknown): unknown {
  const decoding: Decoding = {
    built: 0,
    elements: 0,
    decode: (item) => {
      if (Array.isArray(item)) {
        decoding.elements += item.length
        return item.map(decoding.decode)
      }
      if (!isMapping(item)) return item
      return Object.hasOwn(item, TAG_KEY) ? decodeTag(item, decoding) : decodeObjectMembers(item, decoding)
    },
  }
  return decoding.decode(value)
}
