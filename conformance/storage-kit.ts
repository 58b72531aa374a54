// What an adapter for a storage backend needs besides the backend (README, "Testing a storage backend"):
// the lossless JSON domain check it owes before writing (STORE-4), and the canonical form in which the
// `store` operation reports the header it read back (STORE-3). Both are the reference's own.
import { snapshotJson } from '../reference/lossless-json.ts'

export { canonicalStoredHeader } from '../reference/storage.ts'

/** The fault JSON-13 reports for `value`, or undefined when the value lies in the lossless domain. */
export function losslessJsonFault(value: unknown): { code: string; message: string } | undefined {
  const { fault } = snapshotJson(value)
  return fault === undefined ? undefined : { code: fault.code, message: fault.message }
}
