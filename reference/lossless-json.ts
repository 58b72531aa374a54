/**
 * Chapter 02: the lossless JSON value domain, plus the small JSON guards every other chapter uses.
 *
 * `snapshotJson` walks a value once (iteratively, so depth is bounded by memory, not the call stack),
 * reads every own property exactly once (accessors included), and returns a detached copy together
 * with the fault of highest priority (JSON-13) found anywhere in it. The copy is best-effort when
 * there is a fault: offending leaves are kept as they were, and values the walk does not enter
 * (non-plain objects, foreign arrays, the second visit of an ancestor) are kept by reference, so the
 * load phases that run before the JSON check (legacy, shape, vocabulary) can still read the record;
 * the fault itself is reported at its place in the replay phase.
 */
import { fault, type ErrorCode, type Fault } from './result.ts'

export type JsonRecord = Record<string, unknown>

export interface Snapshot {
  value: unknown
  fault?: Fault
}

// ---- small guards over parsed data ----------------------------------------------------------

/** Array.isArray, except that an object it cannot inspect (a revoked proxy) is taken for no array. */
function isInspectableArray(value: object): boolean {
  try {
    return Array.isArray(value)
  }
  // Stryker disable next-line BlockStatement: an empty handler returns undefined, which every caller reads as false
  catch {
    return false
  }
}

/**
 * A non-array, non-null object (what JSON calls an object). An object that cannot be inspected (a
 * revoked proxy) counts as one, so that the lossless-JSON walk finds it is not plain (JSON-9).
 */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !isInspectableArray(value)
}

export function isSafeInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && !Object.is(value, -0)
}

export function isNonNegativeSafeInteger(value: unknown): value is number {
  return isSafeInteger(value) && value >= 0
}

export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0
}

export function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key)
}

/** Every required key is present and no key falls outside required + optional. */
export function hasOnlyKeys(record: JsonRecord, required: readonly string[], optional: readonly string[] = []): boolean {
  const allowed = new Set([...required, ...optional])
  return Object.keys(record).every(key => allowed.has(key)) && required.every(key => hasOwn(record, key))
}

/** Structural equality over JSON values; object key order does not matter. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  // An explicit stack instead of recursion: depth is unbounded (JSON-11), the call stack is not.
  const pending: Array<[unknown, unknown]> = [[a, b]]
  while (pending.length > 0) {
    const [left, right] = pending.pop()!
    if (Object.is(left, right)) continue
    // Stryker disable next-line LogicalOperator: with only one side an array, both forms end in return false: here by the length test, there by the record test
    if (Array.isArray(left) || Array.isArray(right)) {
      if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false
      left.forEach((item, index) => pending.push([item, right[index]]))
      continue
    }
    if (!isRecord(left) || !isRecord(right)) return false
    const keys = Object.keys(left)
    // Stryker disable next-line MethodExpression: a key missing on the right is compared with undefined below, which no JSON value equals
    if (keys.length !== Object.keys(right).length || !keys.every(key => hasOwn(right, key))) return false
    for (const key of keys) pending.push([left[key], right[key]])
  }
  return true
}

// ---- prototype tests that work across realms ------------------------------------------------

const NATIVE_CONSTRUCTOR_SOURCE = { Object: 'function Object() { [native code] }', Array: 'function Array() { [native code] }' }

/**
 * Whether `prototype` is some realm's own `Object.prototype` or `Array.prototype`: its own `constructor`
 * is that realm's native constructor (the source text of a native function keeps its original name, and
 * no other function has that text), which links back to it (the link is read-only on a native one).
 */
function isIntrinsicPrototypeOf(prototype: object, name: 'Object' | 'Array'): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'constructor')
  const constructor: unknown = descriptor?.value
  if (typeof constructor !== 'function') return false
  return constructor.prototype === prototype
    && Function.prototype.toString.call(constructor) === NATIVE_CONSTRUCTOR_SOURCE[name]
}

function hasPlainObjectPrototype(value: object): boolean {
  const prototype: object | null = Object.getPrototypeOf(value)
  return prototype === null || isIntrinsicPrototypeOf(prototype, 'Object')
}

/** JSON-8 asks only that the array's own prototype be some realm's intrinsic one. */
function hasPlainArrayPrototype(value: unknown[]): boolean {
  const prototype: object | null = Object.getPrototypeOf(value)
  return Array.isArray(prototype) && isIntrinsicPrototypeOf(prototype, 'Array')
}

// ---- the walk --------------------------------------------------------------------------------

type Container = Record<string, unknown> | unknown[]

/**
 * A pending visit of `source[key]`, copied to `into[key]`. The member is read only when the visit
 * runs, so each property is read exactly once. `parent` is the visit of `source` itself (undefined for
 * the root), kept so that a fault can name where it is. `leave` ends an ancestor's subtree.
 */
