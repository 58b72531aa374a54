// A decoded record line's value as the load reads it: JSON.parse's output is plain, acyclic and dense,
// so the only lossless-JSON faults it can hold are negative zero and an infinity (JSON.parse makes one
// from a number too large for a double). One walk looks for those, and only a value holding one goes
// through the reference's full snapshot, which finds and ranks the fault.
import { snapshotJson, type JsonRecord, type Snapshot } from '../../reference/lossless-json.ts'

/** Negative zero, or an infinity. */
function isUnsafeNumber(value: number): boolean {
  // -0 is the only zero whose inverse is negative; an infinity minus itself is NaN.
  return value === 0 ? 1 / value < 0 : value - value !== 0
}

/**
 * Whether a decoded member is an unsafe number; a container is pushed onto `stack`, to be walked later.
 * Most members are strings and numbers, which never meet the stack.
 */
function isUnsafeMember(member: unknown, stack: object[]): boolean {
  if (typeof member === 'number') return isUnsafeNumber(member)
  if (typeof member === 'object' && member !== null) stack.push(member)
  return false
}

/**
 * Whether a decoded value (plain, acyclic, dense) holds an unsafe number anywhere. A stack, not
 * recursion: a value may be nested 10,000 deep.
 */
function holdsUnsafeNumber(root: unknown): boolean {
  const stack: object[] = []
  if (isUnsafeMember(root, stack)) return true
  for (let value = stack.pop(); value !== undefined; value = stack.pop()) {
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) if (isUnsafeMember(value[index], stack)) return true
    } else {
      for (const key in value) if (isUnsafeMember((value as JsonRecord)[key], stack)) return true
    }
  }
  return false
}

/** A decoded value's snapshot: the value itself, unless it holds an unsafe number. */
export function parsedSnapshot(value: unknown): Snapshot {
  return holdsUnsafeNumber(value) ? snapshotJson(value) : { value }
}
