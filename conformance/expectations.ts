// Judges one operation result against one expectation. The expectation kinds are a small closed set
// (vectors/README.md): accept, value, reject. Error codes are compared; messages never are.
import type { ExpectedRejection, Expectation } from './vector-cases.ts'
import { isArrayIndex, isObjectLike } from './tagged-values.ts'
import { isNonNegativeSafeInteger, isRecord } from '../reference/lossless-json.ts'
import { cutPoint, plural, shortened, TRACE_MOST } from './wording.ts'
import { positionText, stringDifference, type StringPosition } from './string-difference.ts'

export type OperationResult =
  | { ok: true; value: unknown }
  | { ok: false; error: { code: string; seq?: number; line?: number; message?: string } }

/**
 * An implementation's message for a rejection, for people, after its code: its start alone, since it
 * may be of any length and every report of the run quotes it (a 50 MB one made JSON and JUnit reports
 * of 52 MB).
 */
function messageClause(message: string | undefined): string {
  return message === undefined || message === '' ? '' : `: ${shortened(message, TRACE_MOST)}`
}

/** The most characters of a rejection's code a reason quotes. */
const CODE_MOST = 200

/** A rejection's code, for people: an implementation's own may be of any length too (a subprocess's is held to a form, not a length). */
export function codeText(code: string): string {
  return shortened(code, CODE_MOST)
}

/**
 * What differed, for reports: where, both sides as short JSON text (each preceded by its kind when the
 * kinds differ), and for logs the diverging seq.
 */
export interface Mismatch {
  path: string
  expected: string
  actual: string
  /** For two long strings: where they part; `expected` and `actual` then show the text around it. */
  at?: StringPosition
  divergingSeq?: number
}

/** `unlistedCode`: the rejection's code, when spec/errors.md does not list it (set by run-case.ts). */
export type Verdict = { pass: true } | { pass: false; reason: string; diff: Mismatch; unlistedCode?: string }

/** The kinds of JSON-1 that hold values; every other object is named by what it is (see objectKind). */
const PLAIN_OBJECT = 'a plain object'
const ARRAY = 'an array'
const SPARSE_ARRAY = 'a sparse array'

const NATIVE_CONSTRUCTOR_SOURCE = { Object: 'function Object() { [native code] }', Array: 'function Array() { [native code] }' }

/**
 * Whether `prototype` is some realm's own Object.prototype or Array.prototype (JSON-8, JSON-9): its own
 * `constructor` is that realm's native constructor, which links back to it.
 */
function isIntrinsicPrototype(prototype: object, name: 'Object' | 'Array'): boolean {
  const constructor: unknown = Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value
  return typeof constructor === 'function' && constructor.prototype === prototype
    && Function.prototype.toString.call(constructor) === NATIVE_CONSTRUCTOR_SOURCE[name]
}

/** What an object whose prototype is no intrinsic one is: an instance of the class that made it, when it has a name. */
function instanceKind(prototype: object | null, what: 'object' | 'array'): string {
  const constructor: unknown = prototype === null ? undefined : Object.getOwnPropertyDescriptor(prototype, 'constructor')?.value
  const name = typeof constructor === 'function' && constructor.prototype === prototype ? constructor.name : ''
  return name === '' || name === 'Object' || name === 'Array' ? `an ${what} with a non-intrinsic prototype` : `an instance of ${shortened(name, 60)}`
}

/** An array's kind, from its own keys (which cost its entries, never its holes). */
function arrayKind(array: unknown[], keys: readonly PropertyKey[]): string {
  const prototype = Object.getPrototypeOf(array) as object | null
  if (!(Array.isArray(prototype) && isIntrinsicPrototype(prototype, 'Array'))) return instanceKind(prototype, 'array')
  // Own keys list the indices first, in order, then "length", then other names, then symbols.
  if (keys.length === array.length + 1 && keys[array.length] === 'length') return ARRAY
  const extra = keys.find((key) => key !== 'length' && !(typeof key === 'string' && isArrayIndex(key)))
  if (typeof extra === 'symbol') return 'an array with a symbol-keyed member'
  if (extra !== undefined) return `an array with the extra property ${shortened(JSON.stringify(extra), 60)}`
  return SPARSE_ARRAY
}

/**
 * The kind of an object as chapter 02 tells kinds apart: a plain object (its prototype null or some
 * realm's Object.prototype, JSON-9, so a null-prototype object is one), an array (dense and ordinary,
 * JSON-8), a sparse array, or a value outside the domain, named for messages. Values of different
 * kinds are never equal (JSON-14).
 */
