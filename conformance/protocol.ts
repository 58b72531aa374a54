// The subprocess adapter protocol (spec/adapter-protocol.md): its version, its messages, the schema
// validators of schemas/protocol-*.schema.json, and how values are written on the wire.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import type { ProtocolRun, ProtocolStart, ProtocolStop } from '../generated/types/index.ts'
import { showValue } from './expectations.ts'
import { isArrayIndex, TAG_KEY } from './tagged-values.ts'
import { projectRoot, type VectorCase } from './vector-cases.ts'

export const PROTOCOL_VERSION = 1

export type ProtocolMessageName = 'start' | 'started' | 'run' | 'result' | 'stop'

const SCHEMA_BASE = 'https://dsh-session-conformance.dev/schemas/v0/'

/** The forms of a result reply (protocol-result's $defs), to name the faults of the form a reply takes. */
type ResultForm = 'ProtocolResultReply' | 'ProtocolAccepted' | 'ProtocolRejected' | 'ProtocolUnsupported' | 'ProtocolFailureReply'

interface Validators {
  messages: Record<ProtocolMessageName, ValidateFunction>
  resultForm: (form: ResultForm) => ValidateFunction
}

function createValidators(): Validators {
  const schemaDir = join(projectRoot, 'schemas')
  // verbose: an error then carries the value at fault, which the explanation quotes.
  const ajv = new Ajv2020({ strict: true, allErrors: true, verbose: true })
  for (const file of readdirSync(schemaDir).filter((name) => name.endsWith('.schema.json'))) {
    ajv.addSchema(JSON.parse(readFileSync(join(schemaDir, file), 'utf8')))
  }
  const validator = (name: ProtocolMessageName): ValidateFunction => ajv.getSchema(`${SCHEMA_BASE}protocol-${name}.schema.json`)!
  return {
    messages: { start: validator('start'), started: validator('started'), run: validator('run'), result: validator('result'), stop: validator('stop') },
    resultForm: (form) => ajv.getSchema(`${SCHEMA_BASE}protocol-result.schema.json#/$defs/${form}`)!,
  }
}

let validators: Validators | undefined

function faultsOf(validate: ValidateFunction, value: unknown, under = ''): ErrorObject[] {
  return validate(value) ? [] : (validate.errors ?? []).map((error) => ({ ...error, instancePath: `${under}${error.instancePath}` }))
}

/**
 * A result reply that fails its schema fails every form of it, and a list of every form's faults
 * buries the one that matters. The reply's own members tell which form it meant (`result` and its
 * `ok` and `unsupported`, or `error`): only that form's faults are named. Undefined when the reply is
 * too far off to tell.
 */
function intendedFormFaults(forms: Validators['resultForm'], reply: unknown): ErrorObject[] | undefined {
  if (!isPlainRecord(reply)) return undefined
  const result = reply['result']
  if (isPlainRecord(result) && typeof result['ok'] === 'boolean') {
    // The envelope with a result that is surely valid, then the result against the form its ok names.
    const envelope = faultsOf(forms('ProtocolResultReply'), { ...reply, result: { ok: true, value: null } })
    const form = result['ok'] ? 'ProtocolAccepted' : 'unsupported' in result && !('error' in result) ? 'ProtocolUnsupported' : 'ProtocolRejected'
    return [...envelope, ...faultsOf(forms(form), result, '/result')]
  }
  // A failure, with or without a `result: null` beside its error.
  return 'error' in reply ? faultsOf(forms('ProtocolFailureReply'), reply) : undefined
}

/** A value at fault, written as failure messages write values (-0 and Infinity as such), cut at 80 characters. */
function shownValue(value: unknown): string {
  return showValue(value, 80)
}

const BOUND_KEYWORDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength'])

/** One schema fault in words, quoting the value at fault where the validator's own words do not. */
function faultText(error: ErrorObject): string {
  const at = error.instancePath || '/'
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'additionalProperties') return `${at} has a member it may not have: ${shownValue(params['additionalProperty'])}`
  if (error.keyword === 'enum') return `${at} is ${shownValue(error.data)}, not one of ${(params['allowedValues'] as unknown[]).map(shownValue).join(', ')}`
  if (error.keyword === 'const') return `${at} is ${shownValue(error.data)}, not ${shownValue(params['allowedValue'])}`
  if (error.keyword === 'type') return `${at} is ${shownValue(error.data)}, not of type ${String(params['type'])}`
  if (error.keyword === 'pattern') return `${at} is ${shownValue(error.data)}, which does not match ${String(params['pattern'])}`
  if (BOUND_KEYWORDS.has(error.keyword)) return `${at} is ${shownValue(error.data)}: it ${error.message ?? 'is out of bounds'}`
  return `${at} ${error.message ?? 'is invalid'}`
}

