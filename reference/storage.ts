/**
 * Chapter 20: what a storage layer reads back (STORE-2, STORE-3) and refuses (STORE-4). The reference
 * is the ideal store: it keeps each value as its lossless snapshot, so reading back gives the stored
 * events themselves, and the header in canonical form.
 */
import { accept, reject, type Result } from './result.ts'
import { hasOwn, isRecord, snapshotJson, type JsonRecord } from './lossless-json.ts'
import { seqForRecord } from './envelope.ts'
import { HEADER_MEMBERS } from './storage-header.ts'
import { heldIndices, recordsOf } from './array-indices.ts'

export interface StoredSession {
  header: JsonRecord
  events: unknown[]
}

/**
 * STORE-3: the members chapter 03 names that the header has, delegationDepth 0 when it has none. A
 * member read back as null stays null: only an absent one is filled in.
 */
export function canonicalStoredHeader(header: JsonRecord): JsonRecord {
  const canonical: JsonRecord = {}
  for (const key of HEADER_MEMBERS) {
    if (hasOwn(header, key)) canonical[key] = header[key]
  }
  if (!hasOwn(canonical, 'delegationDepth')) canonical['delegationDepth'] = 0
  return canonical
}

/**
 * STORE-1, STORE-4: the header, then each batch, is checked whole before any of it is kept; the first
 * refusal ends the operation. A record fault carries the record's seq, or its index over all batches.
 * A hole in `batches` is a batch of no records.
 */
export function storeBatches(header: unknown, batches: readonly unknown[]): Result<StoredSession> {
  const headerSnapshot = snapshotJson(header)
  if (headerSnapshot.fault !== undefined) return reject(headerSnapshot.fault.code, `the session is not created: in its header, ${headerSnapshot.fault.message}`)
  const events: unknown[] = []
  for (const number of heldIndices(batches)) {
    const batch = recordsOf(batches[number])
    const kept: unknown[] = []
    for (let index = 0; index < batch.length; index++) {
      // A hole reads as the record undefined, which the domain refuses, so the batch is refused there.
      const { value, fault } = snapshotJson(batch[index])
      if (fault !== undefined) {
        const seq = seqForRecord(value, events.length + index)
        return reject(fault.code, `batch ${number + 1} of ${batches.length} is not stored, no record of it: in its record ${index + 1}, ${fault.message}`, { seq })
      }
      kept.push(value)
    }
    for (const value of kept) events.push(value)
  }
  return accept({ header: canonicalStoredHeader(isRecord(headerSnapshot.value) ? headerSnapshot.value : {}), events })
}
