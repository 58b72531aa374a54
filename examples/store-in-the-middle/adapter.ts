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

/**
 * Whether a store can keep `value`: plain JSON data only (spec/02-lossless-json.md). Some cases hand
 * over what no store keeps (undefined, -0, a class instance, a cycle: vectors/README.md's tagged
 * values), to check how an implementation rejects it; those inputs go past the store unchanged.
 */
function isStorable(value: unknown, ancestors = new Set<object>()): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true
  if (typeof value === 'number') return Number.isFinite(value) && !Object.is(value, -0)
  if (typeof value !== 'object' || ancestors.has(value)) return false
  const prototype: unknown = Object.getPrototypeOf(value)
  const isArray = Array.isArray(value)
  if (prototype !== (isArray ? Array.prototype : Object.prototype) && !(prototype === null && !isArray)) return false
  if (Object.getOwnPropertySymbols(value).length > 0) return false
  const members = Object.entries(Object.getOwnPropertyDescriptors(value)).filter(([name]) => !(isArray && name === 'length'))
  // An array's own members are its indices, in order, with no hole and nothing else.
  if (isArray && (members.length !== (value as unknown[]).length || members.some(([name], index) => name !== String(index)))) return false
  ancestors.add(value)
  const storable = members.every(([, member]) => member.enumerable === true && 'value' in member && isStorable(member.value, ancestors))
  ancestors.delete(value)
  return storable
}

function storableSafely(value: unknown): boolean {
  try {
    return isStorable(value)
  } catch {
    // A revoked proxy, or a getter that throws: nothing a store is handed.
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

/** The reference behind `store`, for the profiles whose operations take a log (all but jsonl). */
export function storeInTheMiddle(store: SessionStore, name = 'store-in-the-middle'): Adapter {
  const operations: Adapter['operations'] = {}
  for (const [operation, run] of Object.entries(referenceAdapter.operations) as [keyof Adapter['operations'], Operation | undefined][]) {
    if (run !== undefined) operations[operation] = (input, context) => run(throughStore(input, store), context)
  }
  const profiles = referenceAdapter.meta.profiles.filter(profile => profile !== 'jsonl')
  return { meta: { ...referenceAdapter.meta, name, profiles }, operations }
}

export const adapter = storeInTheMiddle(textStore())