/** What a fault asks of the value at its path: `must be of type integer`, `must be >= 1`. */
function demand(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'const') return `must be ${shownValue(params['allowedValue'])}`
  if (error.keyword === 'type') return `must be of type ${String(params['type'])}`
  return error.message ?? 'is invalid'
}

/** The demands of the alternatives a value meets none of: the types said once, `integer or null`. */
function demands(branches: readonly ErrorObject[]): string {
  if (branches.every((branch) => branch.keyword === 'type')) {
    return `must be of type ${[...new Set(branches.map((branch) => String((branch.params as Record<string, unknown>)['type'])))].join(' or ')}`
  }
  return [...new Set(branches.map(demand))].join(' or ')
}

/** Faults about a value itself, not about the members of an object: one of them can stand for a branch. */
const VALUE_KEYWORDS = new Set(['type', 'const', 'enum', 'pattern', ...BOUND_KEYWORDS])

/**
 * The alternatives an anyOf or oneOf fault stands for, when the validator listed exactly one value
 * fault per branch just before it, at its own path (`seq`: a non-negative integer or null); else
 * undefined, and the faults are said one by one.
 */
function foldedBranches(faults: readonly ErrorObject[], index: number): ErrorObject[] | undefined {
  const fault = faults[index]!
  if (fault.keyword !== 'anyOf' && fault.keyword !== 'oneOf') return undefined
  const count = Array.isArray(fault.schema) ? fault.schema.length : 0
  const branches = faults.slice(Math.max(0, index - count), index)
  const oneEach = count > 0 && branches.length === count && branches.every((branch) => branch.instancePath === fault.instancePath && VALUE_KEYWORDS.has(branch.keyword))
  return oneEach ? branches : undefined
}

/**
 * The faults in words, each said once. A value that meets none of the alternatives of an anyOf or a
 * oneOf, one value fault each, is one fault naming what each asks, not one per alternative and
 * another for the anyOf; any other faults are said as they are.
 */
function faultTexts(faults: readonly ErrorObject[]): string[] {
  const texts: (string | undefined)[] = faults.map(faultText)
  faults.forEach((fault, index) => {
    const branches = foldedBranches(faults, index)
    if (branches === undefined) return
    texts.fill(undefined, index - branches.length, index)
    texts[index] = `${fault.instancePath || '/'} is ${shownValue(fault.data)}, which ${demands(branches)}`
  })
  return [...new Set(texts.filter((text): text is string => text !== undefined))]
}

/** A member name as a JSON Pointer token. */
function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** A number JSON text cannot carry as itself across the protocol: -0 (many readers take it for 0), an infinity. */
function needsTag(value: number): boolean {
  return Object.is(value, -0) || !Number.isFinite(value)
}

/** An array or object the walk of untaggedNumber is inside, and the index of the member it visits next. */
interface Opened {
  value: Record<string, unknown>
  /** The member names of an object; undefined for an array, whose members are its indexes. */
  keys: readonly string[] | undefined
  size: number
  next: number
}

/**
 * The members leading to the first number in a value that the protocol has tagged (-0: JSON text can
 * write it, but many JSON readers take it for 0, Python's for `-0`; an infinity: `1e400` overflows),
 * outermost first, and that number; undefined when it holds none. A walk with a stack of its own, so
 * that a line nested deeper than the call stack gets a schema's answer; a reply may hold millions of
 * values, so the path is built only once such a number is found.
 */
function untaggedNumber(value: unknown): { path: string[]; number: number } | undefined {
  const opened: Opened[] = []
  let item = value
  for (;;) {
    if (typeof item === 'number' && needsTag(item)) {
      return { path: opened.map((open) => open.keys?.[open.next - 1] ?? String(open.next - 1)), number: item }
    }
    if (typeof item === 'object' && item !== null) {
      const keys = Array.isArray(item) ? undefined : Object.keys(item)
      opened.push({ value: item as Record<string, unknown>, keys, size: keys?.length ?? (item as unknown[]).length, next: 0 })
    }
    let open = opened.at(-1)
    while (open !== undefined && open.next === open.size) {
      opened.pop()
      open = opened.at(-1)
    }
    if (open === undefined) return undefined
    item = open.value[open.keys?.[open.next] ?? open.next]
    open.next += 1
  }
}

