// Known-bad adapters from a second planted-bug review of `repair` and `resume` (90 bugs planted in a
// second implementation of chapters 11, 12 and 18; these fourteen passed every vector then): REPAIR-13
// checked too early or with the wrong seq, a scan rule that keeps, forgets or registers one thing too
// many, a map kept in a JavaScript record, numbers kept in 32 bits, a falsy time replaced, and a resumed
// log whose legacy ids, upgrades or members named __proto__ come out another way. A scan bug is a port's
// scan (repair-review.ts); the rest wrap the reference's repair or resume.
import { hasOwn } from '../../reference/lossless-json.ts'
import { CLOCK_NOW, headerIdOf, storedReasonOf } from './fork-second-review.ts'
import { repairEditing } from './region-and-resume.ts'
import { contentBlocks, notIgnorable, resumeWith, RULES, scanned, scanPatch, toolCallIds, type Rule, type Scan } from './repair-review.ts'
import { accepted, copiedByAssignment, dataOf, isRecord, loadedEvents, recordsOf, ref, rejected, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>

// ---- REPAIR-13: the ids no synthetic result can carry ---------------------------------------------

/** A call id whose synthetic result would not load (VOC-11): not a string, or empty. */
const isUnloadableId = (id: unknown): boolean => typeof id !== 'string' || id === ''

/** The seq of the first closer, one past the last loaded event. */
const firstCloserSeq = (events: EventRecord[]): number => (events.at(-1)!['seq'] as number) + 1

/** REPAIR-13 checked before REPAIR-2: a bad id still registered rejects the log even when no turn is open. */
const badIdsCheckedFirst: SyncOperation = input => {
  const events = loadedEvents(input)
  const scan = events === undefined ? undefined : scanned(events)
  const position = scan === undefined || scan.turn !== null ? -1 : [...scan.calls.keys()].findIndex(isUnloadableId)
  return position === -1 ? ref.repair(input) : rejected('MESSAGE_SOURCE_INVALID', firstCloserSeq(events!) + position)
}

/** A rule that keeps the calls with a bad id through `rule`, as bad ids tracked apart and forgotten only at a step/end. */
function keepingBadIds(rule: Rule): Rule {
  return (scan, event) => {
    const bad = [...scan.calls].filter(([id]) => isUnloadableId(id))
    rule(scan, event)
    for (const [id, call] of bad) scan.calls.set(id, call)
  }
}

/** The REPAIR-13 rejection's seq counted from the bad id's place among every registration since the last boundary, answered calls included. */
const badIdSeqAmongRegistrations: SyncOperation = input => {
  const result = ref.repair(input)
  const events = loadedEvents(input)
  if (result.ok || events === undefined || result.error.code !== 'MESSAGE_SOURCE_INVALID') return result
  const registered = [...scanned(events, { rules: { 'tool/result': () => {} } }).calls.keys()]
  return rejected('MESSAGE_SOURCE_INVALID', firstCloserSeq(events) + registered.findIndex(isUnloadableId))
}

// ---- REPAIR-3, REPAIR-4: what registers, what forgets ---------------------------------------------

/** A re-registering message without a step member keeps the step of the entry it replaces. */
const reRegistrationKeepsStep: Rule = (scan, event) => {
  const data = dataOf(event)
  for (const id of toolCallIds(event)) scan.calls.set(id, { step: hasOwn(data, 'step') ? data['step'] : scan.calls.get(id)?.step })
}

/** A tool-call block registers a call, and so does every other content block with an id member. */
const anyBlockWithIdRegisters: Rule = (scan, event) => {
  for (const block of contentBlocks(event)) {
    if (isRecord(block) && (block['type'] === 'tool-call' || hasOwn(block, 'id'))) scan.calls.set(block['id'], { step: dataOf(event)['step'] })
  }
}

/** A compaction checkpoint (a user/message that replaces) empties the calls, as if it ended the step's context. */
const checkpointForgets: Rule = (scan, event) => {
  if (isRecord(event['surfaceOp']) && event['surfaceOp']['op'] === 'replace') scan.calls.clear()
}

/** `rule`, skipped for an event marked ignorable. */
const unlessIgnorable = (rule: Rule): Rule => (scan, event) => {
  if (notIgnorable(event)) rule(scan, event)
}

// ---- REPAIR-5 to REPAIR-8: the closers ------------------------------------------------------------

/** A string that is an array index ("0", "10", not "01"), which a JavaScript record lists first, in numeric order. */
const isIndexKey = (id: unknown): boolean => typeof id === 'string' && /^(0|[1-9]\d*)$/.test(id) && Number(id) < 2 ** 32 - 1

/** An open turn's calls in the order a null-prototype record keyed by call id lists them: index-like ids first. */
const callsInRecordOrder = (scan: Scan): Scan | undefined => {
  if (scan.turn === null) return undefined
  const calls = [...scan.calls]
  const indexed = calls.filter(([id]) => isIndexKey(id)).sort(([a], [b]) => Number(a) - Number(b))
  return { ...scan, calls: new Map([...indexed, ...calls.filter(([id]) => !isIndexKey(id))]) }
}

/** A number as a 32-bit integer holds it (`value | 0`); other values as they are. */
const asInt32 = (value: unknown): unknown => (typeof value === 'number' ? value | 0 : value)

/** Closers whose turn and step numbers went through `| 0`. */
const numbersAsInt32 = repairEditing(closer => {
  const data = dataOf(closer)
  return { ...closer, data: { ...data, turn: asInt32(data['turn']), ...(hasOwn(data, 'step') ? { step: asInt32(data['step']) } : {}) } }
})

/** Closers stamped `last.time || Date.now()` (the clock held still), so a last time of 0 is replaced. */
const zeroTimeReplaced = repairEditing(closer => ({ ...closer, time: closer['time'] || CLOCK_NOW }))

// ---- SEED-10 with chapter 18: the resumed log -----------------------------------------------------

/** resume with each loaded event (not the closers or the marker) passed through `change` with the record stored at its index. */
function resumeChanging(change: (event: EventRecord, stored: unknown) => EventRecord): SyncOperation {
  return input => {
    const result = ref.resume(input)
    if (!result.ok) return result
    const stored = recordsOf(input)
    return accepted((result.value as EventRecord[]).map((event, index) => (index < stored.length ? change(event, stored[index]) : event)))
  }
}

/** A legacy error reason with a message (no failure) upgraded with code UNKNOWN, its stored code dropped. */
function errorCodeUnknown(event: EventRecord, stored: unknown): EventRecord {
  const reason = storedReasonOf(stored)
  if (reason?.['kind'] !== 'error' || hasOwn(reason, 'error') || hasOwn(reason, 'failure')) return event
  const loaded = dataOf(event)['reason'] as EventRecord
  return { ...event, data: { ...dataOf(event), reason: { ...loaded, error: { ...(loaded['error'] as EventRecord), code: 'UNKNOWN' } } } }
}

/** An unwrapped assistant message whose source keeps the kind its stored provenance has, instead of model. */
function provenanceKindKept(event: EventRecord, stored: unknown): EventRecord {
  const provenance = isRecord(stored) && stored['type'] === 'assistant/message' && !hasOwn(dataOf(stored), 'message') ? dataOf(stored)['provenance'] : undefined
  if (!isRecord(provenance) || !hasOwn(provenance, 'kind')) return event
  const message = dataOf(event)['message'] as EventRecord
  return { ...event, data: { ...dataOf(event), message: { ...message, source: { ...(message['source'] as EventRecord), kind: provenance['kind'] } } } }
}

export const REPAIR_SECOND_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'repair-bad-id-checked-before-open-turn',
    bug: 'REPAIR-13 is checked before REPAIR-2, so a bad call id registered after the last turn/end rejects a closed log',
    caughtBy: ['repair-calls-registered-between-turns-give-no-closers'],
    patch: { repair: badIdsCheckedFirst, resume: resumeWith(badIdsCheckedFirst) },
  },
  {
    name: 'repair-bad-ids-forgotten-at-step-end-only',
    bug: 'calls with a bad id are tracked apart and forgotten only at a step/end, so a later turn/start does not forget them',
    caughtBy: ['repair-unloadable-id-forgotten-at-turn-start'],
    patch: scanPatch({ rules: { 'turn/start': keepingBadIds(RULES['turn/start']!), 'turn/end': keepingBadIds(RULES['turn/end']!) } }),
  },
  {
    name: 'repair-bad-id-seq-counts-answered-calls',
    bug: "the REPAIR-13 rejection's seq counts the bad id's place among every registration since the last boundary, answered calls included",
    caughtBy: ['repair-unloadable-closer-seq-after-answered-call'],
    patch: { repair: badIdSeqAmongRegistrations, resume: resumeWith(badIdSeqAmongRegistrations) },
  },
  {
    name: 'repair-re-registration-keeps-step',
    bug: 'a re-registering message without a step member keeps the step of the entry it replaces',
    caughtBy: ['repair-re-registration-without-step-drops-step'],
    patch: scanPatch({ rules: { 'assistant/message': reRegistrationKeepsStep } }),
  },
  {
    name: 'repair-any-block-with-id-registers',
    bug: 'every content block with an id member registers a call, not only tool-call blocks',
    caughtBy: ['repair-only-tool-call-blocks-register'],
    patch: scanPatch({ rules: { 'assistant/message': anyBlockWithIdRegisters } }),
  },
  {
    name: 'repair-checkpoint-forgets-calls',
    bug: 'a compaction checkpoint or a compaction/end empties the registered calls',
    caughtBy: ['repair-shadowed-assistant-message-still-registers'],
    patch: scanPatch({ rules: { 'user/message': checkpointForgets, 'compaction/end': scan => scan.calls.clear() } }),
  },
  {
    name: 'repair-ignorable-message-registers-nothing',
    bug: 'an assistant/message marked ignorable registers no call',
    caughtBy: ['repair-ignorable-known-events-register-and-start'],
    patch: scanPatch({ rules: { 'assistant/message': unlessIgnorable(RULES['assistant/message']!) } }),
  },
  {
    name: 'repair-call-ids-in-a-record',
    bug: 'the registered calls are kept in a null-prototype record keyed by id, so integer-like ids come first, in numeric order',
    caughtBy: ['repair-call-ids-named-like-object-keys'],
    patch: scanPatch({ closes: callsInRecordOrder }),
  },
  {
    name: 'repair-numbers-as-int32',
    bug: 'turn and step numbers in the closers go through `| 0`, so numbers beyond 32 bits wrap and 1.5 becomes 1',
    caughtBy: ['repair-turn-and-step-numbers-beyond-32-bits', 'repair-registered-step-copied-whatever-its-kind'],
    patch: { repair: numbersAsInt32, resume: resumeWith(numbersAsInt32) },
  },
  {
    name: 'repair-zero-time-replaced',
    bug: "the closers take `last.time || Date.now()`, so a last time of 0 is replaced by the clock",
    caughtBy: ['repair-closers-at-time-zero-and-below'],
    patch: { repair: zeroTimeReplaced, resume: resumeWith(zeroTimeReplaced) },
  },
  {
    name: 'resume-legacy-id-undefined-session',
    bug: 'legacy message ids are minted from `${sessionId ?? header.id}`, so "undefined" with neither and "5" for a sessionId of 5',
    caughtBy: ['seed-resume-legacy-ids-without-a-session-id'],
    patch: { resume: input => ref.resume({ ...input, sessionId: String(input['sessionId'] ?? headerIdOf(input)) }) },
  },
  {
    name: 'resume-legacy-error-code-unknown',
    bug: 'the legacy turn/end error upgrade always writes code UNKNOWN, dropping a stored code',
    caughtBy: ['legacy-resume-upgrades-turns-and-steering'],
    patch: { resume: resumeChanging(errorCodeUnknown) },
  },
  {
    name: 'resume-legacy-provenance-kind-kept',
    bug: "an unwrapped assistant message's source keeps the kind its provenance has instead of model",
    caughtBy: ['legacy-resume-assistant-wrapper-sets-kind-and-keeps-members'],
    patch: { resume: resumeChanging(provenanceKindKept) },
  },
  {
    name: 'resume-copy-loses-proto-member',
    bug: 'resume copies the loaded events member by member with assignments, so a data member named __proto__ is lost',
    caughtBy: ['legacy-resume-keeps-members-named-proto'],
    patch: { resume: resumeChanging(event => copiedByAssignment(event) as EventRecord) },
  },
]
