// The requestContext probe, one time in four, over a log whose request/context records hold data that
// is no object: a string, an array or null, which no producer following HDR-7 writes but a reader
// still meets. HDR-8 reads such a context as `{}`. The edit is drawn from a seed of the run's plan, as
// the headerEquals pairs are (header-pairs.ts), so a shrunk log draws it alike and the fuzzer's other
// draws stay as they were; its disagreements are a class of their own (compare.ts). Of the other
// plans, one in four gives every record members holding 0 (or, one time in two, a contextWindow written
// as a string of digits) and null, which HDR-8 takes whole with the rest, as stored (an omitempty copy
// drops them, a typed one turns the string into a number); a disagreement there is an ordinary one.
import { isRecord } from '../../reference/lossless-json.ts'
import { pick } from '../generators/choices.ts'
import { saltedChooser } from '../generators/index.ts'

/** The variant of the probes over such contexts (Probe.variant). */
export const CONTEXT_NOT_OBJECT_VARIANT = 'context data not an object'

const NOT_OBJECTS: readonly unknown[] = ['wide', [1, 2], null]

/** Salts the plan's seed, so that this draw is not the header pair's or the batch cuts'. */
const CONTEXT_SALT = 0x43545844

/** The capacities the edit below writes: one an omitempty copy drops, one a typed copy turns into a number. */
const ODD_CONTEXT_WINDOWS: readonly unknown[] = [0, '131072']

function isContext(event: unknown): event is Record<string, unknown> {
  return isRecord(event) && event['type'] === 'request/context'
}

/** Whether a request/context is in force at `atSeq` (at the log's end when there is none). */
function contextInForce(events: readonly unknown[], atSeq: number | undefined): boolean {
  return events.some(event => isContext(event) && (atSeq === undefined || (event['seq'] as number) <= atSeq))
}

/**
 * The log with the data of every request/context record replaced, or undefined when the draw keeps it,
 * or when no context is in force at `atSeq` (at the log's end when there is none), so that the edit
 * touches what the probe reads. The draws come before any look at the log, so a shrunk log draws alike.
 */
export function withContextDataNotObject(events: readonly unknown[], planSeed: number, atSeq?: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, CONTEXT_SALT)
  if (chooser.int(4) !== 0) return undefined
  const data = pick(chooser, NOT_OBJECTS)
  if (!contextInForce(events, atSeq)) return undefined
  return events.map(event => (isContext(event) ? { ...event, data: structuredClone(data) } : event))
}

/**
 * The log with a null member and an odd contextWindow (0 or "131072", drawn) set in the data of every
 * request/context record that is an object, or undefined when the draw keeps it (it takes one in four
 * of the plans the edit above leaves, three in sixteen in all), or when no context is in force at `atSeq`.
 */
export function withContextZeroAndNullMembers(events: readonly unknown[], planSeed: number, atSeq?: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, CONTEXT_SALT)
  if (chooser.int(4) === 0 || chooser.int(4) !== 0) return undefined
  const members = { contextWindow: pick(chooser, ODD_CONTEXT_WINDOWS), region: null }
  if (!contextInForce(events, atSeq)) return undefined
  return events.map(event => (isContext(event) && isRecord(event['data']) ? { ...event, data: { ...event['data'], ...members } } : event))
}
