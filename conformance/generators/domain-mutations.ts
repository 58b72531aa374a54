// Mutation operators that put a value outside the lossless JSON domain (spec chapter 02) into one
// event: a record of the log, which `load` must reject at that record's seq, or an append candidate,
// which `append` must reject. `append` checks the domain on the whole candidate before any other check
// but ENV-1 (JSON-13), so the fault may replace any number of it. `load` checks it in the replay phase,
// after the shape phase has read the payloads (PROC-2), so in a record the fault takes a place no earlier
// phase of a log in current shapes reads: the time, a number of the surface markers, or a member of its
// own. (In older shapes LEGACY-11 reads the start of a tool-result rewrite in the shape phase, so once
// the fuzzer rewrites a log into them, a fault there can give way to that phase's.) Of the faults that
// survive a structured clone and have a tagged form, which the subprocess protocol carries, are drawn:
// negative zero, a non-finite number, undefined, a bigint, and an array in the number's place with a
// hole or with a member besides its indices; and two in one value, one of them `undefined` after one
// it outranks (JSON-13). Cycles and objects that are no plain record have no tagged form, and the
// structured clone drops what makes them so: they are left to the vectors.
import { pick, type Chooser } from './choices.ts'
import { cloneEvents } from './log-edit.ts'
import type { JsonObject } from './events.ts'
import { candidateOf, defineMutation, type Edit, type LogInput, type Mutation } from './mutation-kit.ts'
import { isRecord } from './surface-model.ts'

type Path = readonly (string | number)[]

interface DomainFault {
  name: string
  code: string
  rule: string
  /** The value that takes the place of `number`. */
  value(number: number, chooser: Chooser): unknown
}

const DOMAIN_FAULTS: readonly DomainFault[] = [
  { name: 'negative-zero', code: 'JSON_NEGATIVE_ZERO', rule: 'JSON-3', value: () => -0 },
  { name: 'non-finite-number', code: 'JSON_NON_FINITE', rule: 'JSON-4', value: (_number, chooser) => pick(chooser, [Number.NaN, Infinity, -Infinity]) },
  { name: 'undefined-value', code: 'JSON_UNDEFINED', rule: 'JSON-6', value: () => undefined },
  { name: 'bigint-value', code: 'JSON_UNSUPPORTED_VALUE', rule: 'JSON-7', value: number => BigInt(Math.trunc(number)) },
  { name: 'sparse-array', code: 'JSON_SPARSE_ARRAY', rule: 'JSON-8', value: (number, chooser) => (chooser.int(2) === 0 ? holed(number) : withOwnMember(number)) },
]

/** `[, number]`: an array with a hole at index 0. */
function holed(number: number): unknown[] {
  const array = [number, number]
  delete array[0]
  return array
}

/** `[number]` with a member besides its index and length. */
function withOwnMember(number: number): unknown[] {
  return Object.assign([number], { [OWN_MEMBER]: number })
}

/** The paths of the numbers inside `value`, members and elements in order. */
function numberPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'number') return [path]
  if (Array.isArray(value)) return value.flatMap((element, index) => numberPaths(element, [...path, index]))
  if (isRecord(value)) return Object.entries(value).flatMap(([key, member]) => numberPaths(member, [...path, key]))
  return []
}

/**
 * A member no record has: ENV-2 would reject it, after the lossless JSON check. Also the name of the
 * member besides its index that `sparse-array` gives an array.
 */
const OWN_MEMBER = 'extra'

/**
 * Where in a log record the fault may go: its seq (no usable seq then, so the rejection carries the
 * record's index, which is the seq it had: PROC-1), its time, a number of its surface markers, or a
 * member of its own.
 */
function recordFaultPaths(record: JsonObject): Path[] {
  const markers = numberPaths(record).filter(path => path[0] === 'surfaceOp' || path[0] === 'sourceEventSeqs')
  return [['seq'], ['time'], ...markers, [OWN_MEMBER]]
}

/** Puts what `fault` makes of the number at `path` (never empty; 0 when there is none) into `root`, a fresh copy. */
function breakAt(root: JsonObject, path: Path, fault: DomainFault, chooser: Chooser): void {
  const parent = path.slice(0, -1).reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root) as Record<string | number, unknown>
  const key = path[path.length - 1]!
  const number = parent[key]
  parent[key] = fault.value(typeof number === 'number' ? number : 0, chooser)
}

