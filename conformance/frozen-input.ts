// The input an in-process operation gets is frozen all the way down, so that an operation that changes
// it (a legacy upgrade made in place, a log sorted or appended to, a member deleted) throws instead of
// answering from a log its caller no longer holds (spec/adapter-protocol.md). A subprocess gets a copy
// and cannot reach the runner's. Only plain data is walked: the host values vectors build on purpose
// are left as they are, since freezing a proxy runs its traps (a revoked one throws), a typed array
// with elements cannot be frozen, and reading an accessor would run its getter.
import { types } from 'node:util'

/** `value`, with every object reached through data members frozen (accessors, proxies and typed arrays left alone). */
export function frozenDeep<T>(value: T, seen: Set<object> = new Set()): T {
  if (typeof value !== 'object' || value === null || seen.has(value) || types.isProxy(value) || ArrayBuffer.isView(value)) return value
  seen.add(value)
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key)
    if (descriptor !== undefined && 'value' in descriptor) frozenDeep(descriptor.value, seen)
  }
  try {
    Object.freeze(value)
  } catch {
    // An exotic object that refuses to be frozen is left as it is.
  }
  return value
}

/** V8's words for a write to a frozen object, in strict code. */
const FROZEN_WRITE = /object is not extensible|read[- ]only property|Cannot delete property|Cannot redefine property/

/** Whether an operation's error is its attempt to change its frozen input. */
export function isFrozenInputWrite(error: unknown): boolean {
  return error instanceof TypeError && FROZEN_WRITE.test(error.message)
}
