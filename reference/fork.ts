/**
 * Chapter 15: fork at a stable prefix. The child inherits the source events up to an inclusive
 * boundary that lies outside every turn, then marks the end of its seed.
 */
import { accept, reject, type Result } from './result.ts'
import { isNonNegativeSafeInteger, isRecord, type JsonRecord } from './lossless-json.ts'
import { withEndSeed } from './seeds.ts'
import type { SessionEvent } from './envelope.ts'

export interface ForkInput {
  header: JsonRecord | undefined
  /** The source's id: the `sessionId` input, else the source header's id; unknown without either. */
  sourceId: unknown
  events: readonly SessionEvent[]
  /** `undefined` means the boundary was omitted (FORK-1, PROC-10). */
  boundary: unknown
  childId: unknown
  now: number
}

export interface ForkValue {
  header: JsonRecord
  events: SessionEvent[]
}

/** FORK-1, FORK-2: the inclusive boundary, or -1 for the empty prefix of an empty source. */
function boundaryOf(input: ForkInput): Result<number> {
  // Stryker disable next-line UnaryOperator: with no events any boundary past -1 slices the same empty prefix
  if (input.boundary === undefined && input.events.length === 0) return accept(-1)
  const boundary = input.boundary === undefined ? input.events.length - 1 : input.boundary
  if (!isNonNegativeSafeInteger(boundary)) return reject('FORK_INVALID_BOUNDARY', `boundary ${String(boundary)} is not a non-negative safe integer`)
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a boundary at or past the end finds no event, so the seq check below rejects it with the same code
  if (boundary >= input.events.length) return reject('FORK_INVALID_BOUNDARY', `boundary ${boundary} is not a seq of the source`)
  // Stryker disable next-line ConditionalExpression,OptionalChaining,StringLiteral: in a loaded log the event at index b has seq b (ENV-9), so after the length check this never rejects
  if (input.events[boundary]?.seq !== boundary) return reject('FORK_INVALID_BOUNDARY', `the event at ${boundary} does not carry that seq`)
  return accept(boundary)
}

/** FORK-5: the child header, members in upstream's order. */
function childHeader(input: ForkInput, seedLength: number): JsonRecord {
  const source = input.header
  return {
    version: 0,
    id: input.childId,
    createdAt: input.now,
    ...(isRecord(source) && Object.hasOwn(source, 'cwd') ? { cwd: source['cwd'] } : {}),
    ...(input.sourceId === undefined ? {} : { parentSession: input.sourceId }),
    seedLength,
  }
}

export function forkChild(input: ForkInput): Result<ForkValue> {
  const boundary = boundaryOf(input)
  if (!boundary.ok) return boundary
  const prefix = input.events.slice(0, boundary.value + 1)
  const lastTurnEvent = prefix.findLast(event => event.type === 'turn/start' || event.type === 'turn/end')
  if (lastTurnEvent?.type === 'turn/start') {
    return reject('FORK_OPEN_TURN', 'the boundary falls inside an open turn', { seq: lastTurnEvent.seq })
  }
  return accept({ header: childHeader(input, prefix.length), events: withEndSeed(prefix, input.now) })
}