/** `load`: the fault goes into the record at the chosen index. */
function loadDomainMutation(fault: DomainFault): Mutation {
  return defineMutation({
    name: fault.name, code: fault.code, rule: fault.rule, operation: 'load',
    targets: log => log.events.map((_event, index) => index),
    edit(log: LogInput, index: number, chooser: Chooser): Edit {
      const events = cloneEvents(log.events)
      const record = events[index] as unknown as JsonObject
      breakAt(record, pick(chooser, recordFaultPaths(record)), fault, chooser)
      return { events, seq: index }
    },
  })
}

/** `append`: the candidate made from the event at the chosen index, one of its numbers given way. */
function appendDomainMutation(fault: DomainFault): Mutation {
  return defineMutation({
    name: `append-${fault.name}`, code: fault.code, rule: fault.rule, operation: 'append',
    targets: log => log.events.flatMap((event, index) => (numberPaths(candidateOf(event)).length > 0 ? [index] : [])),
    edit(log: LogInput, index: number, chooser: Chooser): Edit {
      const candidate = candidateOf(log.events[index]!)
      breakAt(candidate, pick(chooser, numberPaths(candidate)), fault, chooser)
      return { events: cloneEvents(log.events.slice(0, index)), candidate, seq: index }
    },
  })
}

/** The faults JSON_UNDEFINED outranks (JSON-13's list), and that one. */
const OUTRANKED_FAULTS = DOMAIN_FAULTS.filter(fault => ['JSON_NEGATIVE_ZERO', 'JSON_NON_FINITE', 'JSON_SPARSE_ARRAY'].includes(fault.code))
const UNDEFINED_FAULT = DOMAIN_FAULTS.find(fault => fault.code === 'JSON_UNDEFINED')!

/**
 * Two faults in one value (JSON-13): an outranked one at a drawn path and `undefined` at a later one, so
 * that a check reporting the first fault it meets in member order reports the wrong one.
 */
function breakTwiceAt(root: JsonObject, paths: readonly Path[], chooser: Chooser): void {
  const first = chooser.int(paths.length - 1)
  const second = first + 1 + chooser.int(paths.length - first - 1)
  breakAt(root, paths[first]!, pick(chooser, OUTRANKED_FAULTS), chooser)
  breakAt(root, paths[second]!, UNDEFINED_FAULT, chooser)
}

/** `paths` in the order of the record's members they start at; one it lacks (its own member) last. */
function inMemberOrder(record: JsonObject, paths: readonly Path[]): Path[] {
  const members = Object.keys(record)
  const rank = (path: Path): number => (members.includes(String(path[0])) ? members.indexOf(String(path[0])) : members.length)
  return [...paths].sort((one, other) => rank(one) - rank(other))
}

/** `load`: two faults in the record at the chosen index. */
const loadTwoDomainFaults = defineMutation({
  name: 'two-domain-faults', code: 'JSON_UNDEFINED', rule: 'JSON-13', operation: 'load',
  targets: log => log.events.map((_event, index) => index),
  edit(log: LogInput, index: number, chooser: Chooser): Edit {
    const events = cloneEvents(log.events)
    const record = events[index] as unknown as JsonObject
    breakTwiceAt(record, inMemberOrder(record, recordFaultPaths(record)), chooser)
    return { events, seq: index }
  },
})

/** `append`: two faults in the candidate made from the event at the chosen index, which has two numbers or more. */
const appendTwoDomainFaults = defineMutation({
  name: 'append-two-domain-faults', code: 'JSON_UNDEFINED', rule: 'JSON-13', operation: 'append',
  targets: log => log.events.flatMap((event, index) => (numberPaths(candidateOf(event)).length > 1 ? [index] : [])),
  edit(log: LogInput, index: number, chooser: Chooser): Edit {
    const candidate = candidateOf(log.events[index]!)
    breakTwiceAt(candidate, numberPaths(candidate), chooser)
    return { events: cloneEvents(log.events.slice(0, index)), candidate, seq: index }
  },
})

export const DOMAIN_MUTATIONS: readonly Mutation[] = [
  ...DOMAIN_FAULTS.map(loadDomainMutation), loadTwoDomainFaults, ...DOMAIN_FAULTS.map(appendDomainMutation), appendTwoDomainFaults,
]