/** Undefined when `message` is a valid protocol message of that kind, else why it is not. */
export function protocolViolation(name: ProtocolMessageName, message: unknown): string | undefined {
  validators ??= createValidators()
  const validate = validators.messages[name]
  const number = untaggedNumber(message)
  if (number !== undefined) {
    const written = JSON.stringify(numberTag(number.number))
    return `not a valid protocol-${name} message: ${number.path.map(key => `/${pointerToken(key)}`).join('')} is the number ${showValue(number.number, 80)}, which the protocol writes ${written}`
  }
  if (validate(message)) return undefined
  const all = validate.errors ?? []
  const intended = name === 'result' ? intendedFormFaults(validators.resultForm, message) : undefined
  const faults = intended !== undefined && intended.length > 0 ? intended : all
  return `not a valid protocol-${name} message: ${faultTexts(faults).slice(0, 4).join('; ')}`
}

export function startMessage(): ProtocolStart {
  return { cmd: 'start', protocol: PROTOCOL_VERSION }
}

export function stopMessage(): ProtocolStop {
  return { cmd: 'stop' }
}

export function runMessage(seq: number, operation: ProtocolRun['operation'], input: Record<string, unknown>, context?: { caseId: string; step: number }): ProtocolRun {
  const where = context === undefined ? {} : { case: context.caseId, step: context.step }
  return { cmd: 'run', seq, ...where, operation, input: tagHostNumbers(input) as ProtocolRun['input'] }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function numberTag(value: number): Record<string, string> | undefined {
  if (Object.is(value, -0)) return { [TAG_KEY]: '-0' }
  if (Number.isNaN(value)) return { [TAG_KEY]: 'NaN' }
  if (value === Number.POSITIVE_INFINITY) return { [TAG_KEY]: 'Infinity' }
  if (value === Number.NEGATIVE_INFINITY) return { [TAG_KEY]: '-Infinity' }
  return undefined
}

/**
 * A vector input is tagged already, but YAML can also spell -0, NaN and the infinities as plain
 * numbers, which JSON text cannot carry: those are tagged here. Existing tags are left as they are.
 */
export function tagHostNumbers(value: unknown): unknown {
  if (typeof value === 'number') return numberTag(value) ?? value
  if (Array.isArray(value)) return value.map(tagHostNumbers)
  if (!isPlainRecord(value)) return value
  // fromEntries defines members, so a "__proto__" member stays data.
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, tagHostNumbers(member)]))
}

/** Chains of one-element arrays at least this deep travel as the `nested` tag: many JSON libraries stop near 1,000 levels. */
const NESTED_MIN_DEPTH = 100

function isOrdinaryArray(value: object): value is unknown[] {
  return Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype
}

/** Whether the array has one element and no other own property (`length` aside). */
function isOneElement(array: unknown[]): boolean {
  const keys = Reflect.ownKeys(array)
  return array.length === 1 && keys.length === 2 && keys[0] === '0'
}

/** The dense one-element arrays that `value` opens with, each holding the next: `[[[leaf]]]`. */
function oneElementChain(value: unknown[], ancestors: ReadonlySet<object>): unknown[][] {
  const chain = new Set<unknown[]>()
  let current: unknown = value
  while (typeof current === 'object' && current !== null && isOrdinaryArray(current) && isOneElement(current) && !ancestors.has(current) && !chain.has(current)) {
    chain.add(current)
    current = current[0]
  }
  return [...chain]
}

/** Runs `encode` with `added` counted as ancestors, for cycle detection. */
function below<T>(ancestors: Set<object>, added: readonly object[], encode: () => T): T {
  for (const item of added) ancestors.add(item)
  try {
    return encode()
  } finally {
    for (const item of added) ancestors.delete(item)
  }
}

/**
 * An in-memory value in tagged form, for a reply or for an input the fuzzer drew: the inverse of
 * decodeTagged for plain data and the ways JSON.parse's values can be bent (-0, the non-finite
 * numbers, undefined, bigints, holes and extra members of arrays, members that are not enumerable, no
 * prototype). A plain object that really has a "$dsh" member is escaped with the `object` tag; a value
 * with no faithful tagged form (a function, a symbol, a cycle, a class instance, an accessor, a
 * symbol-keyed member) throws, rather than be sent as something else.
 */