function objectKind(value: object): string {
  const keys = Reflect.ownKeys(value)
  if (Array.isArray(value)) return arrayKind(value, keys)
  const prototype = Object.getPrototypeOf(value) as object | null
  if (prototype !== null && !isIntrinsicPrototype(prototype, 'Object')) return instanceKind(prototype, 'object')
  if (keys.some((key) => typeof key === 'symbol')) return 'an object with a symbol-keyed member'
  const hidden = keys.find((key) => !Object.prototype.propertyIsEnumerable.call(value, key))
  return hidden === undefined ? PLAIN_OBJECT : `an object with the non-enumerable member ${shortened(JSON.stringify(hidden), 60)}`
}

/**
 * The first place (depth first, members in sorted order, `type` and `seq` first) where two JSON-shaped
 * values differ, as a path; undefined when they are equal. Iterative, so arbitrarily deep values cannot
 * overflow the stack. Throws when a value cannot be inspected (a revoked proxy, a getter that throws).
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): string | undefined {
  const pending: Array<[unknown, unknown, string]> = [[expected, actual, path]]
  while (pending.length > 0) {
    const [left, right, where] = pending.pop()!
    const children = differenceOrChildren(left, right, where)
    if (typeof children === 'string') return children
    for (let index = children.length - 1; index >= 0; index -= 1) pending.push(children[index]!)
  }
  return undefined
}

type Pairs = Array<[unknown, unknown, string]>

/** Either the path where two values differ on the spot, or the pairs of children still to compare. */
function differenceOrChildren(expected: unknown, actual: unknown, path: string): string | Pairs {
  if (typeof expected === 'number' && typeof actual === 'number') return Object.is(expected, actual) ? [] : path
  if (!isObjectLike(expected) || !isObjectLike(actual)) return expected === actual ? [] : path
  const kind = objectKind(expected)
  if (objectKind(actual) !== kind) return path
  if (kind === ARRAY) return elementPairs(expected as unknown[], actual as unknown[], path)
  if (kind === SPARSE_ARRAY) {
    // Compared by length and entries; holes are never walked.
    if ((expected as unknown[]).length !== (actual as unknown[]).length) return path
    return memberPairs(expected as Record<string, unknown>, actual as Record<string, unknown>, (key) => `${path}[${key}]`, (a, b) => Number(a) - Number(b))
  }
  // A plain object, or two values outside the domain of one kind: compared by their enumerable members.
  return memberPairs(expected as Record<string, unknown>, actual as Record<string, unknown>, (key) => `${path}.${key}`, identityFirst)
}

/** The members that say what a value is, compared before the rest: two events of another type or seq differ there first. */
const IDENTITY_MEMBERS = ['type', 'seq']

/** Where a member name sorts among the identity members: after them all when it is none of them. */
function identityRank(name: string): number {
  const rank = IDENTITY_MEMBERS.indexOf(name)
  return rank === -1 ? IDENTITY_MEMBERS.length : rank
}

/** Member names in sorted order, the identity members first. */
function identityFirst(a: string, b: string): number {
  return identityRank(a) - identityRank(b) || (a < b ? -1 : a > b ? 1 : 0)
}

function elementPairs(expected: unknown[], actual: unknown[], path: string): Pairs {
  const shared = Math.min(expected.length, actual.length)
  const children = expected.slice(0, shared).map((item, index): [unknown, unknown, string] => [item, actual[index], `${path}[${index}]`])
  // A length difference shows at the first missing index, after the shared prefix is compared.
  if (expected.length !== actual.length) children.push([0, 1, `${path}[${shared}]`])
  return children
}

function memberPairs(expected: Record<string, unknown>, actual: Record<string, unknown>, at: (key: string) => string, order?: (a: string, b: string) => number): string | Pairs {
  const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort(order)
  const children: Pairs = []
  for (const key of keys) {
    if (!Object.hasOwn(expected, key) || !Object.hasOwn(actual, key)) return children.length === 0 ? at(key) : [...children, [0, 1, at(key)]]
    children.push([expected[key], actual[key], at(key)])
  }
  return children
}

/** The log a value is or holds: an array of events, or the `events` of a value that has them (store, decodeJsonl, fork). */
function logIn(value: unknown): unknown[] | undefined {
  const log = isRecord(value) && Object.hasOwn(value, 'events') ? value['events'] : value
  // Only ordinary arrays are walked index by index: a sparse one may be 2^32 - 1 long.
  return Array.isArray(log) && objectKind(log) === ARRAY ? log : undefined
}

