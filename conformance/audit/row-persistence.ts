// Row 5, persistence: what a turn committed is durable, a torn tail holds only uncommitted data, and
// every resumption is marked. The evidence is the decoder's torn tail (chapter 19), the open tail turn
// (REPAIR-2) and the positions of the session/end-seed markers (chapter 11).
import type { SessionEvent } from '../../reference/envelope.ts'
import type { JsonRecord } from '../../reference/lossless-json.ts'
import type { AuditEvidence, AuditRow } from '../../generated/types/index.ts'
import { dataOf, numberAt, recordAt, seqList, stringAt, type AuditedLog, type LoadedLog } from './log.ts'
import { plural, tornTailAdvice } from '../wording.ts'
import { evidence, isMisplacement, row } from './verdicts.ts'
import { pathBindingFault } from '../check/path-binding.ts'

const FRAME_INVALID = 'JSONL_FRAME_INVALID'
const DAMAGE_CODES = new Set(['JSONL_LINE_UNPARSABLE', 'JSONL_ROW_INVALID', 'JSONL_SEQ_GAP', FRAME_INVALID])

function tornTailEvidence(log: AuditedLog): AuditEvidence {
  const torn = log.tornTail
  if (torn === null) return evidence('pass', 'no torn tail: every byte of the artifact belongs to a committed record', { requirements: ['JSONL-12'] })
  // JSONL-15 is the torn final frame of a zstd artifact.
  return evidence('warn', tornTailAdvice(torn, log.info.encoding, log.extent), { requirements: log.info.encoding === 'zstd' ? ['JSONL-11', 'JSONL-12', 'JSONL-15'] : ['JSONL-11', 'JSONL-12'] })
}

function rejectionEvidence(log: AuditedLog): AuditEvidence {
  const rejection = log.info.rejection
  if (rejection === null) throw new Error('rejectionEvidence needs a rejection')
  if (rejection.code === FRAME_INVALID) {
    return evidence('fail', `the artifact is not a sound sequence of zstd frames (${FRAME_INVALID}; Raw-fact integrity says where), which is no torn tail: it was damaged, or was not written as the store writes one, a header frame and then a frame per append batch`, { requirements: ['JSONL-13', 'JSONL-14'] })
  }
  if (DAMAGE_CODES.has(rejection.code)) {
    const where = rejection.line === undefined ? '' : ` at line ${rejection.line}`
    return evidence('fail', `damage${where} (${rejection.code}): committed data follows a defect, so it is not a torn tail: what a turn committed was not kept intact`, { requirements: ['JSONL-11'] })
  }
  if (rejection.class === 'refusal') return evidence('fail', `${rejection.operation} refuses the log with ${rejection.code}: this reader cannot read it, so its durability cannot be established here (a refusal, no sign of damage: FMT-5)`)
  return evidence('fail', `${rejection.operation} rejects the log with ${rejection.code}: its durability cannot be established`)
}

function openTurnEvidence(loaded: LoadedLog): AuditEvidence {
  const turnEnd = loaded.closers.find(closer => closer.type === 'turn/end')
  if (turnEnd === undefined) {
    if (!loaded.events.some(event => event.type === 'turn/start')) return evidence('info', 'no turn is open at the tail: the log holds no turn', { requirements: ['REPAIR-2'] })
    return evidence('pass', 'no turn is open at the tail: the last turn was closed', { requirements: ['REPAIR-2'] })
  }
  const reopening = loaded.repairRejection === undefined
    ? `a cold reopening appends ${plural(loaded.closers.length, 'closer')} (REPAIR-5) and then a session/end-seed`
    : 'a cold reopening cannot close it, since its closers would not load (see failure recovery)'
  return evidence('warn', `turn ${String(dataOf(turnEnd)['turn'])} is open at the tail: a crash cut it, or a live writer still holds the log; ${reopening}`, { requirements: ['REPAIR-2', 'REPAIR-10', 'SEED-10'] })
}

function endSeedEvidence(events: readonly SessionEvent[], seedLength: number | undefined): AuditEvidence[] {
  const markers = events.filter(event => event.type === 'session/end-seed').map(event => event.seq)
  const items: AuditEvidence[] = []
  if (seedLength !== undefined) items.push(evidence('info', `the header records a seed of ${plural(seedLength, 'event')} inherited from the parent session (seedLength)`, { requirements: ['SEED-2'] }))
  const last = markers.at(-1)
  items.push(last === undefined
    ? evidence('info', 'no session/end-seed: the log marks no reopening', { requirements: ['SEED-6'] })
    : evidence('info', `session/end-seed at ${markers.length === 1 ? 'seq' : 'seqs'} ${seqList(markers)}: events before seq ${last} belong to earlier lifecycles`, { seq: last, requirements: ['SEED-6'] }))
  return items
}

const isInterruptedEnd = (event: SessionEvent): boolean => event.type === 'turn/end' && stringAt(recordAt(dataOf(event), 'reason'), 'kind') === 'interrupted'

/**
 * SEED-10: repair closers (a turn/end "interrupted", the last of them) are followed right away by a
 * marker, the reopened session's first live write; closers that end the log wait for it.
 */
