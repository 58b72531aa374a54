// Known-bad adapters from a review that planted bugs in a second implementation of regionBalance,
// repair and resume: each passed every vector of its profile then. Each wraps a reference operation.
import { dataOf, isRecord, recordsOf, ref, rejected, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Closers = { closers: EventRecord[] }

/** The current surface nodes of the input's log, in surface order. */
function surfaceNodes(input: Input): unknown[] {
  const result = ref.surface({ events: input['events'] })
  return result.ok ? (result.value as { nodes: unknown[] }).nodes : []
}

/** The cut after the last surface node taken as balanced, as if the end of the surface closed every call. */
const lastCutBalanced: SyncOperation = input => {
  const result = ref.regionBalance(input)
  if (!result.ok || !('seq' in input) || input['seq'] !== surfaceNodes(input).at(-1)) return result
  return { ok: true, value: { ...(result.value as EventRecord), after: true } }
}

/** An assistant message's tool-call blocks counted once per call id, as a set of pending ids counts them. */
function withCallIdsOnce(record: unknown): unknown {
  if (!isRecord(record) || record['type'] !== 'assistant/message') return record
  const message = dataOf(record)['message']
  if (!isRecord(message) || !Array.isArray(message['content'])) return record
  const content: unknown[] = message['content']
  const seen = new Set<unknown>()
  const kept = content.filter(block => {
    if (!isRecord(block) || block['type'] !== 'tool-call') return true
    if (seen.has(block['id'])) return false
    seen.add(block['id'])
    return true
  })
  return { ...record, data: { ...dataOf(record), message: { ...message, content: kept } } }
}

const callIdsCountedOnce: SyncOperation = input => ref.regionBalance({ ...input, events: recordsOf(input).map(withCallIdsOnce) })

/** A region's nodes taken as those whose seq lies between its edges' seqs, not between their positions. */
const regionBySeqRange: SyncOperation = input => {
  const result = ref.regionBalance(input)
  if (!result.ok || !('start' in input)) return result
  const [low, high] = [input['start'], input['end']].map(Number).sort((a, b) => a - b)
  const shadowedSeqs = surfaceNodes(input).filter(seq => (seq as number) >= low! && (seq as number) <= high!)
  return { ok: true, value: { ...(result.value as EventRecord), shadowedSeqs } }
}

const isUnsafeWholeNumber = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && !Number.isSafeInteger(value)

/** A region edge checked as a whole number without the safe bound, so an edge of 2^53 is carried. */
const unsafeEdgeCarried: SyncOperation = input => {
  const result = ref.regionBalance(input)
  if (result.ok || result.error.code !== 'REGION_NOT_ON_SURFACE' || result.error.seq !== undefined || !('start' in input)) return result
  const edge = [input['start'], input['end']].find(isUnsafeWholeNumber)
  return edge === undefined ? result : rejected('REGION_NOT_ON_SURFACE', edge)
}

/** The end-seed stamped with the later of `now` and the last event's time, as a clock kept from going back. */
const markerTimeMonotonic: SyncOperation = input => {
  const result = ref.resume(input)
  if (!result.ok) return result
  const events = result.value as EventRecord[]
  const marker = events.at(-1)!
  const previous = events.at(-2)?.['time']
  if (marker['type'] !== 'session/end-seed' || typeof previous !== 'number') return result
  return { ok: true, value: [...events.slice(0, -1), { ...marker, time: Math.max(marker['time'] as number, previous) }] }
}

/** The turn named by the last assistant message holding a tool-call block with `callId`. */
function registeringTurn(events: readonly unknown[], callId: unknown): unknown {
  const holds = (event: unknown): boolean => {
    const content = isRecord(event) && event['type'] === 'assistant/message' ? (dataOf(event)['message'] as EventRecord | undefined)?.['content'] : undefined
    return Array.isArray(content) && content.some(block => isRecord(block) && block['type'] === 'tool-call' && block['id'] === callId)
  }
  return dataOf([...events].reverse().find(holds))['turn']
}

/** Repair's closers, each passed through `edit` with the input's events. */
export function repairEditing(edit: (closer: EventRecord, events: readonly unknown[]) => EventRecord): SyncOperation {
  return input => {
    const result = ref.repair(input)
    if (!result.ok) return result
    const closers = (result.value as Closers).closers.map(closer => edit(closer, recordsOf(input)))
    return { ok: true, value: { ...(result.value as Closers), closers } }
  }
}

/** A synthetic result naming the turn its registering message named, not the open turn. */
const resultTurnFromMessage = repairEditing((closer, events) => {
  if (closer['type'] !== 'tool/result') return closer
  const callId = ((dataOf(closer)['message'] as EventRecord)['source'] as EventRecord)['callId']
  return { ...closer, data: { ...dataOf(closer), turn: registeringTurn(events, callId) ?? dataOf(closer)['turn'] } }
})

/** A step/end closer naming the turn its step/start named, not the open turn. */
const stepEndTurnFromStepStart = repairEditing((closer, events) => {
  if (closer['type'] !== 'step/end') return closer
  const stepStart = [...events].reverse().find(event => isRecord(event) && event['type'] === 'step/start')
  return { ...closer, data: { ...dataOf(closer), turn: dataOf(stepStart)['turn'] ?? dataOf(closer)['turn'] } }
})

export const REGION_AND_RESUME_BUGS: readonly KnownBad[] = [
  {
    name: 'region-last-cut-balanced',
    bug: 'the cut after the last surface node is taken as balanced',
    caughtBy: ['region-last-node-after-unbalanced'],
    patch: { regionBalance: lastCutBalanced },
  },
  {
    name: 'region-call-ids-counted-once',
    bug: 'the pairing counter counts distinct call ids, not tool-call blocks',
    caughtBy: ['region-repeated-call-id-counts-twice'],
    patch: { regionBalance: callIdsCountedOnce },
  },
  {
    name: 'region-nodes-by-seq-range',
    bug: "a region's nodes are those whose seq lies between its edges' seqs",
    caughtBy: ['region-seq-between-edges-outside-region'],
    patch: { regionBalance: regionBySeqRange },
  },
  {
    name: 'region-unsafe-edge-carried',
    bug: 'a region edge of 2^53 is carried in the rejection, as a whole number checked without the safe bound',
    caughtBy: ['region-edges-not-usable-seqs'],
    patch: { regionBalance: unsafeEdgeCarried },
  },
  {
    name: 'resume-marker-time-monotonic',
    bug: "the end-seed's time is raised to the last event's when now is earlier",
    caughtBy: ['seed-resume-now-before-last-time'],
    patch: { resume: markerTimeMonotonic },
  },
  {
    name: 'repair-result-turn-from-message',
    bug: "a synthetic result names the turn of the message that registered its call, not the open turn",
    caughtBy: ['repair-result-names-open-turn'],
    patch: { repair: resultTurnFromMessage },
  },
  {
    name: 'repair-step-end-turn-from-step-start',
    bug: 'the step/end closer names the turn its step/start named, not the open turn',
    caughtBy: ['repair-step-end-names-open-turn'],
    patch: { repair: stepEndTurnFromStepStart },
  },
]