export function encodeTagged(value: unknown, ancestors = new Set<object>()): unknown {
  if (value === undefined) return { [TAG_KEY]: 'undefined' }
  if (typeof value === 'bigint') return { [TAG_KEY]: 'bigint', value: String(value) }
  if (typeof value === 'number') return numberTag(value) ?? value
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value !== 'object') throw new Error(`no tagged form for a ${typeof value}`)
  if (ancestors.has(value)) throw new Error('no tagged form for a value that contains itself')
  if (isOrdinaryArray(value)) {
    const chain = oneElementChain(value, ancestors)
    if (chain.length >= NESTED_MIN_DEPTH) {
      const leaf = chain[chain.length - 1]![0]
      return below(ancestors, chain, () => ({ [TAG_KEY]: 'nested', depth: chain.length, leaf: encodeTagged(leaf, ancestors) }))
    }
    return below(ancestors, [value], () => encodeArray(value, ancestors))
  }
  const prototype = Object.getPrototypeOf(value)
  if (prototype !== Object.prototype && prototype !== null) throw new Error('no tagged form for a class instance')
  return below(ancestors, [value], () => encodeObject(value, prototype === null, ancestors))
}

/** The own string-keyed data members of `value` other than the elements and `length`, each with whether it is enumerable. */
function ownMembers(value: object, isElement: (key: string) => boolean): { key: string; value: unknown; enumerable: boolean }[] {
  const members = []
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') throw new Error('no tagged form for a symbol-keyed member')
    if (isElement(key)) continue
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!
    if (!('value' in descriptor)) throw new Error(`no tagged form for the accessor member ${JSON.stringify(key)}`)
    members.push({ key, value: descriptor.value as unknown, enumerable: descriptor.enumerable === true })
  }
  return members
}

/**
 * An ordinary array: its elements, as a `sparse-array` when it has holes, and each other own member,
 * and each element hidden from enumeration, wrapped around them as an `array-property`, in the order
 * the array holds them.
 */
function encodeArray(array: unknown[], ancestors: Set<object>): unknown {
  const indexes = Object.getOwnPropertyNames(array).filter(isArrayIndex)
  const elements = indexes.length === array.length
    ? array.map((element) => encodeTagged(element, ancestors))
    : { [TAG_KEY]: 'sparse-array', length: array.length, entries: Object.fromEntries(indexes.map((index) => [index, encodeTagged(array[Number(index)], ancestors)])) }
  // ownMembers leaves out the elements an enumerable one; a hidden element is wrapped like a member.
  const isListedElement = (key: string): boolean => isArrayIndex(key) && Object.getOwnPropertyDescriptor(array, key)?.enumerable === true
  return ownMembers(array, (key) => key === 'length' || isListedElement(key)).reduce<unknown>((items, member) => ({
    [TAG_KEY]: 'array-property', items, key: member.key, value: encodeTagged(member.value, ancestors), ...(member.enumerable ? {} : { enumerable: false }),
  }), elements)
}

/**
 * A plain object's members; one that really has a "$dsh" member is escaped with the `object` tag, one
 * with no prototype is a `null-prototype`, and each member that is not enumerable is wrapped around
 * the rest as a `non-enumerable` (which keeps the prototype; a `null-prototype` copies only the
 * enumerable members).
 */
function encodeObject(object: object, nullPrototype: boolean, ancestors: Set<object>): unknown {
  const members = ownMembers(object, () => false)
  // defineProperty keeps a "__proto__" member as data.
  const listed: Record<string, unknown> = {}
  for (const member of members.filter((item) => item.enumerable)) {
    Object.defineProperty(listed, member.key, { value: encodeTagged(member.value, ancestors), enumerable: true, writable: true, configurable: true })
  }
  const escaped = TAG_KEY in listed ? { [TAG_KEY]: 'object', value: listed } : listed
  const prototyped = nullPrototype ? { [TAG_KEY]: 'null-prototype', object: escaped } : escaped
  return members.filter((item) => !item.enumerable).reduce<unknown>((inner, member) => ({
    [TAG_KEY]: 'non-enumerable', object: inner, key: member.key, value: encodeTagged(member.value, ancestors),
  }), prototyped)
}

/**
 * The lines a subprocess adapter is sent for `cases`, their steps in order and numbered from 0 as the
 * runner numbers them, between a start and a stop: what `list --requests` prints, to pipe to an
 * adapter and to `serve` and compare. A run sends a case's later steps only while its steps pass, and
 * starts a new process after a crash.
 */
export function requestLines(cases: readonly VectorCase[]): string[] {
  const runs = cases.flatMap((vector) => vector.steps.map((step, index) => ({ step, context: { caseId: vector.id, step: index } })))
  return [
    protocolLine(startMessage()),
    ...runs.map(({ step, context }, index) => protocolLine(runMessage(index, step.operation, step.input as Record<string, unknown>, context))),
    protocolLine(stopMessage()),
  ]
}

/** One message as one line of ASCII JSON: every other character is escaped, so no encoding can garble it. */
export function protocolLine(message: unknown): string {
  return `${JSON.stringify(message).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`
}
