// The requestContext probe, one time in four, over a log whose request/context records hold data that
// is no object: a string, an array or null, which no producer following HDR-7 writes but a reader
// still meets. HDR-8 reads such a context as `{}`. The edit is drawn from a seed of the run's plan, as
// the headerEquals pairs are (header-pairs.ts), so a shrunk log draws it alike and the fuzzer's other
// draws stay as they were; its disagreements are a class of their own (compare.ts).
import { isRecord } from '../../reference/lossless-json.ts'
import { pick } from '../generators/choices.ts'
import { seededChooser } from '../generators/index.ts'

const NOT_OBJECTS: readonly unknown[] = ['wide', [1, 2], null]

/** Salts the plan's seed, so that this draw is not the header pair's or the batch cuts'. */
const CONTEXT_SALT = 0x43545844

/** The log with the data of every request/context record replaced, or undefined when the draw keeps it (or it holds none). */
export function withContextDataNotObject(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = seededChooser((planSeed ^ CONTEXT_SALT) >>> 0)
  if (chooser.int(4) !== 0) return undefined
  const data = pick(chooser, NOT_OBJECTS)
  const isContext = (event: unknown): boolean => isRecord(event) && event['type'] === 'request/context'
  if (!events.some(isContext)) return undefined
  return events.map(event => (isContext(event) ? { ...(event as Record<string, unknown>), data: structuredClone(data) } : event))
}
