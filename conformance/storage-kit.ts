// What an adapter for a storage backend needs besides the backend (README, "Testing a storage backend"):
// the lossless JSON domain check it owes before writing (STORE-4), the seq a refusal carries (PROC-1),
// and the canonical form in which the `store` operation reports the header it read back (STORE-3). All
// are the reference's own.
import { snapshotJson } from '../reference/lossless-json.ts'

export { seqForRecord } from '../reference/envelope.ts'
export { canonicalStoredHeader } from '../reference/storage.ts'

/**
 * `value` checked against the lossless JSON domain and copied, each property read once (JSON-11): the
 * copy, which is what to store, and the fault JSON-13 reports for the value when it has one. A faulty
 * value's copy holds inert stand-ins for what could not be read, so reading its `seq` cannot throw.
 */
export function losslessJsonSnapshot(value: unknown): { value: unknown; fault?: { code: string; message: string } } {
  const { value: copy, fault } = snapshotJson(value)
  return fault === undefined ? { value: copy } : { value: copy, fault: { code: fault.code, message: fault.message } }
}
