// Editing a valid log while keeping its seqs consistent: inserting or removing an event shifts every
// later seq and every member that names a seq (surfaceOp endpoints, sourceEventSeqs, the claims of
// compaction/summary and compaction/prune, the message seqs of session/title, command/done's
// sourceEventSeq), so a mutation changes exactly the one thing it means to change.
import { SURFACE_TYPES, type Json, type JsonObject, type LogEvent } from './events.ts'
import { isRecord } from './surface-model.ts'

export function cloneEvents(events: readonly LogEvent[]): LogEvent[] {
  return structuredClone(events as LogEvent[])
}

function remapClaim(data: JsonObject, shift: (seq: number) => number): void {
  const range = data['shadowedRange']
  if (isRecord(range)) {
    if (typeof range['start'] === 'number') range['start'] = shift(range['start'])
    if (typeof range['end'] === 'number') range['end'] = shift(range['end'])
  }
  const seqs = data['shadowedSeqs']
  if (Array.isArray(seqs)) data['shadowedSeqs'] = seqs.map(seq => (typeof seq === 'number' ? shift(seq) : seq))
}

/** Every seq an event names, rewritten by `shift` (the event is changed in place). */
function remapEvent(event: LogEvent, shift: (seq: number) => number): void {
  event.seq = shift(event.seq)
  const op = event.surfaceOp
  if (op !== undefined && op !== 'append') event.surfaceOp = { op: 'replace', start: shift(op.start), end: shift(op.end) }
  if (event.sourceEventSeqs !== undefined) event.sourceEventSeqs = event.sourceEventSeqs.map(shift)
  const data = event.data
  if (!isRecord(data)) return
  if (event.type === 'compaction/summary' || event.type === 'compaction/prune') remapClaim(data, shift)
  if (event.type === 'session/title' && Array.isArray(data['messageSeqs'])) {
    data['messageSeqs'] = data['messageSeqs'].map((seq: Json) => (typeof seq === 'number' ? shift(seq) : seq))
  }
  if (event.type === 'command/done' && typeof data['sourceEventSeq'] === 'number') data['sourceEventSeq'] = shift(data['sourceEventSeq'])
}

/** The log with `inserted` (type and data; no surface members) placed at `index`, seqs shifted. */
export function insertEvent(events: readonly LogEvent[], index: number, inserted: Pick<LogEvent, 'type' | 'data'>): LogEvent[] {
  if (SURFACE_TYPES.has(inserted.type)) throw new Error('insertEvent places log-only events only')
  const copy = cloneEvents(events)
  for (const event of copy) remapEvent(event, seq => (seq >= index ? seq + 1 : seq))
  const time = copy[index - 1]?.time ?? copy[index]?.time ?? 0
  copy.splice(index, 0, { type: inserted.type, seq: index, time, data: structuredClone(inserted.data) })
  return copy
}

/** Whether any other event names `seq` in a member that `removeEvent` would have to rewrite. */
export function isReferenced(events: readonly LogEvent[], seq: number): boolean {
  return events.some(event => namesSeq(event, seq))
}

function namesSeq(event: LogEvent, seq: number): boolean {
  let named = false
  remapEvent(structuredClone(event), candidate => {
    if (candidate === seq && candidate !== event.seq) named = true
    return candidate
  })
  return named
}

/** The log without the event at `index`, later seqs shifted down; nothing may name the removed seq. */
export function removeEvent(events: readonly LogEvent[], index: number): LogEvent[] {
  if (events.some(event => namesSeq(event, index))) throw new Error(`seq ${index} is named by another event`)
  const copy = cloneEvents(events)
  copy.splice(index, 1)
  for (const event of copy) remapEvent(event, seq => (seq > index ? seq - 1 : seq))
  return copy
}

/**
 * The log with the event at `from` moved to `to` (a later index), the events between moved up one and
 * every seq that names them rewritten; nothing may name the moved seq.
 */
export function moveEventLater(events: readonly LogEvent[], from: number, to: number): LogEvent[] {
  if (events.some(event => namesSeq(event, from))) throw new Error(`seq ${from} is named by another event`)
  const copy = cloneEvents(events)
  for (const event of copy) remapEvent(event, seq => (seq === from ? to : seq > from && seq <= to ? seq - 1 : seq))
  const [moved] = copy.splice(from, 1)
  copy.splice(to, 0, moved!)
  return copy
}
