// Mutation operators that break the envelope of one event (spec chapter 01): a record of the log that
// is no object, or whose `type`, `seq`, `time`, `ignorable` or set of members is wrong, or that lacks
// its `data`; and the same faults in an append candidate. Every value drawn is JSON, so any adapter
// can be handed it; the host values outside JSON are domain-mutations.ts's.
//
// In `load` these checks run in the replay phase, after the shape and vocabulary phases have read every
// record (PROC-2). A record that is no object, or has no string `type`, is read by no earlier phase
// (UNK-3), and the `seq`, `time` and foreign members of a record in current shapes are read by none
// either; so the fault is reported at the record, with the seq it states when that seq is usable and
// its index otherwise (PROC-1), which in a valid log is the same number. (In older shapes a legacy
// rewrite reads the record it replaces, LEGACY-11, so once the fuzzer rewrites a log into them the
// prediction may give way to that phase's fault; the properties use current shapes.) Two faults are
// read earlier, so they go only where no earlier phase looks: the vocabulary phase refuses an unknown
// type whose `ignorable` is not `true` (UNK-3), so `ignorable` is broken only on known types; and the
// shape phase reads the payload of the message, turn, step, tool-call, request-header and legacy
// steering types, so `data` is removed only from the others. In `append` every check of chapter 01
// comes before the shape checks (PROC-3), so any candidate may lose its `data`.
import { pick, type Chooser } from './choices.ts'
import { cloneEvents } from './log-edit.ts'
import type { JsonObject, LogEvent } from './events.ts'
import { candidateOf, defineMutation, indexesWhere, type Edit, type LogInput, type Mutation } from './mutation-kit.ts'
import { V0_PINNED_TYPES } from '../../reference/vocabulary.ts'

/** Values that are JSON but no JSON object (ENV-1). */
const NOT_OBJECTS = [null, 0, 'user/message', [], [{ type: 'user/message' }], true]

/** Values `type` may not take (ENV-3): absent, not a string, or a storage tag of chapter 19. */
const BAD_TYPES = [undefined, null, 5, ['user/message'], { type: 'user/message' }, 'text-chunks', 'reasoning-chunks', 'tool-call-chunks']

/** Values that are no usable seq (ENV-4): absent, negative, fractional, unsafe or not a number. */
const BAD_SEQS = [undefined, -1, 1.5, 2 ** 53, '0', null]

/** Values that are no `time` (ENV-5): absent, fractional, unsafe or not a number. Negative times are valid. */
const BAD_TIMES = [undefined, 1.5, 2 ** 53, -(2 ** 53), '1790000000000', null, true]

/** Values `ignorable` may not take (ENV-7): anything present but the literal `true`. */
const BAD_IGNORABLES = [false, null, 1, 'true', {}]

/** Members no record may have (ENV-2); the names are compared exactly, so a case variant is foreign too. */
const FOREIGN_MEMBERS = ['turn', 'Type', 'meta', 'surfaceop']

/** The types whose payload the shape phase of `load` reads (PROC-2: chapters 04, 09, 16 and 18). */
const SHAPE_READ_TYPES: ReadonlySet<string> = new Set([
  'user/message', 'assistant/message', 'tool/result', 'turn/start', 'turn/end', 'step/start', 'step/end',
  'assistant/chunk', 'tool/call', 'request/header', 'steering/message',
])

/** A type of the vocabulary `load` reads by default (chapter 04), which the vocabulary phase passes. */
const isKnownType = (event: LogEvent): boolean => V0_PINNED_TYPES.has(event.type)

/** Sets `member` of `record` to `value`, or removes it when `value` is undefined (absent, not undefined). */
function setMember(record: JsonObject, member: string, value: unknown): void {
  if (value === undefined) delete record[member]
  else record[member] = value as JsonObject[string]
}

/** A `load` operator whose `change` breaks the envelope of the record at one of `targets`. */
function loadEnvelopeMutation(
  name: string, code: string, rule: string, targets: (event: LogEvent) => boolean,
  change: (record: JsonObject, chooser: Chooser) => unknown,
): Mutation {
  return defineMutation({
    name, code, rule, operation: 'load',
    targets: log => indexesWhere(log.events, targets),
    edit(log: LogInput, index: number, chooser: Chooser): Edit {
      const events: unknown[] = cloneEvents(log.events)
      const record = events[index] as JsonObject
      const replacement = change(record, chooser)
      if (replacement !== record) events[index] = replacement
      return { events, seq: index }
    },
  })
}

/** An `append` operator: `change` breaks (or replaces) the candidate made from event `index`. */
function appendEnvelopeMutation(
  name: string, code: string, rule: string,
  change: (candidate: JsonObject, chooser: Chooser) => unknown,
): Mutation {
  return defineMutation({
    name, code, rule, operation: 'append',
    targets: log => indexesWhere(log.events, () => true),
    edit(log: LogInput, index: number, chooser: Chooser): Edit {
      const candidate = change(candidateOf(log.events[index]!), chooser)
      return { events: cloneEvents(log.events.slice(0, index)), candidate, seq: index }
    },
  })
}

const anyEvent = (): boolean => true

/** Returns `record` after `change`, for the operators that edit the record in place. */
const edited = (change: (record: JsonObject, chooser: Chooser) => void) => (record: JsonObject, chooser: Chooser): JsonObject => {
  change(record, chooser)
  return record
}

const withBadType = edited((record, chooser) => setMember(record, 'type', pick(chooser, BAD_TYPES)))
const withoutData = edited(record => { delete record['data'] })

export const ENVELOPE_MUTATIONS: readonly Mutation[] = [
  loadEnvelopeMutation('record-not-object', 'ENV_NOT_OBJECT', 'ENV-1', anyEvent, (_record, chooser) => structuredClone(pick(chooser, NOT_OBJECTS))),
  loadEnvelopeMutation('record-foreign-member', 'ENV_UNKNOWN_KEY', 'ENV-2', anyEvent, edited((record, chooser) => {
    record[pick(chooser, FOREIGN_MEMBERS)] = pick(chooser, [1, 'x', null, {}])
  })),
  loadEnvelopeMutation('record-type-invalid', 'ENV_TYPE_INVALID', 'ENV-3', anyEvent, withBadType),
  loadEnvelopeMutation('record-seq-invalid', 'ENV_SEQ_INVALID', 'ENV-4', anyEvent, edited((record, chooser) => setMember(record, 'seq', pick(chooser, BAD_SEQS)))),
  loadEnvelopeMutation('record-time-invalid', 'ENV_TIME_INVALID', 'ENV-5', anyEvent, edited((record, chooser) => setMember(record, 'time', pick(chooser, BAD_TIMES)))),
  loadEnvelopeMutation('record-data-missing', 'ENV_DATA_MISSING', 'ENV-6', event => !SHAPE_READ_TYPES.has(event.type), withoutData),
  loadEnvelopeMutation('record-ignorable-invalid', 'ENV_IGNORABLE_INVALID', 'ENV-7', isKnownType, edited((record, chooser) => {
    record['ignorable'] = structuredClone(pick(chooser, BAD_IGNORABLES))
  })),
  appendEnvelopeMutation('append-not-object', 'ENV_NOT_OBJECT', 'ENV-1', (_candidate, chooser) => structuredClone(pick(chooser, NOT_OBJECTS))),
  appendEnvelopeMutation('append-type-invalid', 'ENV_TYPE_INVALID', 'ENV-3', withBadType),
  appendEnvelopeMutation('append-data-missing', 'ENV_DATA_MISSING', 'ENV-6', withoutData),
]
