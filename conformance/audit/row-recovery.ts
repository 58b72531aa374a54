// Row 6, failure recovery: an interrupted turn, tool call or compaction is closed or detectable, with
// the failure classes that could leave it. The evidence is the compaction lock and the outcome of every
// bracket (COMP-14..17), the model calls that failed and what followed them, the streams a
// cancellation cut (VOC-3's interrupted messages), and the crash-repair closers (chapter 12), both
// those already in the log and those a cold reopening would append.
import { isCheckpoint, type BracketReport } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditEvidence, AuditModelFailure, AuditRow } from '../../generated/types/index.ts'
import { answeredCallId, dataOf, recordAt, stringAt, type LoadedLog } from './log.ts'
import type { BracketSpan } from './brackets.ts'
import { capped, evidence, row, violationsOfRow } from './verdicts.ts'
import { plural, reportMessage } from '../wording.ts'
import { jsonText } from './json-text.ts'
import { firstSeqAfter, indexAfter } from '../seq-search.ts'

/** Which failure classes of the compaction API can leave each outcome (chapter 13, informative table). */
const CLASSES_BY_OUTCOME: Record<BracketReport['outcome'], string> = {
  completed: 'a success (or persistence, when the flush after it failed, or cancelled, when the cancel signal fired during that flush)',
  irregular: 'no class: no reference producer writes it',
  'failed-clean': 'cancelled, changed, summary, or commit with the summary refused',
  'failed-partial': 'commit, after the summary or checkpoint had landed',
  'orphaned-live': 'a crash, a commit whose end could not be appended, or an attempt still running',
  'orphaned-stale': 'a crash of an earlier lifecycle',
}

export function endError(event: SessionEvent | undefined): string | null {
  const data = dataOf(event)
  if (!Object.hasOwn(data, 'error')) return null
  const error = data['error']
  return typeof error === 'string' ? error : jsonText(error)
}

/** A model call that finished with an error: an assistant/chunk whose finish reason is an error. */
export function modelFailures(events: readonly SessionEvent[]): AuditModelFailure[] {
  return events.flatMap(event => {
    if (event.type !== 'assistant/chunk') return []
    const chunk = recordAt(dataOf(event), 'chunk')
    const reason = chunk?.['type'] === 'finish' ? recordAt(chunk, 'reason') : undefined
    if (stringAt(reason, 'kind') !== 'error') return []
    const failure = reason === undefined ? undefined : recordAt(reason, 'failure')
    return [{ seq: event.seq, code: stringAt(failure, 'code') ?? null, message: stringAt(failure, 'message') ?? '' }]
  })
}

function lockEvidence(loaded: LoadedLog): AuditEvidence[] {
  const open = loaded.compaction.open
  if (open === null) return [evidence('pass', 'no unmatched compaction/start: the compaction lock is free', { requirements: ['COMP-14'] })]
  const seq = open['startSeq'] as number
  if (open['live'] === true) {
    return [evidence('fail', `compaction/start seq ${seq} is unmatched and live: it holds the compaction lock, the surface may be half-changed, and no compaction can begin`, { seq, requirements: ['COMP-14', 'COMP-15'] })]
  }
  return [evidence('pass', `compaction/start seq ${seq} is unmatched but stale: a later session/end-seed discarded it, so it holds nothing`, { seq, requirements: ['COMP-7', 'COMP-14'] })]
}

/** The seq of the checkpoint a bracket landed on the surface (a replace inside its span), if it landed one. */
function landedCheckpoint(loaded: LoadedLog, span: BracketSpan): number | undefined {
  const replacements = loaded.surface.replacements
  for (let index = indexAfter(replacements, span.bracket.startSeq, item => item.seq); index < replacements.length; index += 1) {
    const seq = replacements[index]!.seq
    if (seq >= span.limit) return undefined
    if (isCheckpoint(loaded.events[seq]!)) return seq
  }
  return undefined
}

