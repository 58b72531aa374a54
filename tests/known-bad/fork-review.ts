// Known-bad adapters from a planted-bug review of fork (bugs planted in a second implementation of
// chapter 15; these fourteen passed every vector of the fork profile then): what a port reads into
// FORK-1 to FORK-6 about the boundary, the open turn, the seed, the child header and its marker.
import type { OperationResult } from '../../conformance/expectations.ts'
import { vocabularyNamed } from '../../reference/unknown-types.ts'
import { accepted, isRecord, loadedEvents, recordsOf, ref, rejected, type Input, type KnownBad, type SyncOperation } from './wrap.ts'

type EventRecord = Record<string, unknown>
export type Child = { header: EventRecord; events: EventRecord[] }

/** fork as the reference answers it, an accepted child handed to `answer` for the answer given instead. */
export function forkThen(answer: (child: Child, input: Input) => OperationResult): SyncOperation {
  return input => {
    const result = ref.fork(input)
    return result.ok ? answer(result.value as Child, input) : result
  }
}

function seedLengthOf(child: Child): number {
  return child.header['seedLength'] as number
}

/** The child's seed: its events before the marker fork adds. */
function seedOf(child: Child): EventRecord[] {
  return child.events.slice(0, seedLengthOf(child))
}

/** The child with each seed event changed by `change`. */
export function withSeedChanged(child: Child, change: (event: EventRecord, index: number) => unknown): OperationResult {
  return accepted({ ...child, events: child.events.map((event, index) => (index < seedLengthOf(child) ? change(event, index) : event)) })
}

function without(record: EventRecord, name: string): EventRecord {
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== name))
}

function isTurnEvent(event: unknown): boolean {
  return isRecord(event) && (event['type'] === 'turn/start' || event['type'] === 'turn/end')
}

/** The boundary is read as an integer, and the language's bool passes as one: false is 0, true is 1. */
const boundaryBoolIsInt: SyncOperation = input =>
  ref.fork(typeof input['boundary'] === 'boolean' ? { ...input, boundary: Number(input['boundary']) } : input)

/** A turn is open while the prefix's turn/starts outnumber its turn/ends; the first start no end matched is named. */
const openTurnByCount = forkThen(child => {
  const unmatched: number[] = []
  for (const event of seedOf(child)) {
    if (event['type'] === 'turn/start') unmatched.push(event['seq'] as number)
    if (event['type'] === 'turn/end') unmatched.pop()
  }
  return unmatched.length > 0 ? rejected('FORK_OPEN_TURN', unmatched[0]) : accepted(child)
})

/** The last turn event is sought among those not marked ignorable, as if ignorable hid a known event too. */
const openTurnSkipsIgnorable: SyncOperation = input => {
  const loaded = loadedEvents(input)
  const hidden = (event: unknown): boolean => isTurnEvent(event) && (event as EventRecord)['ignorable'] === true
  if (loaded === undefined) return ref.fork(input)
  // Hidden behind an unknown ignorable type the reference passes over, then put back as loaded.
  const records = recordsOf(input).map(record => (hidden(record) ? { ...(record as EventRecord), type: 'x-known-bad/hidden' } : record))
  const result = ref.fork({ ...input, events: records })
  return result.ok ? withSeedChanged(result.value as Child, (event, index) => (hidden(loaded[index]) ? loaded[index] : event)) : result
}

/** An open step is taken for an open turn: a prefix whose last step event is a step/start is refused at it. */
const openStepRejected = forkThen(child => {
  const lastStep = seedOf(child).findLast(event => event['type'] === 'step/start' || event['type'] === 'step/end')
  return lastStep?.['type'] === 'step/start' ? rejected('FORK_OPEN_TURN', lastStep['seq'] as number) : accepted(child)
})

/** The seed copies a turn/start record as stored, so the legacy trigger load drops (LEGACY-5) stays in it. */
const seedAsStored = forkThen((child, input) =>
  withSeedChanged(child, (event, index) => (event['type'] === 'turn/start' ? recordsOf(input)[index] : event)))

/** Seed events of known types are rebuilt from their typed fields, which have no ignorable. */
const seedDropsIgnorable = forkThen((child, input) => {
  const known = vocabularyNamed(input['vocabulary'])
  return withSeedChanged(child, event => (known?.has(event['type'] as string) ? without(event, 'ignorable') : event))
})

/** Seed events are rebuilt from their typed fields, and an empty sourceEventSeqs is written as none. */
const seedDropsEmptySources = forkThen(child => withSeedChanged(child, event =>
  Array.isArray(event['sourceEventSeqs']) && event['sourceEventSeqs'].length === 0 ? without(event, 'sourceEventSeqs') : event))

/** The source is loaded with the default vocabulary, whatever vocabulary the input names. */
const defaultVocabulary: SyncOperation = input => ref.fork({ ...input, vocabulary: undefined })

/** Whether a sessionId was given is asked of the input's keys, so one of undefined hides the header's id. */
const sessionIdByKey = forkThen((child, input) =>
  accepted('sessionId' in input && input['sessionId'] === undefined ? { ...child, header: without(child.header, 'parentSession') } : child))

/** Whether a header was given is asked of the input's keys, so one of undefined gives parentSession its missing id. */
const headerByKey = forkThen((child, input) =>
  accepted('header' in input && input['header'] === undefined && !('parentSession' in child.header)
    ? { ...child, header: { ...child.header, parentSession: undefined } }
    : child))

