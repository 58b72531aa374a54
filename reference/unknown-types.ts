/**
 * Chapter 17: unknown event types and `ignorable`. A reader refuses a log holding an event whose type
 * its vocabulary does not know, unless that event is marked `ignorable: true`; ignorable events are kept.
 */
import { fault, type Fault } from './result.ts'
import { isRecord } from './lossless-json.ts'
import { isRowTag } from './chunk-rows.ts'
import { V0_PINNED_TYPES, V0_RC8_TYPES } from './vocabulary.ts'

export const DEFAULT_VOCABULARY = 'v0-pinned'

const VOCABULARIES: Record<string, ReadonlySet<string>> = {
  'v0-pinned': V0_PINNED_TYPES,
  'v0-rc8': V0_RC8_TYPES,
}

/** The named vocabulary, or undefined when this reader has no vocabulary by that name. */
export function vocabularyNamed(name: unknown): ReadonlySet<string> | undefined {
  const key = name === undefined ? DEFAULT_VOCABULARY : name
  return typeof key === 'string' && Object.hasOwn(VOCABULARIES, key) ? VOCABULARIES[key] : undefined
}

/** The message of the refusal of an unknown type: the type as written, unescaped. */
export function unknownTypeMessage(type: string): string {
  return `event type "${type}" is unknown to this reader and not marked ignorable`
}

/**
 * A refusal for a record of an unknown type that is not marked ignorable. A type that is no string, or
 * a storage tag, is no type a later reader would know: replay rejects it (ENV-3).
 */
export function unknownTypeFault(record: unknown, known: ReadonlySet<string>): Fault | undefined {
  if (!isRecord(record) || typeof record['type'] !== 'string' || isRowTag(record['type'])) return undefined
  if (known.has(record['type']) || record['ignorable'] === true) return undefined
  return fault('FORMAT_UNKNOWN_EVENT_TYPE', unknownTypeMessage(record['type']))
}