function bracketEvidence(loaded: LoadedLog, ahead: LookAhead, span: BracketSpan): AuditEvidence {
  const { bracket } = span
  const range = `${bracket.startSeq}…${bracket.endSeq ?? '(no end)'}`
  const error = endError(bracket.endSeq === null ? undefined : loaded.events[bracket.endSeq])
  const detail = `compaction bracket ${range} is ${bracket.outcome}${error === null ? '' : ` (error: ${error})`}; possible classes: ${CLASSES_BY_OUTCOME[bracket.outcome]}`
  const details = { seq: bracket.startSeq, requirements: ['COMP-16'] }
  switch (bracket.outcome) {
    case 'completed':
    case 'failed-clean':
      return evidence('pass', detail, details)
    case 'orphaned-stale': {
      // Stale, it holds no lock (COMP-7); but a checkpoint it landed stays on the surface unconfirmed.
      const checkpoint = landedCheckpoint(loaded, span)
      return checkpoint === undefined
        ? evidence('pass', detail, details)
        : evidence('warn', `${detail}, but its checkpoint at seq ${checkpoint} landed: the surface holds a compaction whose bracket never closed, so what it changed was never confirmed`, details)
    }
    case 'orphaned-live': {
      // It is the lock of COMP-14 only when it is the latest unmatched start; a log whose brackets
      // break the relations may hold another orphan after it, or a later end that frees the lock.
      const holdsLock = loaded.compaction.open?.['startSeq'] === bracket.startSeq
      return holdsLock
        ? evidence('info', `${detail} (the lock above)`, details)
        : evidence('warn', `${detail}, though the lock is not its own (a later start or end decides the lock, COMP-14): what it changed was never confirmed`, details)
    }
    case 'irregular':
      return evidence('fail', `${detail}: it claims success, yet replaced nothing`, details)
    case 'failed-partial': {
      const continued = firstSeqAfter(ahead.assistantMessages, bracket.endSeq ?? bracket.startSeq)
      // spec/acceptance.md lists a failed-partial bracket among the failure signals, whether or not
      // the model has run on the half-changed surface yet.
      return evidence('fail', continued === undefined
        ? `${detail}: the surface may hold its checkpoint (no model call has run on it yet)`
        : `${detail}: the surface may hold its checkpoint, and the model ran on it (assistant message seq ${continued})`, details)
    }
  }
}

/** The seqs the evidence looks ahead to, each list ascending: one pass over the log for every question. */
interface LookAhead {
  assistantMessages: number[]
  turnEnds: number[]
}

function lookAheadOf(events: readonly SessionEvent[]): LookAhead {
  const ahead: LookAhead = { assistantMessages: [], turnEnds: [] }
  for (const event of events) {
    if (event.type === 'assistant/message') ahead.assistantMessages.push(event.seq)
    else if (event.type === 'turn/end') ahead.turnEnds.push(event.seq)
  }
  return ahead
}

/** What followed a failed model call in its turn: a compaction bracket and a retried message, before the turn's end. */
function failureEvidence(loaded: LoadedLog, ahead: LookAhead, failure: AuditModelFailure): AuditEvidence {
  const turnEndSeq = firstSeqAfter(ahead.turnEnds, failure.seq) ?? loaded.events.length
  const retrySeq = firstSeqAfter(ahead.assistantMessages, failure.seq)
  const brackets = loaded.compaction.brackets
  const bracket = brackets[indexAfter(brackets, failure.seq, candidate => candidate.startSeq)]
  // In the log's order: a retry may come before the bracket as well as after it.
  const after = [
    bracket === undefined || bracket.startSeq >= turnEndSeq ? undefined : { seq: bracket.startSeq, text: `compaction bracket ${bracket.startSeq}…${bracket.endSeq ?? '(no end)'} (${bracket.outcome})` },
    retrySeq === undefined || retrySeq >= turnEndSeq ? undefined : { seq: retrySeq, text: `assistant message seq ${retrySeq}` },
  ].filter(part => part !== undefined).sort((a, b) => a.seq - b.seq).map(part => part.text)
  const what = `the model call failed at seq ${failure.seq}${failure.code === null ? '' : ` (${failure.code})`}${failure.message === '' ? '' : `: ${failure.message}`}`
  return evidence('info', `${what}; then, in the same turn: ${after.length === 0 ? 'nothing' : after.join(', then ')}`, { seq: failure.seq, requirements: ['DER-10'] })
}

function closerEvidence(closer: SessionEvent, pending: boolean): AuditEvidence | undefined {
  if (closer.type !== 'tool/result') return undefined
  const code = stringAt(recordAt(dataOf(closer), 'error'), 'code')
  const callId = answeredCallId(closer)
  const where = pending ? 'crash repair would answer' : `the closer at seq ${closer.seq} answers`
  if (code === 'TOOL_OUTCOME_UNKNOWN') {
    return evidence('warn', `${where} call ${callId} as TOOL_OUTCOME_UNKNOWN: it started, but its result was never recorded, so its side effects are unknown`, { seq: closer.seq, requirements: ['REPAIR-9'] })
  }
  if (code === 'TOOL_NOT_STARTED') return evidence('pass', `${where} call ${callId} as TOOL_NOT_STARTED: it never started`, { seq: closer.seq, requirements: ['REPAIR-9', 'PAIR-5'] })
  return undefined
}

/**
 * VOC-3: an assistant message marked interrupted keeps what the model delivered before a cancellation
 * cut its stream; its turn then ends as cancelled (aborted), which is no crash. One that ends with crash
 * repair's kind and no end-seed marker after it is a writer's mistake or a repair that lost its marker.
 */