/** For two logs, or two values holding logs, the seq of the first event that differs: "where they diverge". */
export function firstDivergingSeq(expected: unknown, actual: unknown): number | undefined {
  const [expectedLog, actualLog] = [logIn(expected), logIn(actual)]
  if (expectedLog === undefined || actualLog === undefined) return undefined
  const length = Math.max(expectedLog.length, actualLog.length)
  for (let index = 0; index < length; index += 1) {
    if (firstDifference(expectedLog[index], actualLog[index]) !== undefined) {
      const event = expectedLog[index] ?? actualLog[index]
      // An adapter's event may carry any seq at all; only a seq of the log's kind names a place.
      return isRecord(event) && isNonNegativeSafeInteger(event['seq']) ? event['seq'] : index
    }
  }
  return undefined
}

/** "; the expected log has 8 entries, the actual 6" where two logs differ in length, else "". */
function logLengthsText(expected: unknown, actual: unknown): string {
  const [expectedLog, actualLog] = [logIn(expected), logIn(actual)]
  if (expectedLog === undefined || actualLog === undefined || expectedLog.length === actualLog.length) return ''
  return `; the expected log has ${plural(expectedLog.length, 'entry', 'entries')}, the actual ${actualLog.length}`
}

/**
 * A judged value as JSON text, except for what JSON text cannot tell apart: `-0`, `NaN`, `Infinity`,
 * `undefined` (outside an object's members, which JSON drops too) and bigints are written as such, so
 * that a message never reads "expected 0, actual 0". Holes in an array are counted, never walked:
 * `[1,<2 holes>]`. Writing stops soon after `most` characters.
 */
export function showValue(value: unknown, most = 400): string {
  const parts: string[] = []
  let written = 0
  const ancestors = new Set<object>()
  const write = (text: string): void => {
    parts.push(text)
    written += text.length
  }
  const visit = (item: unknown): void => {
    if (written > most) return
    if (typeof item === 'number') return write(Object.is(item, -0) ? '-0' : String(item))
    if (typeof item === 'bigint') return write(`${item}n`)
    if (typeof item !== 'object' || item === null) return write(JSON.stringify(item) ?? String(item))
    if (ancestors.has(item)) return write('[cycle]')
    ancestors.add(item)
    if (Array.isArray(item)) visitElements(item)
    else visitMembers(item)
    ancestors.delete(item)
  }
  const visitMembers = (object: object): void => {
    write('{')
    Object.entries(object).filter(([, member]) => member !== undefined).forEach(([key, member], index) => {
      if (index > 0) write(',')
      write(`${JSON.stringify(key)}:`)
      visit(member)
    })
    write('}')
  }
  const visitElements = (array: unknown[]): void => {
    let entries: number[] | undefined
    let items = 0
    const item = (writeItem: () => void): void => {
      if (items > 0) write(',')
      items += 1
      writeItem()
    }
    write('[')
    for (let index = 0; index < array.length && written <= most;) {
      if (Object.hasOwn(array, index)) {
        item(() => visit(array[index]))
        index += 1
        continue
      }
      // A hole: jump to the next entry, found among the array's keys (listed once, only for a sparse array).
      entries ??= Object.keys(array).filter(isArrayIndex).map(Number)
      const next = entries.find((entry) => entry > index) ?? array.length
      item(() => write(`<${plural(next - index, 'hole')}>`))
      index = next
    }
    write(']')
  }
  try {
    visit(value)
  } catch {
    // An adapter returned an object that throws when inspected (a revoked proxy, say).
    return '[an object that cannot be inspected]'
  }
  return shortened(parts.join(''), most)
}

const show = (value: unknown): string => showValue(value)

/**
 * How much of each side a reason quotes, so that both fit the 400 characters of a console line (a
 * 1,000-deep array would push the actual side out); the `diff` of the reports keeps the longer sides.
 */
const REASON_SIDE_MOST = 150

