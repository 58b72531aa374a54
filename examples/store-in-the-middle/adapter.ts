// A storage backend's adapter (README, "Testing a storage backend"): every log a step hands over is
// written to the store and read back, and what was read goes to the reference interpreter, so an event
// the store loses or changes fails the cases that hold it. Replace `textStore` with your backend.
// Run it: dsh-conformance run --adapter-module examples/store-in-the-middle/adapter.ts
import { referenceAdapter, type Adapter, type Operation } from 'dsh-session-conformance'

/** What a backend does for the suite: keep one log's header and events, and give them back. */
export interface SessionStore {
  write(header: unknown, events: readonly unknown[]): void
  read(): { header: unknown; events: unknown[] }
}

/** A stand-in backend: each event kept as its JSON text, as in a text column of a database table. */
export function textStore(): SessionStore {
  let headerRow = 'null'
  let eventRows: string[] = []
  return {
    write(header, events) {
      headerRow = JSON.stringify(header ?? null)
      eventRows = events.map(event => JSON.stringify(event))
    },
    read() {
      return { header: JSON.parse(headerRow) as unknown, events: eventRows.map(row => JSON.parse(row) as unknown) }
    },
  }
}

/** An array's own members are its indices, in order, with no hole and nothing else. */
function isDenseIndexList(names: readonly string[], length: number): boolean {
  return names.length === length && names.every((name, index) => name === String(index))
}

/**
 * Whether a store can keep `value`: plain JSON data of this realm (spec/02-lossless-json.md). Some cases
 * hand over what no store keeps (undefined, -0, a class instance, a cycle, a sparse array: most of
 * vectors/README.md's tagged values), to check how an implementation rejects it; those inputs go past
 * the store unchanged, and so, in this example, do another realm's objects, which the spec admits.
 */
function isStorable(value: unknown, ancestors = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0)
  if (typeof value !== 'object' || ancestors.has(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  const isArray = Array.isArray(value)
  const plainPrototype = isArray ? prototype === Array.prototype : prototype === Object.prototype || prototype === null
  if (!plainPrototype || Object.getOwnPropertySymbols(value).length > 0) return false
  const members = Object.entries(Object.getOwnPropertyDescriptors(value)).filter(([name]) => !(isArray && name === 'length'))
  if (isArray && !isDenseIndexList(members.map(([name]) => name), (value as unknown[]).length)) return false
  ancestors.add(value)
  const storable = members.every(([, member]) => member.enumerable === true && 'value' in member && isStorable(member.value, ancestors))
  ancestors.delete(value)
  return storable
}

function storableSafely(value: unknown): boolean {
  try {
    return isStorable(value)
  } catch {
    // A revoked proxy, a proxy trap that throws, or nesting deeper than this recursive walk goes
    // (about 2,000 levels): passed on unstored.
    return false
  }
}

/** The step's input with its log replaced by what `store` gives back, when the log can be stored. */
function throughStore(input: Record<string, unknown>, store: SessionStore): Record<string, unknown> {
  const { events, header } = input
  if (!Array.isArray(events) || !storableSafely(events) || (header !== undefined && !storableSafely(header))) return input
  store.write(header, events)
  const stored = store.read()
  return header === undefined ? { ...input, events: stored.events } : { ...input, events: stored.events, header: stored.header }
}

/** The operations of the jsonl profile, which read and write the JSONL encoding, not a store. */
const JSONL_OPERATIONS = new Set(['decodeJsonl', 'encodeJsonl', 'artifactPath'])

/** The reference behind `store`, for the profiles whose operations take a log (all but jsonl). */
export function storeInTheMiddle(store: SessionStore, name = 'store-in-the-middle'): Adapter {
  const operations: Adapter['operations'] = {}
  for (const [operation, run] of Object.entries(referenceAdapter.operations) as [keyof Adapter['operations'], Operation | undefined][]) {
    if (run !== undefined && !JSONL_OPERATIONS.has(operation)) operations[operation] = (input, context) => run(throughStore(input, store), context)
  }
  const profiles = referenceAdapter.meta.profiles.filter(profile => profile !== 'jsonl')
  return { meta: { ...referenceAdapter.meta, name, profiles }, operations }
}

export const adapter = storeInTheMiddle(textStore())
