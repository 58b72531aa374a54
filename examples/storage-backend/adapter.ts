// A storage backend's adapter (README, "Testing a storage backend"): it claims the `storage` profile,
// and its one operation, `store`, creates a session in the backend, appends each batch, opens the
// session again and reports what it read. Replace `textStore` with your backend.
// Run it: dsh-conformance run --adapter-module examples/storage-backend/adapter.ts
import { canonicalStoredHeader, losslessJsonSnapshot, seqForRecord, type Adapter, type AdapterResult } from 'dsh-session-conformance'

/** What the suite asks of a backend: create one session, append batches to it, read it back. */
export interface SessionStore {
  create(header: unknown): void
  append(batch: readonly unknown[]): void
  /**
   * The session read back as a reader that did not see the writes would (STORE-1): through a new
   * connection or file handle, from what the backend persisted, never from a copy the writes left in
   * memory. The suite cannot tell the two apart, so a cache here would pass cases it should fail.
   */
  open(): { header: unknown; events: unknown[] }
}

/** A stand-in backend: the header and each event kept as JSON text, as in text columns of a table. */
export function textStore(): SessionStore {
  let headerRow = 'null'
  const eventRows: string[] = []
  return {
    create(header) {
      headerRow = JSON.stringify(header)
    },
    append(batch) {
      eventRows.push(...batch.map(event => JSON.stringify(event)))
    },
    open() {
      return { header: JSON.parse(headerRow) as unknown, events: eventRows.map(row => JSON.parse(row) as unknown) }
    },
  }
}

function refusal(code: string, message: string, seq?: number): AdapterResult {
  return { ok: false, error: { code, message, ...(seq === undefined ? {} : { seq }) } }
}

/**
 * STORE-4: the header, then each batch, is checked before any of it reaches the store. What is stored
 * is the checked copy: a value is read once, so an accessor cannot answer the check and the store apart.
 */
function storeThrough(store: SessionStore, header: unknown, batches: readonly (readonly unknown[])[]): AdapterResult {
  const checkedHeader = losslessJsonSnapshot(header)
  if (checkedHeader.fault !== undefined) return refusal(checkedHeader.fault.code, `header not stored: ${checkedHeader.fault.message}`)
  store.create(checkedHeader.value)
  let stored = 0
  for (const batch of batches) {
    const records: unknown[] = []
    for (const [index, checked] of Array.from(batch, losslessJsonSnapshot).entries()) {
      if (checked.fault !== undefined) return refusal(checked.fault.code, `batch not stored: ${checked.fault.message}`, seqForRecord(checked.value, stored + index))
      records.push(checked.value)
    }
    store.append(records)
    stored += records.length
  }
  const opened = store.open()
  return { ok: true, value: { header: canonicalStoredHeader(opened.header as Record<string, unknown>), events: opened.events } }
}

/** An adapter claiming `storage`; each step gets a fresh store from `newStore` (STORE-1). */
export function storageAdapter(newStore: () => SessionStore, name = 'text-store'): Adapter {
  return {
    meta: { name, version: '0.0.0', language: 'typescript', profiles: ['storage'] },
    operations: {
      store: input => storeThrough(newStore(), input['header'], input['batches'] as unknown[][]),
    },
  }
}

export const adapter = storageAdapter(textStore)