/** The value at `path`, boxed; undefined when there is no such member or element, which a member holding undefined is not. */
function valueAt(value: unknown, path: string): { value: unknown } | undefined {
  const parts = path.slice(1).match(/\.[^.[]+|\[\d+\]/g) ?? []
  let current: unknown = value
  for (const part of parts) {
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part.slice(1)
    if (!(isRecord(current) || Array.isArray(current)) || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return { value: current }
}

/**
 * Both sides at the path where they differ, shown; each preceded by its kind when both are objects
 * of different kinds, which their JSON text alone may not tell apart ("a plain object {}" against
 * "an instance of Map {}").
 */
function shownSides(expected: unknown, actual: unknown, path: string): { expected: string; actual: string; at?: StringPosition } {
  const [left, right] = [valueAt(expected, path), valueAt(actual, path)]
  if (typeof left?.value === 'string' && typeof right?.value === 'string') {
    const parted = stringDifference(left.value, right.value)
    if (parted !== undefined) return parted
  }
  const shown = (side: { value: unknown } | undefined): string => (side === undefined ? '(absent)' : show(side.value))
  if (!isObjectLike(left?.value) || !isObjectLike(right?.value)) return { expected: shown(left), actual: shown(right) }
  const [leftKind, rightKind] = [objectKind(left.value), objectKind(right.value)]
  if (leftKind === rightKind) return { expected: shown(left), actual: shown(right) }
  return { expected: `${leftKind} ${shown(left)}`, actual: `${rightKind} ${shown(right)}` }
}

function rejectionText(error: ExpectedRejection): string {
  return show({ code: error.code, seq: error.seq, line: error.line })
}

export function judge(result: OperationResult, expect: Expectation): Verdict {
  if ('reject' in expect) return judgeRejection(result, expect.reject)
  if (!result.ok) {
    return {
      pass: false,
      reason: `expected acceptance, got rejection ${codeText(result.error.code)}${result.error.seq === undefined ? '' : ` at seq ${showValue(result.error.seq)}`}${messageClause(result.error.message)}`,
      diff: { path: '$', expected: 'acceptance', actual: `rejection ${rejectionText(result.error)}` },
    }
  }
  if ('accept' in expect) return { pass: true }
  const path = firstDifference(expect.value, result.value)
  if (path === undefined) return { pass: true }
  const seq = firstDivergingSeq(expect.value, result.value)
  const where = seq === undefined ? '' : ` (logs diverge at seq ${seq}${logLengthsText(expect.value, result.value)})`
  const diff: Mismatch = { path, ...shownSides(expect.value, result.value, path) }
  if (seq !== undefined) diff.divergingSeq = seq
  const inString = diff.at === undefined ? '' : ` (${positionText(diff.at)} of the string)`
  // A side may be cut already (showValue, the string excerpt), so no count of what is left is given.
  const side = (text: string): string => (text.length <= REASON_SIDE_MOST ? text : `${text.slice(0, cutPoint(text, REASON_SIDE_MOST))}…`)
  return { pass: false, reason: `value differs at ${path}${inString}${where}: expected ${side(diff.expected)}, actual ${side(diff.actual)}`, diff }
}

/** What a rejection pins as an expectation: its code and its seq or line, or `seq: null` when it carries neither. */
export function expectedRejectionOf(error: { code: string; seq?: number; line?: number }): ExpectedRejection {
  const { code, seq, line } = error
  if (seq === undefined && line === undefined) return { code, seq: null }
  return { code, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
}

/** The operations whose input is a stored artifact, whose rejections alone carry a line (PROC-1). */
const STORAGE_INPUT_OPERATIONS: ReadonlySet<string> = new Set(['decodeJsonl'])

/**
 * The expectation as a step of `operation` is judged: a rejection of an operation whose input is no
 * stored artifact carries no line (PROC-1), so an expected rejection that gives no line expects none.
 */
export function withImpliedPlaces(expect: Expectation, operation: string): Expectation {
  if (!('reject' in expect) || expect.reject.line !== undefined || STORAGE_INPUT_OPERATIONS.has(operation)) return expect
  return { reject: { ...expect.reject, line: null } }
}

/** How a rejection's seq or line departs from the expected one (null: none expected); undefined when it does not. */
function placeMismatch(code: string, name: 'seq' | 'line', expected: number | null | undefined, actual: number | undefined): string | undefined {
  // Object.is, not ===: an in-process adapter's -0 is no seq (the subprocess protocol refuses it), so it
  // must not pass an expected 0.
  if (expected === undefined || Object.is(actual, expected ?? undefined)) return undefined
  const wanted = expected === null ? `with no ${name}` : `at ${name} ${expected}`
  return `expected ${code} ${wanted}, got ${actual === undefined ? `no ${name}` : `${name} ${showValue(actual)}`}`
}

function judgeRejection(result: OperationResult, reject: ExpectedRejection): Verdict {
  const expected = `rejection ${rejectionText(reject)}`
  if (result.ok) return { pass: false, reason: `expected rejection ${reject.code}, got acceptance: ${show(result.value)}`, diff: { path: '$', expected, actual: `acceptance ${show(result.value)}` } }
  const { error } = result
  const diff = { expected, actual: `rejection ${rejectionText(error)}` }
  if (error.code !== reject.code) return { pass: false, reason: `expected code ${reject.code}, got ${codeText(error.code)}${messageClause(error.message)}`, diff: { ...diff, path: '$.error.code' } }
  for (const name of ['seq', 'line'] as const) {
    const mismatch = placeMismatch(reject.code, name, reject[name], error[name])
    if (mismatch !== undefined) return { pass: false, reason: mismatch, diff: { ...diff, path: `$.error.${name}` } }
  }
  return { pass: true }
}