/** The child is never made before its source: createdAt is the later of now and the source header's createdAt. */
const createdAtNotBeforeSource = forkThen((child, input) => {
  const sourceCreatedAt = isRecord(input['header']) ? input['header']['createdAt'] : undefined
  if (typeof sourceCreatedAt !== 'number') return accepted(child)
  return accepted({ ...child, header: { ...child.header, createdAt: Math.max(child.header['createdAt'] as number, sourceCreatedAt) } })
})

/** fork whose seed's closing end-seed stands as the marker only when `counts` takes it for one; else a marker follows it. */
function markerCountedWhen(counts: (marker: EventRecord) => boolean): SyncOperation {
  return forkThen((child, input) => {
    const last = child.events.at(-1)
    if (child.events.length !== seedLengthOf(child) || last === undefined || counts(last)) return accepted(child)
    return accepted({ ...child, events: [...child.events, { type: 'session/end-seed', seq: child.events.length, time: input['now'], data: {} }] })
  })
}

/** A seed's closing end-seed counts as its marker only when its data is empty. */
const markerNeedsEmptyData = markerCountedWhen(marker => isRecord(marker['data']) && Object.keys(marker['data']).length === 0)

/** A seed's closing end-seed marked ignorable is passed over, as readers pass over ignorable events. */
const markerSkipsIgnorable = markerCountedWhen(marker => marker['ignorable'] !== true)

/** Times never run backwards: the added marker's time is the later of now and the seed's last event's. */
const markerTimeNotBeforeLast = forkThen(child => {
  const seed = seedOf(child)
  const [last, marker] = [seed.at(-1), child.events[seed.length]]
  if (last === undefined || marker === undefined) return accepted(child)
  return accepted({ ...child, events: [...seed, { ...marker, time: Math.max(marker['time'] as number, last['time'] as number) }] })
})

export const FORK_REVIEW_BUGS: readonly KnownBad[] = [
  {
    name: 'fork-boundary-bool-is-int',
    bug: 'a boolean boundary is read as 0 or 1',
    caughtBy: ['fork-boundary-boolean'],
    patch: { fork: boundaryBoolIsInt },
  },
  {
    name: 'fork-open-turn-by-count',
    bug: "a turn is open while the prefix's turn/starts outnumber its turn/ends",
    caughtBy: ['fork-open-turn-by-the-latest-turn-event'],
    patch: { fork: openTurnByCount },
  },
  {
    name: 'fork-open-turn-skips-ignorable',
    bug: 'turn events marked ignorable are passed over in finding the last turn event',
    caughtBy: ['fork-ignorable-turn-start-opens-the-turn'],
    patch: { fork: openTurnSkipsIgnorable },
  },
  {
    name: 'fork-open-step-rejected',
    bug: 'a prefix ending inside a step is refused as FORK_OPEN_TURN',
    caughtBy: ['fork-step-alone-is-no-open-turn'],
    patch: { fork: openStepRejected },
  },
  {
    name: 'fork-seed-as-stored',
    bug: 'the seed copies a turn/start record as stored, its legacy trigger kept',
    caughtBy: ['fork-seed-is-the-loaded-form'],
    patch: { fork: seedAsStored },
  },
  {
    name: 'fork-seed-drops-ignorable',
    bug: 'the seed events of known types lose their ignorable member',
    caughtBy: ['fork-seed-keeps-ignorable-and-empty-sources'],
    patch: { fork: seedDropsIgnorable },
  },
  {
    name: 'fork-seed-drops-empty-sources',
    bug: 'an empty sourceEventSeqs is dropped from the seed events',
    caughtBy: ['fork-seed-keeps-ignorable-and-empty-sources'],
    patch: { fork: seedDropsEmptySources },
  },
  {
    name: 'fork-default-vocabulary',
    bug: 'the source is loaded with the default vocabulary, whatever the input names',
    caughtBy: ['fork-under-the-rc8-vocabulary'],
    patch: { fork: defaultVocabulary },
  },
  {
    name: 'fork-session-id-by-key',
    bug: 'a sessionId member whose value is undefined leaves the child without a parentSession',
    caughtBy: ['fork-undefined-id-inputs-are-absent'],
    patch: { fork: sessionIdByKey },
  },
  {
    name: 'fork-header-by-key',
    bug: 'a header member whose value is undefined gives the child a parentSession holding undefined',
    caughtBy: ['fork-undefined-id-inputs-are-absent'],
    patch: { fork: headerByKey },
  },
  {
    name: 'fork-created-at-not-before-source',
    bug: "the child's createdAt is the later of now and the source's createdAt",
    caughtBy: ['fork-now-earlier-than-the-source'],
    patch: { fork: createdAtNotBeforeSource },
  },
  {
    name: 'fork-marker-needs-empty-data',
    bug: "a seed's closing end-seed counts as the marker only when its data is empty",
    caughtBy: ['fork-seed-ending-in-any-end-seed'],
    patch: { fork: markerNeedsEmptyData },
  },
  {
    name: 'fork-marker-skips-ignorable',
    bug: "a seed's closing end-seed marked ignorable is not taken for the marker",
    caughtBy: ['fork-seed-ending-in-any-end-seed'],
    patch: { fork: markerSkipsIgnorable },
  },
  {
    name: 'fork-marker-time-not-before-last',
    bug: "the added marker's time is the later of now and the seed's last event's time",
    caughtBy: ['fork-now-earlier-than-the-source'],
    patch: { fork: markerTimeNotBeforeLast },
  },
]
