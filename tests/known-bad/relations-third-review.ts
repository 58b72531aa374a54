// Known-bad relations from a third planted-bug review of the relations operation (125 bugs planted in
// a second implementation of chapters 09, 10 and 13; these passed every relations vector then): check
// orders shared between rules that order them differently, a claim that a vetoed replace consumes or a
// second claim or a boundary does not move, ignorable read as "skip" on known types, a prune taken for
// a summary, COMP-1 and COMP-5 read loosely or strictly, staleness read on both sides of a start, and
// request snapshots placed by their reason or by the step's output. Each runs the reference's relations
// event by event with the check of one event, the state a veto leaves, or the stale brackets as the bug
// has them.
import { checkCompactionRelations, initialCompactionState, isCheckpoint, staleStartSeqs } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { isNonEmptyString } from '../../reference/lossless-json.ts'
import { checkEventRelations, type RelationState, type Violation } from '../../reference/processing.ts'
import { fault, type ErrorCode, type Fault } from '../../reference/result.ts'
import { nextPendingCalls, noPendingCalls, pairingFault } from '../../reference/tool-pairing.ts'
import { initialTurnState } from '../../reference/turns-and-steps.ts'
import { withSource } from './compaction-review.ts'
import { accepted, dataOf, loadedEvents, ref, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
type Checked = ReturnType<typeof checkEventRelations>
type Check = (state: RelationState, event: SessionEvent, stale: ReadonlySet<number>) => Checked

/** How a port runs the relations; each part left out is the reference's. */
interface Port {
  /** The checks of one event: a fault, or the state after it. */
  check?: Check
  /** The state a vetoed event leaves (PROC-7: the state before it). */
  vetoed?: (state: RelationState, event: SessionEvent, found: Fault) => RelationState
  /** The starts whose bracket is stale. */
  stale?: (events: readonly SessionEvent[]) => ReadonlySet<number>
}

/** relations over the loaded log as the port made afresh for the run has them; a log load rejects keeps its rejection. */
function relationsPortedAs(makePort: () => Port): SyncOperation {
  return input => {
    const events = loadedEvents(input) as unknown as SessionEvent[] | undefined
    if (events === undefined) return ref.relations(input)
    const { check = checkEventRelations, vetoed = (state: RelationState) => state, stale = staleStartSeqs } = makePort()
    const staleStarts = stale(events)
    let state: RelationState = { turns: initialTurnState, pending: noPendingCalls, compaction: initialCompactionState }
    const violations: Pick<Violation, 'code' | 'seq'>[] = []
    for (const event of events) {
      const checked = check(state, event, staleStarts)
      if (checked.ok) state = checked.state
      else {
        violations.push({ code: checked.fault.code, seq: event.seq })
        state = vetoed(state, event, checked.fault)
      }
    }
    return accepted({ violations })
  }
}

/** A relations port that changes only the check of one event. */
function checkedBy(check: Check): SyncOperation {
  return relationsPortedAs(() => ({ check }))
}

/** A veto with `code`. */
function vetoedWith(code: ErrorCode): Checked {
  return { ok: false, fault: fault(code, 'known-bad adapter') }
}

/** The reference's result with the fault `recode` gives in place of its own (undefined: kept). */
function recoded(checked: Checked, recode: (found: Fault) => ErrorCode | undefined): Checked {
  if (checked.ok) return checked
  const code = recode(checked.fault)
  return code === undefined ? checked : vetoedWith(code)
}

/** An event skipped by every relation: accepted, and the state as it was. */
function skipped(state: RelationState): Checked {
  return { ok: true, state }
}

// ---- TURN-8, TURN-12, COMP-11: check orders ------------------------------------------------------

/** The step-scoped kinds of TURN-8: step/end, chunk, assistant/message, tool/call and an append-origin tool/result. */
function isStepScoped(event: SessionEvent): boolean {
  return ['step/end', 'assistant/chunk', 'assistant/message', 'tool/call'].includes(event.type)
    || (event.type === 'tool/result' && event.surfaceOp === 'append')
}

/** A step-scoped event compares data.turn before asking for an open step, in step/start's order (TURN-7). */
const stepScopedTurnFirst = checkedBy((state, event, stale) => {
  const { openTurn, openStep } = state.turns
  if (isStepScoped(event) && openTurn !== null && openStep === null && dataOf(event)['turn'] !== openTurn) return vetoedWith('STEP_MISMATCH')
  return checkEventRelations(state, event, stale)
})

/** A replacing assistant/message or tool/result is held to the armed claim before the chapter 09 and 10 checks. */
const claimBeforeTurnChecks = checkedBy((state, event, stale) => {
  const replacing = (event.type === 'assistant/message' || event.type === 'tool/result') && typeof event.surfaceOp === 'object' && event.surfaceOp !== null
  const claim = replacing ? checkCompactionRelations(state.compaction, event, state.turns.openTurn, stale) : undefined
  return claim !== undefined && !claim.ok ? claim : checkEventRelations(state, event, stale)
})

/** A summary inside a summarized bracket reports the duplicate before the owner test. */
const duplicateBeforeOwner = checkedBy((state, event, stale) =>
  recoded(checkEventRelations(state, event, stale), found =>
    (event.type === 'compaction/summary' && found.code === 'COMPACTION_OWNER_MISMATCH' && state.compaction.bracket?.summarized === true
      ? 'COMPACTION_SUMMARY_DUPLICATE'
      : undefined)))

// ---- COMP-10: the claim --------------------------------------------------------------------------

/** A replace vetoed for missing the claim still disarms it, as if the claim were used up by the attempt. */
const claimConsumedByVeto = relationsPortedAs(() => ({
  vetoed: (state, _event, found) => (found.code === 'COMPACTION_CLAIM_MISMATCH' ? { ...state, compaction: { ...state.compaction, claim: undefined } } : state),
}))

/** The reference's check, with the armed claim left as it was after an accepted event `keeps` picks. */
function claimKeptBy(keeps: (event: SessionEvent, state: RelationState) => boolean): SyncOperation {
  return checkedBy((state, event, stale) => {
    const checked = checkEventRelations(state, event, stale)
    if (!checked.ok || !keeps(event, state)) return checked
    return { ok: true, state: { ...checked.state, compaction: { ...checked.state.compaction, claim: state.compaction.claim } } }
  })
}

/** A summary or prune arriving while a claim is armed leaves the first claim armed. */
const firstClaimWins = claimKeptBy((event, state) =>
  (event.type === 'compaction/summary' || event.type === 'compaction/prune') && state.compaction.claim !== undefined)

/** Turn and step boundaries leave an armed claim armed, as events that touch no surface. */
const claimKeptByBoundaries = claimKeptBy(event => ['turn/start', 'turn/end', 'step/start', 'step/end'].includes(event.type))

/** A prune inside an open bracket counts as its summary. */
const pruneCountsAsSummary = checkedBy((state, event, stale) => {
  const checked = checkEventRelations(state, event, stale)
  const bracket = checked.ok ? checked.state.compaction.bracket : undefined
  if (event.type !== 'compaction/prune' || !checked.ok || bracket === undefined) return checked
  return { ok: true, state: { ...checked.state, compaction: { ...checked.state.compaction, bracket: { ...bracket, summarized: true } } } }
})

// ---- COMP-1, COMP-5: identity and token count ----------------------------------------------------

/** The types whose data carries a bracket's identity. */
const BRACKET_TYPES = new Set(['compaction/start', 'compaction/summary', 'compaction/end'])

/** The event with its bracket data's or checkpoint source's compactionId edited by `edit`. */
function withCompactionIdEdited(event: SessionEvent, edit: (id: unknown) => unknown): SessionEvent {
  const record = event as unknown as EventRecord
  if (BRACKET_TYPES.has(event.type)) return { ...event, data: { ...dataOf(record), compactionId: edit(dataOf(record)['compactionId']) } }
  if (!isCheckpoint(event)) return event
  return withSource(record, source => ({ ...source, compactionId: edit(source['compactionId']) })) as unknown as SessionEvent
}

/** The reference's check of each event as `read` reads it. */
function checkedAsRead(read: (event: SessionEvent) => SessionEvent): SyncOperation {
  return checkedBy((state, event, stale) => checkEventRelations(state, read(event), stale))
}

/** A compactionId that is any truthy string or number is valid, so a non-zero number reads as a string of its own. */
const compactionIdAnyTruthy = checkedAsRead(event => withCompactionIdEdited(event, id =>
  (typeof id === 'number' && id !== 0 && !Number.isNaN(id) ? `known-bad: the number ${id}` : id)))

/** A shadowedTokenCount of 0 is rejected, as a test for a positive count rejects it. */
const tokenCountPositive = checkedAsRead(event =>
  (event.type === 'compaction/summary' && dataOf(event)['shadowedTokenCount'] === 0
    ? { ...event, data: { ...dataOf(event), shadowedTokenCount: -1 } }
    : event))

/** COMP-1 on a checkpoint's source checks its compactionId only, so an invalid sourceCommandId reaches COMP-9 and misses the bracket. */
const checkpointCommandIdUnchecked = checkedBy((state, event, stale) =>
  recoded(checkEventRelations(state, event, stale), found =>
    (isCheckpoint(event) && found.code === 'COMPACTION_ID_INVALID' && isNonEmptyString((dataOf(event)['source'] as EventRecord)['compactionId'])
      ? 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET'
      : undefined)))

/** On compaction/start, sourceCommandId's COMP-1 test runs after COMP-2, so a nested start with a bad one is ALREADY_OPEN. */
const startCommandIdAfterNesting = checkedBy((state, event, stale) =>
  recoded(checkEventRelations(state, event, stale), found =>
    (event.type === 'compaction/start' && found.code === 'COMPACTION_ID_INVALID' && isNonEmptyString(dataOf(event)['compactionId']) && state.compaction.bracket !== undefined
      ? 'COMPACTION_ALREADY_OPEN'
      : undefined)))

// ---- Terms of chapter 13: staleness --------------------------------------------------------------

/** Whether the first start, end or end-seed met walking from index `from` by `step` is an end-seed. */
function endSeedMet(events: readonly SessionEvent[], from: number, step: 1 | -1): boolean {
  for (let index = from + step; index >= 0 && index < events.length; index += step) {
    const type = events[index]!.type
    if (type === 'session/end-seed') return true
    if (type === 'compaction/start' || type === 'compaction/end') return false
  }
  return false
}

/** A start is stale when an end-seed lies on either side of it with no start or end between: the Terms' e > s dropped. */
const staleEitherSide = relationsPortedAs(() => ({
  stale: events => new Set(events.flatMap((event, index) =>
    (event.type === 'compaction/start' && (endSeedMet(events, index, 1) || endSeedMet(events, index, -1)) ? [event.seq] : []))),
}))

// ---- UNK-4: ignorable on known types -------------------------------------------------------------

/** Events `skips` picks are skipped by every relation when marked ignorable: true, though their type is known. */
function ignorableSkipped(skips: (event: SessionEvent) => boolean): SyncOperation {
  return checkedBy((state, event, stale) => (event.ignorable === true && skips(event) ? skipped(state) : checkEventRelations(state, event, stale)))
}

/** Compaction events marked ignorable are skipped. */
const ignorableCompactionSkipped = ignorableSkipped(event => event.type.startsWith('compaction/'))

/** An assistant/message or tool/result marked ignorable is skipped. */
const ignorableSurfaceSkipped = ignorableSkipped(event => event.type === 'assistant/message' || event.type === 'tool/result')

// ---- HDR-6, HDR-9, TURN-9: where a request snapshot stands ---------------------------------------

/** The checks of chapters 10 and 13 alone, the turn state left as it was. */
const withoutTurnChecks: Check = (state, event, stale) => {
  const orphan = pairingFault(state.pending, event)
  if (orphan !== undefined) return { ok: false, fault: orphan }
  const compaction = checkCompactionRelations(state.compaction, event, state.turns.openTurn, stale)
  if (!compaction.ok) return compaction
  return { ok: true, state: { turns: state.turns, pending: nextPendingCalls(state.pending, event), compaction: compaction.state } }
}

/** A request/header with reason "resume" is exempt from the open-turn test, as a loop taking over writes it. */
const resumeHeaderOutsideTurn = checkedBy((state, event, stale) =>
  (event.type === 'request/header' && dataOf(event)['reason'] === 'resume' ? withoutTurnChecks : checkEventRelations)(state, event, stale))

/** HDR-9's SHOULD read as a MUST: a request/header or request/context after the open step's first chunk or assistant message is STEP_MISMATCH. */
const snapshotAfterOutputVetoed = relationsPortedAs(() => {
  let outputInStep = false
  return {
    check: (state, event, stale) => {
      const snapshot = event.type === 'request/header' || event.type === 'request/context'
      if (snapshot && outputInStep && state.turns.openStep !== null) return vetoedWith('STEP_MISMATCH')
      const checked = checkEventRelations(state, event, stale)
      if (checked.ok && event.type === 'step/start') outputInStep = false
      if (checked.ok && (event.type === 'assistant/chunk' || event.type === 'assistant/message')) outputInStep = true
      return checked
    },
  }
})

export const RELATIONS_THIRD_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'step-scoped-turn-before-step-open',
    bug: 'a step-scoped event naming another turn while no step is open reports STEP_MISMATCH, in step/start\'s order instead of STEP_NOT_OPEN first',
    caughtBy: ['turn-step-scoped-wrong-turn-no-step-is-step-not-open'],
    patch: { relations: stepScopedTurnFirst },
  },
  {
    name: 'claim-before-turn-checks',
    bug: 'a replacing assistant/message or tool/result is held to the armed claim before the checks of chapters 09 and 10',
    caughtBy: ['comp-claim-rewrite-between-turns-reports-turn-first'],
    patch: { relations: claimBeforeTurnChecks },
  },
  {
    name: 'summary-duplicate-before-owner',
    bug: 'a second summary of a bracket reports COMPACTION_SUMMARY_DUPLICATE before the owner test',
    caughtBy: ['comp-rel-summary-owner-before-duplicate-and-shape'],
    patch: { relations: duplicateBeforeOwner },
  },
  {
    name: 'claim-consumed-by-vetoed-replace',
    bug: 'a replace vetoed for missing the armed claim still disarms it',
    caughtBy: ['comp-claim-vetoed-checkpoint-keeps-claim-armed'],
    patch: { relations: claimConsumedByVeto },
  },
  {
    name: 'claim-first-wins',
    bug: 'a summary or prune accepted while a claim is armed leaves the first claim armed instead of arming its own range',
    caughtBy: ['comp-claim-prune-replaces-summary-claim'],
    patch: { relations: firstClaimWins },
  },
  {
    name: 'claim-kept-by-turn-events',
    bug: 'turn/start, turn/end, step/start and step/end do not disarm an armed claim',
    caughtBy: ['comp-claim-disarmed-by-step-start'],
    patch: { relations: claimKeptByBoundaries },
  },
  {
    name: 'prune-counts-as-summary',
    bug: 'a prune inside an open bracket counts as its summary, so a successful end after it passes',
    caughtBy: ['comp-rel-prune-in-bracket-is-no-summary'],
    patch: { relations: pruneCountsAsSummary },
  },
  {
    name: 'compaction-id-any-truthy',
    bug: 'a compactionId may be any truthy string or number, so the number 7 opens a bracket',
    caughtBy: ['comp-rel-numeric-compaction-id-invalid'],
    patch: { relations: compactionIdAnyTruthy },
  },
  {
    name: 'summary-tokens-positive',
    bug: 'a summary whose shadowedTokenCount is 0 is rejected, as if the count had to be positive',
    caughtBy: ['comp-rel-blank-id-and-zero-tokens-pass'],
    patch: { relations: tokenCountPositive },
  },
  {
    name: 'checkpoint-cmd-validity-skipped',
    bug: "COMP-1 on a checkpoint's source checks its compactionId only, so a null sourceCommandId is reported as outside the bracket",
    caughtBy: ['comp-rel-checkpoint-null-command-id-invalid'],
    patch: { relations: checkpointCommandIdUnchecked },
  },
  {
    name: 'start-cmd-after-nesting',
    bug: "a compaction/start's sourceCommandId is checked after COMP-2, so a nested start with an empty one reports COMPACTION_ALREADY_OPEN",
    caughtBy: ['comp-rel-nested-start-empty-command-id-reports-id'],
    patch: { relations: startCommandIdAfterNesting },
  },
  {
    name: 'stale-seed-either-side',
    bug: 'a bracket is stale when an end-seed lies before or after its start with no start or end between, the Terms\' e > s dropped',
    caughtBy: ['comp-rel-marker-before-start-does-not-make-it-stale'],
    patch: { relations: staleEitherSide },
  },
  {
    name: 'ignorable-compaction-relations-skipped',
    bug: 'compaction events marked ignorable: true are skipped by the relations, though their types are known',
    caughtBy: ['unk-ignorable-compaction-start-still-nested'],
    patch: { relations: ignorableCompactionSkipped },
  },
  {
    name: 'ignorable-surface-skipped',
    bug: 'an assistant/message or tool/result marked ignorable: true is skipped by the relations, neither scoped nor paired',
    caughtBy: ['unk-ignorable-result-and-message-still-paired-and-scoped'],
    patch: { relations: ignorableSurfaceSkipped },
  },
  {
    name: 'header-resume-outside-turn-ok',
    bug: 'a request/header with reason "resume" is accepted with no turn open',
    caughtBy: ['hdr-place-resume-snapshot-between-turns'],
    patch: { relations: resumeHeaderOutsideTurn },
  },
  {
    name: 'header-after-output-rejected',
    bug: "a request/header or request/context after the open step's first chunk or assistant message is STEP_MISMATCH (HDR-9's SHOULD read as a MUST)",
    caughtBy: ['hdr-place-after-model-output-keeps-relations'],
    patch: { relations: snapshotAfterOutputVetoed },
  },
]
