// An in-process operation must leave its input as it was (spec/adapter-protocol.md): a caller holds that
// log, header or candidate and goes on using it. Before the call the runner records every object the
// input reaches through data members (its prototype, and its own members in order, each with its
// enumerability and its value or accessor functions), and after the call it compares each object with
// its record. Freezing the input instead would make a write throw in strict code only: sloppy code (a
// CommonJS module without "use strict") drops the write without a word, and the breach goes unseen.
// Only plain data is walked: the host values vectors build on purpose are left as they are, since a
// proxy's traps would run (a revoked one throws), and reading an accessor would run its getter.
// Writability, configurability and extensibility are not compared: an operation that freezes its input
// restricts it, but changes no member of it.
import { types } from 'node:util'

/** One own member of a recorded object: an accessor's functions, or a data member's value. */
interface MemberRecord {
  key: string | symbol
  enumerable: boolean
  accessor: boolean
  value: unknown
  get: unknown
  set: unknown
}

/** An object the input reaches, where it was first reached, and what it held before the call. */
interface ObjectRecord {
  object: object
  /** The record of the object it was first reached from, and the member's key; none for the input itself. */
  parent: ObjectRecord | undefined
  key: string | symbol | undefined
  /** Where it was first reached (`$.events[0].data`), built when read. */
  readonly path: string
  prototype: object | null
  members: MemberRecord[]
}

/** `$.events[0].data`: built only when a change is reported, so a deep input costs no path per level. */
function pathOf(record: ObjectRecord): string {
  const keys: (string | symbol)[] = []
  for (let at: ObjectRecord | undefined = record; at?.parent !== undefined; at = at.parent) keys.push(at.key!)
  return keys.reverse().reduce<string>((path, key) => memberPath(path, key), '$')
}

/** The records of an input, taken by recordInput. */
export type InputRecord = readonly ObjectRecord[]

/** The path of a member below `path`: `.name` for a name that reads as one, else `[key]`. */
function memberPath(path: string, key: string | symbol): string {
  if (typeof key === 'symbol') return `${path}[${String(key)}]`
  if (/^(0|[1-9][0-9]*)$/.test(key)) return `${path}[${key}]`
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`
}

function membersOf(object: object): MemberRecord[] {
  return Reflect.ownKeys(object).flatMap(key => {
    const descriptor = Reflect.getOwnPropertyDescriptor(object, key)
    if (descriptor === undefined) return []
    const accessor = !('value' in descriptor)
    return [{ key, enumerable: descriptor.enumerable === true, accessor, value: descriptor.value, get: descriptor.get, set: descriptor.set }]
  })
}

const isWalked = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !types.isProxy(value) && !ArrayBuffer.isView(value)

/** The records of every object `input` reaches through data members, outermost first. */
export function recordInput(input: unknown): InputRecord {
  const records: ObjectRecord[] = []
  const seen = new Set<object>()
  // Iterative, depth first in member order, as the recursive walk was: depth is bounded by memory only.
  const stack: { value: unknown; parent: ObjectRecord | undefined; key: string | symbol | undefined }[] = [{ value: input, parent: undefined, key: undefined }]
  while (stack.length > 0) {
    const { value, parent, key } = stack.pop()!
    if (!isWalked(value) || seen.has(value)) continue
    seen.add(value)
    const members = membersOf(value)
    const record: ObjectRecord = { object: value, parent, key, get path() { return pathOf(this) }, prototype: Reflect.getPrototypeOf(value), members }
    records.push(record)
    for (let index = members.length - 1; index >= 0; index -= 1) {
      const member = members[index]!
      if (!member.accessor) stack.push({ value: member.value, parent: record, key: member.key })
    }
  }
  return records
}

const sameMember = (before: MemberRecord, after: MemberRecord): boolean => before.accessor === after.accessor && before.enumerable === after.enumerable
  && Object.is(before.value, after.value) && before.get === after.get && before.set === after.set

/** How one recorded object changed, or undefined when it holds what it held. */
function objectChange(record: ObjectRecord): string | undefined {
  if (Reflect.getPrototypeOf(record.object) !== record.prototype) return `${record.path}: its prototype was replaced`
  const now = membersOf(record.object)
  const nowByKey = new Map(now.map(member => [member.key, member]))
  const beforeKeys = new Set(record.members.map(member => member.key))
  // Members gone or new first: an array's length changes with them, and says less.
  const removed = record.members.find(member => !nowByKey.has(member.key))
  if (removed !== undefined) return `${memberPath(record.path, removed.key)} was removed`
  const added = now.find(member => !beforeKeys.has(member.key))
  if (added !== undefined) return `${memberPath(record.path, added.key)} was added`
  const changed = record.members.find(member => !sameMember(member, nowByKey.get(member.key)!))
  if (changed !== undefined) return `${memberPath(record.path, changed.key)} was changed`
  return now.some((member, index) => member.key !== record.members[index]!.key) ? `${record.path}: its members were reordered` : undefined
}

/** The first change an operation made to its recorded input, outermost first, or undefined. */
export function inputChange(records: InputRecord): string | undefined {
  for (const record of records) {
    const change = objectChange(record)
    if (change !== undefined) return change
  }
  return undefined
}
