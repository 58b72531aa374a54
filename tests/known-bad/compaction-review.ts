// Known-bad adapters from a planted-bug review of compactionState (30 bugs planted in a second
// implementation of chapter 13; these eight passed every vector of the compaction profile then): what a
// port reads into the Terms, COMP-14, COMP-15 and COMP-16 that they do not say.
import { compactionStateOver, compactionStateWithLock, dataOf, isRecord, ref, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

/** A replacing user/message whose source names the compact plugin, whatever its kind. */
function isCompactReplace(event: EventRecord): boolean {
  const source = dataOf(event)['source']
  return event['type'] === 'user/message' && isRecord(event['surfaceOp']) && isRecord(source) && source['plugin'] === 'compact'
}

/** The event with its data's source changed by `change`. */
export function withSource(event: EventRecord, change: (source: EventRecord) => EventRecord): EventRecord {
  const data = dataOf(event)
  return { ...event, data: { ...data, source: change(isRecord(data['source']) ? data['source'] : {}) } }
}

/** A checkpoint is recognised by its plugin member alone, whatever the source's kind. */
const checkpointByPluginAlone = compactionStateOver(events => events.map(event =>
  isCompactReplace(event) ? withSource(event, source => ({ ...source, kind: 'plugin' })) : event))

/** A checkpoint counts only when its source names a compactionId (COMP-1 read into the Terms). */
const checkpointNeedsCompactionId = compactionStateOver(events => events.map(event =>
  isCompactReplace(event) && typeof (dataOf(event)['source'] as EventRecord)['compactionId'] !== 'string'
    ? { ...event, surfaceOp: 'append' }
    : event))

/** The unmatched start is judged against the first end-seed of the log, not any later one. */
const staleAgainstFirstEndSeed = compactionStateWithLock((events, start) => {
  const first = events.find(event => event['type'] === 'session/end-seed')
  return first === undefined || (first['seq'] as number) < (start['seq'] as number)
})

/** A compaction/prune marks the bracket it lies in, as a summary does. */
const pruneMarksAsSummary = compactionStateOver(events => events.map(event =>
  event['type'] === 'compaction/prune' ? { ...event, type: 'compaction/summary' } : event))

/** A session/end-seed ends the open turn for the entry checks. */
const endSeedClosesTurn = compactionStateOver(events => events.flatMap(event =>
  event['type'] === 'session/end-seed' ? [event, { type: 'turn/end', seq: event['seq'], time: event['time'], data: {} }] : [event]))

/** Whether a summary's data passes the three checks of COMP-5. */
function isWellFormedSummary(data: EventRecord): boolean {
  const seqs = data['shadowedSeqs']
  const range = data['shadowedRange']
  if (!Array.isArray(seqs) || seqs.length === 0 || !isRecord(range)) return false
  const endsMatch = typeof range['start'] === 'number' && range['start'] === seqs[0] && typeof range['end'] === 'number' && range['end'] === seqs.at(-1)
  return endsMatch && Number.isSafeInteger(data['shadowedTokenCount']) && (data['shadowedTokenCount'] as number) >= 0
}

/** Only a compaction/summary that passes COMP-5 marks its bracket (the relation read into COMP-16). */
const summaryNeedsShape = compactionStateOver(events => events.map(event =>
  event['type'] === 'compaction/summary' && !isWellFormedSummary(dataOf(event)) ? { ...event, type: 'x-known-bad/unmarked' } : event))

/** The latest event of any compaction type decides the unmatched start, so a summary after it hides it. */
const unmatchedByAnyCompactionType = compactionStateWithLock((events, start) => {
  const latest = events.findLast(event => typeof event['type'] === 'string' && event['type'].startsWith('compaction/'))
  return latest === start ? !events.some(event => event['type'] === 'session/end-seed' && (event['seq'] as number) > (start['seq'] as number)) : null
})

/** Whether `entry` was given is asked of the input's keys, so an entry of undefined runs the manual checks. */
const entryByKey: SyncOperation = input =>
  'entry' in input && input['entry'] === undefined ? ref.compactionState({ ...input, entry: 'manual' }) : ref.compactionState(input)

export const COMPACTION_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'compaction-checkpoint-by-plugin-alone',
    bug: 'a replacing user/message whose source names the compact plugin is a checkpoint whatever its kind',
    caughtBy: ['comp-state-checkpoint-needs-plugin-kind'],
    patch: { compactionState: checkpointByPluginAlone },
  },
  {
    name: 'compaction-checkpoint-needs-id',
    bug: 'a checkpoint counts only when its source names a compactionId',
    caughtBy: ['comp-state-checkpoint-needs-no-compaction-id'],
    patch: { compactionState: checkpointNeedsCompactionId },
  },
  {
    name: 'compaction-stale-against-first-end-seed',
    bug: 'the unmatched start is judged against the first end-seed of the log only',
    caughtBy: ['comp-state-stale-by-a-later-end-seed-not-the-first'],
    patch: { compactionState: staleAgainstFirstEndSeed },
  },
  {
    name: 'compaction-prune-marks-bracket',
    bug: 'a compaction/prune inside a bracket marks it as a summary does',
    caughtBy: ['comp-state-prune-in-bracket-is-no-summary'],
    patch: { compactionState: pruneMarksAsSummary },
  },
  {
    name: 'compaction-end-seed-closes-turn',
    bug: 'a session/end-seed ends the open turn for the entry checks',
    caughtBy: ['comp-state-end-seed-leaves-the-turn-open'],
    patch: { compactionState: endSeedClosesTurn },
  },
  {
    name: 'compaction-summary-needs-shape',
    bug: 'only a compaction/summary that passes COMP-5 marks its bracket',
    caughtBy: ['comp-state-summary-of-any-shape-marks'],
    patch: { compactionState: summaryNeedsShape },
  },
  {
    name: 'compaction-unmatched-by-any-type',
    bug: 'the latest compaction event of any type decides the unmatched start',
    caughtBy: ['comp-state-crash-after-the-checkpoint'],
    patch: { compactionState: unmatchedByAnyCompactionType },
  },
  {
    name: 'compaction-entry-by-key',
    bug: 'an entry member whose value is undefined runs the manual entry checks',
    caughtBy: ['comp-state-entry-undefined-is-absent'],
    patch: { compactionState: entryByKey },
  },
]