interface Visit { kind: 'visit'; source: object; key: string; into: Container; parent: Visit | undefined }
type Task = Visit | { kind: 'leave'; source: object }

interface Walk {
  tasks: Task[]
  ancestors: Set<object>
  /** The first fault met for each code. */
  faults: Map<ErrorCode, Fault>
}

/** JSON-13: when a value holds several faults, the code earliest in this list is reported. */
const FAULT_PRIORITY: readonly ErrorCode[] = [
  'JSON_CYCLE', 'JSON_UNSUPPORTED_VALUE', 'JSON_UNDEFINED', 'JSON_NON_PLAIN_OBJECT',
  'JSON_SPARSE_ARRAY', 'JSON_NON_FINITE', 'JSON_NEGATIVE_ZERO',
]

function note(walk: Walk, found: Fault): void {
  // Stryker disable next-line ConditionalExpression: keeping the last fault of a code instead of the first changes only the message
  if (!walk.faults.has(found.code)) walk.faults.set(found.code, found)
}

function reportedFault(walk: Walk): Fault | undefined {
  const code = FAULT_PRIORITY.find(candidate => walk.faults.has(candidate))
  // Stryker disable next-line ConditionalExpression: looking up an undefined code finds undefined
  return code === undefined ? undefined : walk.faults.get(code)
}

/**
 * Where a visit is, for messages: the path of member names and [indices] from the root, or "the value"
 * for the root itself. Only message text is built from it.
 */
function placeOf(at: Visit | undefined): string {
  let path = ''
  for (let visit = at; visit !== undefined; visit = visit.parent) {
    // An entered proxy may have been revoked since, and Array.isArray would throw on it.
    const step = isInspectableArray(visit.source) ? `[${visit.key}]` : `.${visit.key}`
    path = step + path
  }
  return path === '' ? 'the value' : `member ${path.replace(/^\./, '')}`
}

function scalarFault(value: unknown, at: Visit | undefined): Fault | undefined {
  switch (typeof value) {
    case 'undefined':
      return fault('JSON_UNDEFINED', `${placeOf(at)} is undefined`)
    case 'number':
      if (!Number.isFinite(value)) return fault('JSON_NON_FINITE', `${placeOf(at)} is ${String(value)}, which is not finite`)
      if (Object.is(value, -0)) return fault('JSON_NEGATIVE_ZERO', `${placeOf(at)} is negative zero`)
      return undefined
    case 'function':
    case 'symbol':
    case 'bigint':
      return fault('JSON_UNSUPPORTED_VALUE', `${placeOf(at)} is a ${typeof value}, which is not a JSON value`)
    // Stryker disable next-line ConditionalExpression: falling out of the switch returns undefined, as the default does
    default:
      return undefined
  }
}

/** Stores a copied member; a literal "__proto__" key is defined as plain data, never as the prototype. */
function put(into: Container, key: string, value: unknown): void {
  switch (key) {
    case '__proto__':
      Object.defineProperty(into, key, {
        value,
        enumerable: true,
        // Stryker disable next-line BooleanLiteral: no operation writes or deletes a member of a copy, and whether one could is no part of a JSON value (JSON-14)
        configurable: true, writable: true,
      })
      return
    default:
      (into as Record<string, unknown>)[key] = value
  }
}

function read(walk: Walk, at: Visit): unknown {
  try {
    return Reflect.get(at.source, at.key)
  }
  // Stryker disable next-line BlockStatement: JSON-11 leaves how a throwing accessor is reported outside the spec, so no conforming result depends on this handler
  catch {
    // Stryker disable next-line StringLiteral: JSON-11 leaves how a throwing accessor is reported outside the spec
    note(walk, fault('JSON_UNSUPPORTED_VALUE', `reading ${placeOf(at)} threw`))
    return null
  }
}

/** The first integer that is not an array index (2^32 - 1); every index of an array is below its length too. */
const ARRAY_INDEX_LIMIT = 4_294_967_295

/** Whether `key` is an array index: the canonical decimal string of an integer from 0 to 2^32 - 2. */
export function isArrayIndex(key: PropertyKey): boolean {
  if (typeof key !== 'string') return false
  const index = Number(key)
  return String(index) === key && Number.isInteger(index) && index >= 0 && index < ARRAY_INDEX_LIMIT
}

/** Enter `source`, reached by `parent`: its members are visited next, in order, then it stops being an ancestor. */
function enter(walk: Walk, source: object, keys: readonly string[], into: Container, parent: Visit | undefined): void {
  walk.ancestors.add(source)
  walk.tasks.push({ kind: 'leave', source })
  // Stryker disable next-line StringLiteral: the walk tells tasks apart by kind 'leave'; any other kind is a visit
  for (let index = keys.length - 1; index >= 0; index--) walk.tasks.push({ kind: 'visit', source, key: keys[index] as string, into, parent })
}

