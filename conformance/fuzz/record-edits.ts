// Small readers and edits of a log's records as the fuzz edits meet them: untyped values, usually
// events of a valid log, but any value a shrunk or broken log may hold.
import { isRecord } from '../../reference/lossless-json.ts'
import type { Chooser } from '../generators/index.ts'

type EventRecord = Record<string, unknown>

/** A record's `type`, or undefined for a value that is no object. */
export const typeOf = (event: unknown): unknown => (isRecord(event) ? event['type'] : undefined)

/** The indexes of the events `picked` keeps. */
export function indexesWhere(events: readonly unknown[], picked: (event: unknown, index: number) => boolean): number[] {
  return events.flatMap((event, index) => (picked(event, index) ? [index] : []))
}

/** The log with the event at a drawn one of `indexes` changed by `change`; undefined when there is none. */
export function atOneOf(events: readonly unknown[], indexes: readonly number[], chooser: Chooser,
  change: (event: EventRecord, index: number) => EventRecord): unknown[] | undefined {
  if (indexes.length === 0) return undefined
  const index = indexes[chooser.int(indexes.length)]!
  return events.map((event, at) => (at === index ? change(event as EventRecord, at) : event))
}