function cancelledStreamEvidence(message: SessionEvent, turnEnds: ReadonlyMap<unknown, SessionEvent>, nextTypes: ReadonlyMap<number, string>): AuditEvidence {
  const turn = dataOf(message)['turn']
  const end = turnEnds.get(turn)
  const kind = end === undefined ? undefined : stringAt(recordAt(dataOf(end), 'reason'), 'kind')
  const cut = `turn ${String(turn)} was cancelled while the model streamed: the assistant message at seq ${message.seq} (interrupted) keeps what was delivered before the cut`
  // Crash repair's own turn/end is followed by the marker a reopening writes (SEED-10), or ends the log
  // until the reopened session's first live write.
  const after = end === undefined ? undefined : nextTypes.get(end.seq)
  if (end !== undefined && kind === 'interrupted' && after !== 'session/end-seed') {
    const [where, repair] = after === undefined
      ? ['at the end of the log', 'crash repair closed it, and the end-seed marker comes with the reopened session\'s first live write (SEED-10)']
      : ['with no session/end-seed after it', 'crash repair closed it and the end-seed marker that follows repair is missing (see Persistence)']
    const causes = `either its writer wrote crash repair's kind where a cancelled turn ends aborted (VOC-4), or ${repair}`
    return evidence('warn', `${cut}; its turn ended interrupted (turn/end seq ${end.seq}) ${where}: ${causes}`, { seq: end.seq, requirements: ['VOC-3', 'VOC-4'] })
  }
  const ended = end === undefined ? 'its turn is not closed' : `its turn ended ${kind ?? 'with no reason kind'} (turn/end seq ${end.seq})`
  return evidence('info', `${cut}; ${ended}`, { seq: message.seq, requirements: ['VOC-3'] })
}

function interruptedEvidence(loaded: LoadedLog): AuditEvidence[] {
  const items: AuditEvidence[] = []
  const turnEnds = new Map(loaded.events.filter(event => event.type === 'turn/end').map(event => [dataOf(event)['turn'], event]))
  const nextTypes = new Map(loaded.events.slice(0, -1).map((event, index) => [event.seq, loaded.events[index + 1]!.type]))
  for (const event of loaded.events) {
    if (event.type === 'assistant/message' && dataOf(event)['interrupted'] === true) items.push(cancelledStreamEvidence(event, turnEnds, nextTypes))
    if (event.type === 'turn/end' && stringAt(recordAt(dataOf(event), 'reason'), 'kind') === 'interrupted') {
      items.push(evidence('info', `turn ${String(dataOf(event)['turn'])} ended interrupted, the kind crash repair closes a turn with (turn/end seq ${event.seq})`, { seq: event.seq, requirements: ['REPAIR-7'] }))
    }
    const closer = event.type === 'tool/result' ? closerEvidence(event, false) : undefined
    if (closer !== undefined) items.push(closer)
  }
  const unrepairable = loaded.repairRejection
  if (unrepairable !== undefined) {
    const where = `${unrepairable.code} at seq ${String(unrepairable.seq)}: ${reportMessage(unrepairable.message)}`
    items.push(evidence('fail', `the open tail turn cannot be repaired, since its closers would not load (${where})`, { seq: unrepairable.seq, requirements: ['REPAIR-13'] }))
  } else if (loaded.closers.length > 0) {
    items.push(evidence('info', `the open tail turn would be closed by ${plural(loaded.closers.length, 'repair closer')} (${loaded.closers.map(closer => closer.type).join(', ')})`, { requirements: ['REPAIR-5'] }))
    for (const closer of loaded.closers) {
      const item = closerEvidence(closer, true)
      if (item !== undefined) items.push(item)
    }
  }
  return items
}

function relationEvidence(loaded: LoadedLog): AuditEvidence[] {
  return capped(violationsOfRow(loaded, 'failure-recovery')
    .map(({ code, seq, requirements, message }) => evidence('fail', `${code} at seq ${seq}: ${message}, so the compaction bracket relations are broken`, { seq, requirements })))
}

export function failureRecoveryRow(loaded: LoadedLog): AuditRow {
  const ahead = lookAheadOf(loaded.events)
  const items = [
    ...lockEvidence(loaded),
    ...loaded.bracketSpans.map(span => bracketEvidence(loaded, ahead, span)),
    ...relationEvidence(loaded),
    ...capped(modelFailures(loaded.events).map(failure => failureEvidence(loaded, ahead, failure))),
    ...interruptedEvidence(loaded),
  ]
  return row('failure-recovery', items, verdict => {
    if (verdict === 'pass') return 'Every interrupted turn, call and compaction is closed or detectable, with the failure classes that could leave it.'
    if (verdict === 'warn') return 'Every failure is detectable, but some outcomes are uncertain (see the warnings).'
    return 'A compaction or a crash left the log in a state that is not closed or not safe to continue from, or a compaction rule is broken (see the failing evidence).'
  })
}