function closerMarkerEvidence(events: readonly SessionEvent[]): AuditEvidence[] {
  const items: AuditEvidence[] = []
  let closersEnd: number | undefined
  for (const event of events) {
    if (closersEnd !== undefined) items.push(afterClosersEvidence(closersEnd, event))
    closersEnd = isInterruptedEnd(event) ? event.seq : undefined
  }
  if (closersEnd !== undefined) {
    items.push(evidence('info', `the repair closers ending at seq ${closersEnd} end the log: a reopened session writes the session/end-seed with its first live write, so nothing is unmarked yet`, { seq: closersEnd, requirements: ['SEED-10'] }))
  }
  return items
}

/** What the event right after repair closers says of the resumption: its marker, or a write before any marker. */
function afterClosersEvidence(closersEnd: number, next: SessionEvent): AuditEvidence {
  if (next.type === 'session/end-seed') return evidence('pass', `the repair closers ending at seq ${closersEnd} are followed by the session/end-seed at seq ${next.seq}`, { seq: closersEnd, requirements: ['SEED-10'] })
  return evidence('fail', `the repair closers ending at seq ${closersEnd} are followed by the ${next.type} at seq ${next.seq}, not by a session/end-seed: the resumption is not marked (its marker is the reopened session's first live write)`, { seq: closersEnd, requirements: ['SEED-3', 'SEED-10'] })
}

/**
 * HDR-6: a "resume" snapshot starts a new lifecycle, which a marker after the previous snapshot shows
 * (SEED-3). Without one, a resumption went unmarked: a failure signal of this row (spec/acceptance.md).
 */
function resumeMarkerEvidence(events: readonly SessionEvent[]): AuditEvidence[] {
  const items: AuditEvidence[] = []
  let markedSinceHeader = false
  let snapshotSeen = false
  for (const event of events) {
    if (event.type === 'session/end-seed') markedSinceHeader = true
    if (event.type !== 'request/header') continue
    if (dataOf(event)['reason'] === 'resume' && !markedSinceHeader) {
      const since = snapshotSeen ? 'since the previous snapshot' : 'before it (it is the log\'s first snapshot)'
      items.push(evidence('fail', `request/header seq ${event.seq} has reason "resume", but no session/end-seed marks a resumption ${since}`, { seq: event.seq, requirements: ['HDR-6', 'SEED-3'] }))
    }
    markedSinceHeader = false
    snapshotSeen = true
  }
  return items
}

/** JSONL-3, as check applies it: a session.jsonl[.zstd] must sit where its header's id and cwd place it. */
function bindingEvidence(log: AuditedLog, header: JsonRecord): AuditEvidence[] {
  if (log.info.noLayout === true) return [evidence('info', 'read as a lone artifact (--no-layout): its place in the storage layout was not checked', { requirements: ['JSONL-3'] })]
  const fault = pathBindingFault(log.info.file, log.info.encoding, header)
  if (fault === undefined) return []
  return [evidence('fail', `HEADER_ID_MISMATCH: ${fault}; the store cannot open this artifact for its session`, { requirements: ['JSONL-3'] })]
}

export function persistenceRow(log: AuditedLog): AuditRow {
  const items: AuditEvidence[] = []
  if (log.header !== undefined) items.push(...bindingEvidence(log, log.header))
  if (log.info.events !== null) items.push(tornTailEvidence(log))
  if (log.info.rejection !== null) items.push(rejectionEvidence(log))
  const loaded = log.loaded
  if (loaded !== undefined) {
    items.push(openTurnEvidence(loaded), ...endSeedEvidence(loaded.events, numberAt(log.header, 'seedLength')), ...closerMarkerEvidence(loaded.events), ...resumeMarkerEvidence(loaded.events))
  }
  const rejection = log.info.rejection
  return row('persistence', items, verdict => {
    if (verdict === 'pass') return 'The log shows no lost write: no torn tail, no turn open at the tail, every resumption marked.'
    if (verdict === 'warn') return 'The log is consistent with a crash: uncommitted data or an open turn at the tail (see the warnings).'
    const misplaced = items.some(isMisplacement)
    if (rejection?.class === 'refusal' && !misplaced) return 'This reader cannot read the log, so its durability cannot be established here; that is no sign of damage.'
    if (rejection !== null && !misplaced && !DAMAGE_CODES.has(rejection.code)) return 'The log does not load, so its durability cannot be established.'
    const causes = failureCauses(items, rejection, misplaced).join('; ')
    return `${causes.charAt(0).toUpperCase()}${causes.slice(1)}.`
  })
}

/** What failed this row, each cause that applies, so that a misplaced copy does not read as lost data. */
function failureCauses(items: readonly AuditEvidence[], rejection: AuditedLog['info']['rejection'], misplaced: boolean): string[] {
  const unmarked = items.some(item => item.mark === 'fail' && item.requirements?.includes('SEED-3') === true)
  const intact = rejection === null && !unmarked ? '; the log itself may be intact' : ''
  return [
    ...(rejection === null ? [] : [rejectionCause(rejection)]),
    ...(unmarked ? ['a resumption is not marked'] : []),
    ...(misplaced ? [`the artifact is not where its header places it (the store cannot open it for its session${intact})`] : []),
  ]
}

function rejectionCause(rejection: NonNullable<AuditedLog['info']['rejection']>): string {
  if (rejection.code === FRAME_INVALID) return 'the artifact is no sound sequence of zstd frames: damaged, or not laid out as the store writes one'
  if (DAMAGE_CODES.has(rejection.code)) return 'committed data is damaged'
  if (rejection.class === 'refusal') return 'this reader cannot read the log (no sign of damage)'
  return 'the log does not load, so its durability cannot be established'
}