/** The copy of an array to fill, or undefined when the array is not entered. */
function visitArray(walk: Walk, source: unknown[], at: Visit | undefined): unknown[] | undefined {
  if (!hasPlainArrayPrototype(source)) {
    note(walk, fault('JSON_NON_PLAIN_OBJECT', `${placeOf(at)} is an array with a foreign prototype`))
    return undefined
  }
  const length = source.length
  const keys = Reflect.ownKeys(source)
  // Integer keys come first and in ascending order, so this visits the present elements in order.
  const indices = keys.filter(isArrayIndex) as string[]
  if (indices.length !== length) note(walk, fault('JSON_SPARSE_ARRAY', `${placeOf(at)} is an array with a hole`))
  if (keys.length !== indices.length + 1) note(walk, fault('JSON_SPARSE_ARRAY', `${placeOf(at)} is an array with own properties besides its elements`))
  const copy: unknown[] = new Array(length)
  enter(walk, source, indices, copy, at)
  return copy
}

/** JSON-9: a symbol key or a non-enumerable member makes the object non-plain (and it is not entered). */
function ownMemberFault(source: object, at: Visit | undefined): Fault | undefined {
  for (const key of Reflect.ownKeys(source)) {
    if (typeof key !== 'string') return fault('JSON_NON_PLAIN_OBJECT', `${placeOf(at)} has a symbol key`)
    if (!Object.prototype.propertyIsEnumerable.call(source, key)) return fault('JSON_NON_PLAIN_OBJECT', `${placeOf(at)} has a member ${key} that is not enumerable`)
  }
  return undefined
}

/** JSON-9 for one object, without walking its members: plain prototype, string keys, all enumerable. */
export function isPlainRecord(value: unknown): value is JsonRecord {
  return isRecord(value) && hasPlainObjectPrototype(value) && ownMemberFault(value, undefined) === undefined
}

function visitObject(walk: Walk, source: object, at: Visit | undefined): Record<string, unknown> | undefined {
  const found = hasPlainObjectPrototype(source)
    ? ownMemberFault(source, at)
    : fault('JSON_NON_PLAIN_OBJECT', `${placeOf(at)} is an object that is not a plain or null-prototype object`)
  if (found !== undefined) {
    note(walk, found)
    return undefined
  }
  const copy: Record<string, unknown> = {}
  enter(walk, source, Object.keys(source), copy, at)
  return copy
}

/** What a copy holds in place of an object that cannot be inspected: an object of no plain kind, without members. */
class Uninspectable {}

/** The copy of `value`, reached by `at`: itself for a scalar and for anything the walk does not enter. */
function visit(walk: Walk, value: unknown, at: Visit | undefined): unknown {
  if (typeof value !== 'object' || value === null) {
    const found = scalarFault(value, at)
    if (found !== undefined) note(walk, found)
    return value
  }
  if (walk.ancestors.has(value)) {
    note(walk, fault('JSON_CYCLE', `${placeOf(at)} contains itself`))
    return value
  }
  try {
    return (Array.isArray(value) ? visitArray(walk, value, at) : visitObject(walk, value, at)) ?? value
  } catch {
    // Only a hostile object gets here (a proxy whose traps throw, a forged constructor whose
    // `prototype` getter throws); it cannot be a plain object. The copy holds a stand-in, so that the
    // phases before replay read a value that cannot throw and is no plain object either.
    note(walk, fault('JSON_NON_PLAIN_OBJECT', `inspecting ${placeOf(at)} threw`))
    return new Uninspectable()
  }
}

/** Validate and detach `input`, reading each property once. */
export function snapshotJson(input: unknown): Snapshot {
  const walk: Walk = { tasks: [], ancestors: new Set(), faults: new Map() }
  const root = visit(walk, input, undefined)
  for (let task = walk.tasks.pop(); task !== undefined; task = walk.tasks.pop()) {
    if (task.kind === 'leave') walk.ancestors.delete(task.source)
    else put(task.into, task.key, visit(walk, read(walk, task), task))
  }
  const found = reportedFault(walk)
  // Stryker disable next-line ConditionalExpression: readers treat an absent fault and a fault member holding undefined alike
  return found === undefined ? { value: root } : { value: root, fault: found }
}

/** The snapshot of an optional input: an absent one (undefined) stays absent. */
export function optionalSnapshot(input: unknown): Snapshot | undefined {
  return input === undefined ? undefined : snapshotJson(input)
}
